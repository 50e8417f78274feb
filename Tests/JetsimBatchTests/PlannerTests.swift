import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

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

  /// An app that exits on suspend keeps warm_resume_ratio below 1 at any size: the plan says so,
  /// names the app, and the pressure-only metric is met.
  @Test func aTargetNoMemoryMeetsSaysWhichKillsRemainAndWhy() throws {
    let apps = [
      Fixture.app("notes", resident: 50, caches: 10, backing: 10),
      Fixture.app("bank", resident: 60, caches: 10, backing: 10) { $0.exitsOnSuspend = true },
    ]
    let actions = [
      TimedAction(0, .open("notes")), TimedAction(sec(10), .open("bank")),
      TimedAction(sec(20), .open("notes")), TimedAction(sec(30), .open("bank")),
      TimedAction(sec(40), .open("notes")),
    ]
    let scenario = Scenario(name: "bank", device: Fixture.device, apps: apps, actions: actions)
    let plain = try #require(CapacityTarget.parse("warm-resume-ratio>=0.9").target)
    let plan = try Planner.plan(
      scenario, target: plain, seeds: [1], minKB: mb(400), maxKB: mb(2048), precisionKB: mb(64),
      jobs: 1)
    #expect(plan.answerKB == nil)
    #expect(
      plan.remainingKills == [CapacityPlan.AppKills(app: "bank", reason: .exitOnSuspend, count: 2)])
    #expect(
      KillReason.exitOnSuspend.whyMemoryDoesNotHelp?.contains("exits on suspend each time") == true)
    #expect(plan.probes.last?.kills(.exitOnSuspend) == 2)
    let pressure = try #require(CapacityTarget.parse("pressure-warm-resume-ratio>=0.9").target)
    let met = try Planner.plan(
      scenario, target: pressure, seeds: [1], minKB: mb(400), maxKB: mb(2048), precisionKB: mb(64),
      jobs: 1)
    #expect(met.answerKB != nil)
    #expect(met.remainingKills.isEmpty, "only a missed target has kills to explain")
  }

  /// Every size a plan tries must hold the policy settings given: lmkd's watermarks (500MB high)
  /// do not fit 600MB less 200MB reserved, so a range from there is refused before anything runs.
  @Test func aRangeWhoseSmallestSizeTheWatermarksDoNotFitIsRefused() throws {
    var scenario = Scenario(
      name: "w", device: Fixture.device, apps: [Fixture.app("notes", resident: 50)],
      actions: [TimedAction(0, .open("notes"))], origin: "w.json")
    scenario.policySettings = PolicySettings([
      "lmkd": ["watermarks": .numbers([mb(100), mb(300), mb(500)])]
    ])
    let target = try #require(CapacityTarget.parse("kills<=0").target)
    let error = try #require(throws: JetsimError.self) {
      try Planner.plan(
        scenario, target: target, seeds: [1], minKB: mb(600), maxKB: mb(2048),
        precisionKB: mb(64), jobs: 1)
    }
    #expect(
      "\(error)"
        == "w.json: 'memory range' is 600.0 MB to 2048.0 MB in steps of 64.0 MB; expected a minimum at which policyParameters.lmkd.watermarks, [100MB, 300MB, 500MB], fits: 3 sizes, ascending, below the device's memory less its reserved memory (640MB − 200MB = 440MB)"
    )
    let fits = try Planner.plan(
      scenario, target: target, seeds: [1], minKB: mb(768), maxKB: mb(2048), precisionKB: mb(64),
      jobs: 1)
    #expect(fits.answerKB != nil)
  }

  /// A metric no run has a value of (no app opened twice) is refused after the first size.
  @Test func aMetricWithNoValueInAnyRunIsRefused() throws {
    let scenario = Scenario(
      name: "once", device: Fixture.device, apps: [Fixture.app("notes", resident: 50)],
      actions: [TimedAction(0, .open("notes"))], origin: "once.json")
    let target = try #require(CapacityTarget.parse("warm-resume-ratio>=0.9").target)
    let error = try #require(throws: JetsimError.self) {
      try Planner.plan(
        scenario, target: target, seeds: [1, 2], minKB: mb(400), maxKB: mb(2048),
        precisionKB: mb(64), jobs: 1, maxSeeds: 80)
    }
    #expect(
      "\(error)".hasPrefix(
        "once.json: 'target': no run has a value of warm_resume_ratio (2 seeds at 2GB): "))
  }

  @Test func targets() {
    #expect(
      CapacityTarget.parse("warm-resume-ratio >= 0.9").target?.description
        == "warm_resume_ratio >= 0.9000 @p95")
    #expect(CapacityTarget.parse("kills_per_hour<1").target?.holds(0.5) == true)
    #expect(CapacityTarget.parse("kills_per_hour<1").target?.holds(nil) == false)
    #expect(
      CapacityTarget.parse("warm-resume-ration>=0.9").problem?.contains(
        "did you mean 'warm_resume_ratio'?") == true)
    #expect(CapacityTarget.parse("warm-resume-ratio>=lots").problem == "'lots' is not a number")
    #expect(CapacityTarget.parse("warm-resume-ratio").problem?.hasPrefix("write it as") == true)
    #expect(CapacityTarget.parse("kills-per-hour<=1@p99.5").target?.statistic == .quantile(99.5))
    #expect(CapacityTarget.parse("kills-per-hour<=1 @mean").target?.statistic == .mean)
    #expect(
      CapacityTarget.parse("kills-per-hour<=1@all").target?.description.hasSuffix("@all") == true)
    #expect(
      CapacityTarget.parse("kills-per-hour<=1@p100").problem?.contains("'@p100' is not a statistic")
        == true)
    #expect(CapacityTarget.parse("kills-per-hour<=1@median").target == nil)
  }

  /// The ranks bounding a quantile are the widest binomial tails of at most 2.5 % each: checked
  /// against the binomial distribution computed directly.
  @Test(arguments: [(5, 0.95), (20, 0.95), (72, 0.95), (80, 0.95), (320, 0.95), (40, 0.5)])
  func orderStatisticRanksCoverTheQuantile(n: Int, share: Double) {
    let (low, high) = OrderStatistics.interval(count: n, share: share)
    func cdf(_ k: Int) -> Double {
      guard k >= 0 else { return 0 }
      var total = 0.0
      var choose = 1.0
      for i in 0...min(k, n) {
        if i > 0 { choose = choose * Double(n - i + 1) / Double(i) }
        total += choose * pow(share, Double(i)) * pow(1 - share, Double(n - i))
      }
      return total
    }
    #expect(cdf(low - 1) <= 0.025 + 1e-12 && (low == n || cdf(low) > 0.025 - 1e-12))
    #expect(high == n + 1 || 1 - cdf(high - 1) <= 0.025 + 1e-12)
    #expect(high <= n || 1 - cdf(n - 1) > 0.025)
    #expect(cdf(high - 1) - cdf(low - 1) >= 0.95 - 1e-9)
    let bounded = (TargetStatistic.quantile(share * 100).seedsForBoundedInterval ?? 0) <= n
    #expect(bounded == (high <= n), "\(n) seeds")
  }

  @Test func theQuantileIsTakenOnTheTargetsBadSide() {
    let values: [Double?] = (1...20).map { Double($0) }
    let atMost = CapacityTarget(metric: .rankDefault, comparison: .atMost, value: 0)
    #expect(atMost.estimate(values).value == 19)
    let atLeast = CapacityTarget(metric: .rankDefault, comparison: .atLeast, value: 0)
    #expect(atLeast.estimate(values).value == 2)
    // An undefined value is a day that misses: the worst.
    #expect(atLeast.estimate([nil] + values.dropFirst()).value == 2)
    #expect(atLeast.estimate([nil, nil] + values.dropFirst(2)).value == nil)
    var all = atLeast
    all.statistic = .all
    #expect(all.estimate(values) == TargetEstimate(value: 1, optimistic: nil, pessimistic: nil))
    var mean = atMost
    mean.statistic = .mean
    let estimate = mean.estimate(values)
    #expect(estimate.value == 10.5)
    #expect((estimate.optimistic ?? 99) < 10.5 && (estimate.pessimistic ?? 0) > 10.5)
  }

  /// The answer at p95 converges: with more seeds its interval overlaps the one before and is
  /// bounded once there are enough seeds, and the worst of seeds (@all) asks for at least as much.
  @Test func quantileAnswersConvergeWithSeeds() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/light-user-2gb.json")
    let target = try #require(
      CapacityTarget.parse("pressure-warm-resume-ratio>=0.95").target)
    func plan(_ target: CapacityTarget, _ n: UInt64) throws -> CapacityPlan {
      try Planner.plan(
        scenario, target: target, seeds: Array(1...n), minKB: mb(1024), maxKB: mb(4096),
        precisionKB: mb(64), jobs: 2)
    }
    let few = try plan(target, 20)
    let many = try plan(target, 80)
    #expect(few.interval.highKB == nil && few.intervalNote?.contains("at least 72") == true)
    let (low, high) = (try #require(many.interval.lowKB), try #require(many.interval.highKB))
    let answer = try #require(many.answerKB)
    #expect(low <= answer && answer <= high)
    #expect(try #require(few.interval.lowKB) <= high, "the intervals overlap")
    var worst = target
    worst.statistic = .all
    #expect(try #require(plan(worst, 80).answerKB) >= answer)
  }

  /// Rounds double the seeds, continuing after the largest, until the answer settles with an
  /// interval; `--jobs` changes nothing.
  @Test func adaptiveRoundsStopWhenTheAnswerSettles() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/light-user-2gb.json")
    let target = try #require(CapacityTarget.parse("pressure-warm-resume-ratio>=0.95").target)
    func plan(jobs: Int) throws -> CapacityPlan {
      try Planner.plan(
        scenario, target: target, seeds: Array(1...10), minKB: mb(1024), maxKB: mb(4096),
        precisionKB: mb(128), jobs: jobs, maxSeeds: 160)
    }
    let adaptive = try plan(jobs: 1)
    #expect(
      adaptive.rounds.map(\.seeds) == Array([10, 20, 40, 80, 160].prefix(adaptive.rounds.count)))
    #expect(adaptive.seeds == Array(1...UInt64(adaptive.rounds.last?.seeds ?? 0)))
    if adaptive.seeds.count < 160 {
      #expect(adaptive.settled == true && adaptive.interval.highKB != nil)
    }
    #expect(adaptive.rounds.count >= 4, "72 seeds are needed to bound p95")
    #expect(adaptive.probes.allSatisfy { $0.seedCount <= adaptive.seeds.count })
    #expect(adaptive.probes.contains { $0.seedCount == adaptive.seeds.count && $0.holds })
    let other = try plan(jobs: 2)
    #expect(PlanReport.csv(other) == PlanReport.csv(adaptive))
    // plan.csv: its columns, then a seed's column for each seed of the plan, every row as wide.
    let rows = PlanReport.csv(adaptive).split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    let seedColumns = adaptive.seeds.map { "seed_\($0)" }
    #expect(rows.first?.map(String.init) == PlanReport.columns + seedColumns)
    #expect(rows.count == adaptive.probes.count + 1)
    #expect(rows.allSatisfy { $0.count == PlanReport.columns.count + seedColumns.count })
    #expect(
      PlanReport.json(other, scenario: scenario) == PlanReport.json(adaptive, scenario: scenario))
  }

  /// Every column of plan.csv is explained in docs/reports.md.
  @Test func everyPlanColumnIsDocumented() throws {
    let docs = try String(contentsOfFile: "\(packageRoot)/docs/reports.md", encoding: .utf8)
    let section = try #require(docs.range(of: "## plan.csv")).upperBound
    let table = docs[section..<(docs[section...].range(of: "\n## ")?.lowerBound ?? docs.endIndex)]
    for column in PlanReport.columns + ["seed_N"] {
      #expect(table.contains("`\(column)`"), "\(column) is not in docs/reports.md's plan.csv")
    }
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
