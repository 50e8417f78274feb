import JetsimCore
import JetsimIO

/// One seed's run at one memory size, as much of it as a plan keeps: the metric and the kills.
struct SeedOutcome: Sendable {
  /// The target's metric (nil where undefined).
  var value: Double?
  /// App kills by reason (`KillReason.rawValue` index).
  var killsByReason: [Int]
  /// Each app with a kill, with its kills by reason.
  var appKills: [(app: String, counts: [Int])]
  /// Opens that were neither cold launches nor warm resumes: the app died before it reached the
  /// screen.
  var failedOpens: Int

  init(_ summary: RunSummary, metric: SummaryMetric) {
    value = metric.value(summary.metrics)
    failedOpens = summary.metrics.failedOpens
    killsByReason = summary.metrics.killsByReason
    appKills = summary.apps.prefix(summary.appCount).enumerated().compactMap { app, stats in
      let kills = stats.killsByReason
      return kills.contains { $0 > 0 } ? (summary.appIDs[app], kills) : nil
    }
  }
}

/// The bisections of a plan over rounds of seeds, keeping every run's outcome so that a size
/// tried in an earlier round runs only the seeds it lacks.
struct PlanSearch {
  let scenario: Scenario
  let target: CapacityTarget
  /// The smallest and largest memory tried, on the grid.
  let lowKB: Int
  let highKB: Int
  let precisionKB: Int
  let jobs: Int
  let progress: (@Sendable (Int) -> Void)?
  /// Each size's outcomes, for the first seeds in order.
  var outcomes: [Int: [SeedOutcome]] = [:]
  /// How many times a size was run (with the seeds it lacked).
  var tried = 0

  /// The answer and its interval with `seeds`: three bisections sharing their sizes.
  mutating func round(_ seeds: [UInt64]) throws(JetsimError) -> CapacityPlan.Round {
    var probed: [Int: CapacityPlan.Probe] = [:]
    let answer = try smallest(seeds, &probed) { $0.holds }
    let low = try smallest(seeds, &probed) { $0.holdsOptimistic }
    let high = try smallest(seeds, &probed) { $0.holdsPessimistic }
    return CapacityPlan.Round(seeds: seeds.count, answerKB: answer, lowKB: low, highKB: high)
  }

  /// The smallest size on the grid where `holds`, by bisection from the tightest bracket the
  /// sizes tried in this round give; nil if it does not hold at the largest.
  mutating func smallest(
    _ seeds: [UInt64], _ probed: inout [Int: CapacityPlan.Probe],
    where holds: (CapacityPlan.Probe) -> Bool
  ) throws(JetsimError) -> Int? {
    guard holds(try probe(highKB, seeds, &probed)) else { return nil }
    var high = probed.filter { holds($0.value) }.keys.min() ?? highKB
    var low: Int
    if let failing = probed.filter({ !holds($0.value) && $0.key < high }).keys.max() {
      low = failing
    } else {
      if holds(try probe(lowKB, seeds, &probed)) { return lowKB }
      low = lowKB
    }
    while high - low > precisionKB {
      let middle = low + (high - low) / 2 / precisionKB * precisionKB
      if holds(try probe(middle, seeds, &probed)) { high = middle } else { low = middle }
    }
    return high
  }

  /// The probe at `memoryKB` with `seeds`, running the seeds it has no outcome for.
  mutating func probe(
    _ memoryKB: Int, _ seeds: [UInt64], _ probed: inout [Int: CapacityPlan.Probe]
  ) throws(JetsimError) -> CapacityPlan.Probe {
    if let known = probed[memoryKB] { return known }
    let have = outcomes[memoryKB, default: []]
    if have.count < seeds.count {
      var resized = scenario
      resized.device = scenario.device.withMemory(memoryKB)
      let sized = resized
      let missing = Array(seeds[have.count...])
      let metric = target.metric
      let new = try ParallelMap.runs(of: scenario, count: missing.count, jobs: jobs) { index in
        var run = sized.unshared
        run.seed = missing[index]
        var quiet = DiscardingObserver()
        return SeedOutcome(try Simulator.run(run, observer: &quiet), metric: metric)
      }
      outcomes[memoryKB] = have + new
      tried += 1
      progress?(tried)
    }
    let result = Self.probe(
      memoryKB, outcomes[memoryKB, default: []].prefix(seeds.count), target: target)
    probed[memoryKB] = result
    return result
  }

  /// Every size tried, in increasing memory, each with as many of `seeds` as it was run with.
  func probes(_ seeds: [UInt64]) -> [CapacityPlan.Probe] {
    outcomes.keys.sorted().map { memoryKB in
      Self.probe(memoryKB, outcomes[memoryKB, default: []].prefix(seeds.count), target: target)
    }
  }

  /// A probe from its seeds' outcomes: the metric on each, its statistic, and the kills by
  /// reason and by app.
  static func probe(_ memoryKB: Int, _ outcomes: ArraySlice<SeedOutcome>, target: CapacityTarget)
    -> CapacityPlan.Probe
  {
    let values = outcomes.map(\.value)
    let estimate = target.estimate(values)
    var probe = CapacityPlan.Probe(
      memoryKB: memoryKB, values: values, estimate: estimate, holds: target.holds(estimate.value),
      holdsOptimistic: target.holds(estimate.optimistic),
      holdsPessimistic: target.holds(estimate.pessimistic))
    var byApp: [String: [Int]] = [:]
    for outcome in outcomes {
      probe.failedOpens += outcome.failedOpens
      for (index, count) in outcome.killsByReason.enumerated() {
        probe.killsByReason[index] += count
      }
      for (app, counts) in outcome.appKills {
        var total = byApp[app, default: Array(repeating: 0, count: KillReason.allCases.count)]
        for (index, count) in counts.enumerated() { total[index] += count }
        byApp[app] = total
      }
    }
    probe.appKills = byApp.flatMap { app, counts in
      KillReason.allCases.compactMap { reason in
        let count = counts[Int(reason.rawValue)]
        return count > 0 ? CapacityPlan.AppKills(app: app, reason: reason, count: count) : nil
      }
    }.sorted { ($1.count, $0.app, $0.reason.rawValue) < ($0.count, $1.app, $1.reason.rawValue) }
    return probe
  }
}
