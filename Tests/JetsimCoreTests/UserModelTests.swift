import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct UserModelTests {
  let model = UserModel(
    apps: ["a", "b", "c", "d"], popularity: .zipf(exponent: 1), dwell: .exponential(meanMs: 60_000),
    gap: .exponential(meanMs: 600_000), homeShare: 0.5, lockShare: 0.2, interruptionShare: 0.1,
    interruption: .fixed(30_000), wakes: [UserModel.Wakes(app: "c", perHour: 6, duration: 10_000)]
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

  /// A model with many background processes: wakes at several rates and audio sessions.
  func busy(wakes count: Int) -> UserModel {
    var busy = model
    busy.wakes = (0..<count).map {
      UserModel.Wakes(
        app: ["a", "b", "c", "d"][$0 % 4], perHour: Double(1 + $0 % 7), duration: 5_000)
    }
    busy.audio = [
      UserModel.AudioSessions(app: "b", perHour: 2, duration: .exponential(meanMs: 600_000)),
      UserModel.AudioSessions(app: "d", perHour: 0.5, duration: .fixed(3_600_000)),
    ]
    return busy
  }

  @Test func manyBackgroundProcessesMergeInTimeOrder() {
    let durationMs = 48 * 3_600_000
    let actions = busy(wakes: 200).actions(durationMs: durationMs, seed: 3)
    #expect(zip(actions, actions.dropFirst()).allSatisfy { $0.timeMs <= $1.timeMs })
    #expect(actions.allSatisfy { $0.timeMs <= durationMs })
    // About 4 wakes an hour per entry on average: 200 entries over 48 hours.
    let wakes = actions.filter { $0.action.kind == .wake }.count
    #expect(abs(Double(wakes) / Double(200 * 48 * 4) - 1) < 0.05)
    // Each audio app's sessions alternate: start, stop, start, ...
    for app in ["b", "d"] {
      let kinds = actions.compactMap { action -> ActionKind? in
        switch action.action {
        case .startMode(app, .audio), .stopMode(app, .audio): action.action.kind
        default: nil
        }
      }
      #expect(!kinds.isEmpty)
      #expect(kinds.enumerated().allSatisfy { $1 == ($0 % 2 == 0 ? .startMode : .stopMode) })
    }
  }

  @Test func aProcessAddedLastLeavesTheOthersAlone() {
    // Each entry draws from its own stream, so one more entry only adds its own actions.
    let few = busy(wakes: 30).actions(durationMs: 36_000_000, seed: 5)
    var more = busy(wakes: 30)
    more.wakes.append(UserModel.Wakes(app: "a", perHour: 12, duration: 1_000))
    let all = more.actions(durationMs: 36_000_000, seed: 5)
    let added = all.filter { if case .wake("a", 1_000) = $0.action { true } else { false } }
    #expect(added.count > 50)
    #expect(all.filter { !added.contains($0) } == few)
    #expect(more.actions(durationMs: 36_000_000, seed: 5) == all)
  }

  @Test func aTinyRateDrawsNothingAndDoesNotTrap() {
    var rare = model
    rare.wakes = [UserModel.Wakes(app: "c", perHour: 1e-300, duration: 10_000)]
    rare.audio = [UserModel.AudioSessions(app: "b", perHour: 1e-300, duration: .fixed(1_000))]
    let tenYears = 10 * 365 * 24 * 3_600_000
    var stream = rare.stream(durationMs: tenYears, seed: 1)
    var count = 0
    while let action = stream.next() {
      #expect(action.action.kind != .wake && action.action.kind != .startMode)
      count += 1
      if count > 10_000 { break }
    }
    #expect(count > 10_000)
  }

  /// A run reads the user model's actions as steps with the scenario's app numbers (no id looked
  /// up per action): they are the model's actions, each compiled by its app's place in `apps`.
  @Test func aScenarioReadsTheModelsActionsAsNumberedSteps() throws {
    var busy = model
    busy.audio = [UserModel.AudioSessions(app: "d", perHour: 3, duration: .fixed(600_000))]
    busy.growthPerMinuteKB = 512
    // The scenario lists the apps in another order than the model, with one the model never names.
    let ids = ["x", "d", "c", "b", "a"]
    let scenario = Self.scenario(busy, apps: ids, audio: ids)
    let expected = busy.actions(durationMs: Self.hours40, seed: scenario.seed).map {
      WorkloadStep(
        timeMs: $0.timeMs, kind: $0.action.kind,
        app: $0.action.app.map { Int32(ids.firstIndex(of: $0) ?? -2) } ?? -1,
        value: $0.action.value)
    }
    var workload = try scenario.workload()
    var steps: [WorkloadStep] = []
    while let step = workload.next() { steps.append(step) }
    #expect(Set(expected.map(\.kind)).count == 9)
    #expect(steps == expected)
    #expect(workload.failure == nil)
  }

  /// An app the scenario lacks, or an audio session of an app that does not declare audio, ends
  /// the run's workload with the error of an action compiled by id (the loader catches both in
  /// files; a scenario built in code meets them here).
  @Test func aModelsUnknownAppOrUndeclaredModeEndsTheWorkload() throws {
    var unknown = model
    unknown.wakes = [UserModel.Wakes(app: "zz", perHour: 60, duration: 1_000)]
    var workload = try Self.scenario(unknown, apps: ["a", "b", "c", "d"], audio: []).workload()
    while workload.next() != nil {}
    guard case .unknownApp(_, "userModel", "zz", _) = workload.failure else {
      Issue.record("expected an unknown app 'zz', got \(String(describing: workload.failure))")
      return
    }
    var undeclared = model
    undeclared.audio = [UserModel.AudioSessions(app: "b", perHour: 6, duration: .fixed(60_000))]
    workload = try Self.scenario(undeclared, apps: ["a", "b", "c", "d"], audio: []).workload()
    while workload.next() != nil {}
    #expect(workload.failure.map { "\($0)" }?.contains("mode 'audio' for 'b'") == true)
  }

  /// A model with no apps (the loader refuses it; the library does not) draws no uses, only its
  /// wakes, instead of naming an app that is not there.
  @Test func aModelWithNoAppsDrawsOnlyItsWakes() {
    var empty = model
    empty.apps = []
    empty.popularity = .weights([])
    empty.growthPerMinuteKB = 10
    let actions = empty.actions(durationMs: Self.hours40, seed: 2)
    #expect(actions.count > 100)
    #expect(actions.allSatisfy { if case .wake("c", _) = $0.action { true } else { false } })
  }

  static let hours40 = 40 * 3_600_000

  /// A scenario of `model` over 40 hours with apps `ids`, those in `audio` declaring audio.
  static func scenario(_ model: UserModel, apps ids: [String], audio: [String]) -> Scenario {
    let apps = ids.map { id in
      Fixture.app(id, resident: 10) { if audio.contains(id) { $0.backgroundModes = [.audio] } }
    }
    var scenario = Scenario(name: "numbered", device: Fixture.device, apps: apps, actions: [])
    scenario.userModel = model
    scenario.durationMs = hours40
    return scenario
  }
}
