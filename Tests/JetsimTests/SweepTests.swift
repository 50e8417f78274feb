import Foundation
import Testing

@testable import Jetsim

@Suite struct SweepTests {
  let scratch: Scratch
  let definition: SweepDefinition

  init() throws {
    scratch = try Scratch()
    definition = try SweepDefinition.load(
      at: "\(packageRoot)/Profiles/sweeps/heavy-social-policies.json")
  }

  /// The files a finished sweep leaves for people and for merge: the same bytes, however it ran.
  func files(_ folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in ["sweep.csv", "sweep-summary.csv", "sweep-manifest.json"] {
      result[name] = try #require(
        FileManager.default.contents(atPath: "\(folder)/\(name)"), "\(folder)/\(name)")
    }
    return result
  }

  @Test func theSweepHasTheCartesianProductInAStableOrder() throws {
    #expect(definition.pointCount == 12 && definition.runCount == 60)
    #expect(definition.columns == ["memory_kb", "policy", "seed"])
    #expect(definition.run(0).labels == ["3145728", "largest-first", "1"])
    #expect(definition.run(6).labels == ["3145728", "jetsam", "2"])
    #expect(definition.run(59).labels == ["8388608", "lmkd", "5"])
    #expect(definition.run(59).scenario.device.memoryKB == 8 * 1_048_576)
    #expect(definition.run(59).scenario.policy == "lmkd")
  }

  @Test func oneThreadAndTwoGiveIdenticalFiles() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/one", jobs: 1)
    _ = try Sweep.run(definition, into: scratch.path + "/two", jobs: 2)
    let one = try files(scratch.path + "/one")
    #expect(
      String(decoding: one["sweep.csv"] ?? Data(), as: UTF8.self).split(separator: "\n").count == 1
        + 60)
    #expect(one == (try files(scratch.path + "/two")))
  }

  @Test func shardsMergedEqualOneMachine() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/whole", jobs: 2)
    var shards: [String] = []
    for index in 1...3 {
      let folder = scratch.path + "/shard-\(index)"
      let outcome = try Sweep.run(definition, into: folder, jobs: 1, shard: ShardSpec("\(index)/3"))
      #expect(outcome.owned == 20 && !outcome.assembled)
      shards.append(folder)
    }
    #expect(try Sweep.merge(shards, into: scratch.path + "/merged") == 60)
    #expect(try files(scratch.path + "/merged") == files(scratch.path + "/whole"))
  }

  @Test func aMissingShardIsNamed() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/a", jobs: 1, shard: ShardSpec("1/2"))
    let error = try #require(throws: JetsimError.self) {
      try Sweep.merge([scratch.path + "/a"], into: scratch.path + "/m")
    }
    #expect("\(error)".contains("30 of 60 runs missing (the first: run 1)"))
  }

  @Test func resumingAnInterruptedSweepGivesTheUninterruptedFiles() throws {
    let whole = scratch.path + "/whole"
    _ = try Sweep.run(definition, into: whole, jobs: 2)
    // An interrupted sweep: 40 runs finished, one torn mid-line, nothing assembled.
    let interrupted = scratch.path + "/interrupted"
    _ = try Sweep.run(definition, into: interrupted, jobs: 2)
    let runs = interrupted + "/runs"
    for name in try FileManager.default.contentsOfDirectory(atPath: runs) {
      try FileManager.default.removeItem(atPath: "\(runs)/\(name)")
    }
    let kept = Sweep.journalRows(in: [whole]).filter { $0.key % 3 != 0 }.sorted { $0.key < $1.key }
    let journal = kept.map { "\($0.key)\t\($0.value)" }.joined() + "3\t3145728,jetsam,2,7200000,14"
    try Data(journal.utf8).write(to: URL(fileURLWithPath: runs + "/journal-1-1.tsv"))
    try FileManager.default.removeItem(atPath: interrupted + "/sweep.csv")
    try FileManager.default.removeItem(atPath: interrupted + "/sweep-summary.csv")
    let outcome = try Sweep.run(definition, into: interrupted, jobs: 2, resume: true)
    #expect(outcome.ran == 20 && outcome.alreadyDone == 40)
    #expect(try files(interrupted) == files(whole))
  }

  @Test func resumeRefusesADifferentSweep() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/s", jobs: 1)
    let other = try SweepDefinition.load(
      at: "\(packageRoot)/Profiles/sweeps/light-user-memory.json")
    #expect(throws: JetsimError.self) {
      try Sweep.run(other, into: scratch.path + "/s", jobs: 1, resume: true)
    }
  }

  @Test func shardSpecs() {
    #expect(ShardSpec("2/4") != nil)
    for bad in ["3/2", "0/2", "1/0", "2", "a/b", "1/2/3", "-1/2"] {
      #expect(ShardSpec(bad) == nil, "\(bad)")
    }
    let shards = (1...4).compactMap { ShardSpec("\($0)/4") }
    for run in 0..<20 { #expect(shards.filter { $0.owns(run) }.count == 1) }
  }

  func badSweep(_ axes: String) throws -> JetsimError {
    let scenario = "\(packageRoot)/Profiles/scenarios/light-user-2gb.json"
    let file = try scratch.write(
      "bad.json", #"{"version": 1, "name": "bad", "scenario": "\#(scenario)", "axes": {\#(axes)}}"#)
    return try #require(throws: JetsimError.self) { try SweepDefinition.load(at: file) }
  }

  @Test func badSweepFilesGetClearErrors() throws {
    #expect(
      "\(try badSweep(#""memroy": ["1GB"]"#))".contains(
        "unknown key 'axes.memroy'; did you mean 'memory'?"))
    #expect(
      "\(try badSweep(#""memory": []"#))".contains(
        "'axes.memory' is an empty list; expected at least one value"))
    #expect(
      "\(try badSweep(#""seeds": "5..1""#))".contains(
        "'axes.seeds': '5..1' is an empty or huge range"))
    #expect("\(try badSweep(#""memory": ["1 gigabyte"]"#))".contains("'axes.memory[0]'"))
    #expect("\(try badSweep(#""policy": ["lru", "xnu"]"#))".contains("'xnu'"))
    // 100 MB is less than the device's reserved memory: no point may be an invalid device.
    #expect(
      "\(try badSweep(#""memory": ["100MB"]"#))".contains(
        "whose device's reserved is 450MB; expected less than memory (100MB)"))
  }
}

@Suite struct UserModelTests {
  let model = UserModel(
    apps: ["a", "b", "c", "d"], popularity: .zipf(exponent: 1), dwell: .exponential(meanMs: 60_000),
    gap: .exponential(meanMs: 600_000), homeShare: 0.5, lockShare: 0.2, interruptionShare: 0.1,
    interruption: .fixed(30_000), wakes: [UserModel.Wakes(app: "c", perHour: 6, durationMs: 10_000)]
  )

  @Test func openFrequenciesFollowZipf() {
    let actions = model.actions(durationMs: 2_000 * 3_600_000, seed: 3)
    // Count choices: an open is a choice of a new app; staying in the same app after a direct switch
    // makes no open, so compare shares among apps opened after home (which always opens).
    var afterHome: [String: Int] = [:]
    var wasHome = true
    for action in actions {
      switch action.action {
      case .home: wasHome = true
      case .open(let app):
        if wasHome { afterHome[app, default: 0] += 1 }
        wasHome = false
      default: break
      }
    }
    let total = Double(afterHome.values.reduce(0, +))
    #expect(total > 20_000)
    for (app, probability) in zip(model.apps, model.probabilities) {
      let observed = Double(afterHome[app] ?? 0) / total
      #expect(abs(observed - probability) < 0.01, "\(app): \(observed) vs \(probability)")
    }
    #expect(
      model.probabilities.map { Units.decimal($0, digits: 4) } == [
        "0.4800", "0.2400", "0.1600", "0.1200",
      ])
  }

  @Test func switchSharesInterruptionsAndWakesFollowTheirParameters() {
    let hours = 2_000
    let actions = model.actions(durationMs: hours * 3_600_000, seed: 5)
    let homes = Double(actions.filter { $0.action == .home }.count)
    let locks = Double(actions.filter { $0.action == .lock }.count)
    let interrupts = Double(
      actions.filter { if case .interrupt = $0.action { true } else { false } }.count)
    let wakes = Double(actions.filter { if case .wake = $0.action { true } else { false } }.count)
    // Every app use ends in one switch: home, lock or direct (with 0.5, 0.2, 0.3).
    let uses = homes / 0.5
    #expect(abs(locks / uses - 0.2) < 0.01)
    #expect(abs(interrupts / uses - 0.1) < 0.01)
    #expect(abs(wakes / Double(hours) - 6) < 0.2)
  }

  @Test func durationsHaveTheirMeans() {
    var random = RandomStream(seed: 11, stream: 2)
    for duration in [
      UserModel.Duration.exponential(meanMs: 90_000), .logNormal(medianMs: 60_000, sigma: 0.8),
      .fixed(5_000),
    ] {
      let draws = (0..<200_000).map { _ in Double(duration.draw(&random)) }
      let mean = draws.reduce(0, +) / Double(draws.count)
      #expect(abs(mean / duration.meanMs - 1) < 0.02, "\(duration): \(mean)")
    }
    var median = RandomStream(seed: 12, stream: 2)
    let sorted = (0..<100_001).map { _ in
      UserModel.Duration.logNormal(medianMs: 60_000, sigma: 0.8).draw(&median)
    }.sorted()
    #expect(abs(Double(sorted[50_000]) / 60_000 - 1) < 0.02)
  }

  @Test func eachSourceHasItsOwnStream() {
    var quiet = model
    quiet.wakes = []
    let user = { (actions: [TimedAction]) in
      actions.filter { if case .wake = $0.action { false } else { true } }
    }
    #expect(
      user(model.actions(durationMs: 36_000_000, seed: 9))
        == user(quiet.actions(durationMs: 36_000_000, seed: 9)))
    #expect(
      model.actions(durationMs: 36_000_000, seed: 9)
        != model.actions(durationMs: 36_000_000, seed: 10))
  }

  @Test func aScenarioWithAUserModelIsDeterministicAndSeeded() throws {
    var scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/heavy-social-4gb.json")
    let first = try Simulator.run(scenario).csv
    #expect(first == (try Simulator.run(scenario).csv))
    scenario.seed = 2
    #expect(first.events != (try Simulator.run(scenario).csv.events))
  }
}

@Suite struct PlannerTests {
  @Test func theAnswerIsTheEdgeASweepFinds() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/light-user-2gb.json")
    let target = try #require(CapacityTarget.parse("warm-resume-ratio>=0.9").target)
    let seeds: [UInt64] = [1, 2, 3, 4, 5]
    let plan = try Planner.plan(
      scenario, target: target, seeds: seeds, minKB: mb(800), maxKB: mb(4096), precisionKB: mb(64),
      jobs: 2)
    let answer = try #require(plan.answerKB)
    // A sweep over the answer and one step below agrees: all seeds meet the target at the answer,
    // not all one step below.
    for (memory, expected) in [(answer, true), (answer - mb(64), false)] {
      var sized = scenario
      sized.device = scenario.device.withMemory(memory)
      let met = try seeds.allSatisfy { seed in
        var run = sized
        run.seed = seed
        return target.holds(target.metric.value(try Simulator.run(run).summary.metrics))
      }
      #expect(met == expected, "\(memory / 1024) MB")
    }
    #expect(plan.probes.map(\.memoryKB) == plan.probes.map(\.memoryKB).sorted())
  }

  @Test func targets() {
    #expect(
      CapacityTarget.parse("warm-resume-ratio >= 0.9").target?.description
        == "warm_resume_ratio >= 0.9000")
    #expect(CapacityTarget.parse("kills_per_hour<1").target?.holds(0.5) == true)
    #expect(CapacityTarget.parse("kills_per_hour<1").target?.holds(nil) == false)
    #expect(
      CapacityTarget.parse("warm-resume-ration>=0.9").problem?.contains(
        "did you mean 'warm_resume_ratio'?") == true)
    #expect(CapacityTarget.parse("warm-resume-ratio>=lots").problem == "'lots' is not a number")
    #expect(CapacityTarget.parse("warm-resume-ratio").problem?.hasPrefix("write it as") == true)
  }

  @Test func withMemoryRederivesOnlyWhatWasDerived() {
    let derived = DeviceProfile(name: "d", memoryKB: mb(2048), reservedKB: mb(400))
    let bigger = derived.withMemory(mb(4096))
    #expect(
      bigger.warningThresholdKB == mb(4096) * 15 / 100
        && bigger.criticalThresholdKB == mb(4096) * 4 / 100)
    #expect(bigger.foregroundLimitKB == mb(4096) - mb(400))
    let given = DeviceProfile(
      name: "d", memoryKB: mb(2048), reservedKB: mb(400), foregroundLimitKB: mb(1000),
      warningThresholdKB: mb(300))
    let resized = given.withMemory(mb(4096))
    #expect(resized.foregroundLimitKB == mb(1000) && resized.warningThresholdKB == mb(300))
    #expect(resized.criticalThresholdKB == mb(4096) * 4 / 100)
  }
}
