import JetsimCore
import JetsimIO

/// The files of a capacity plan: `plan.csv` (one row per memory size tried) and `plan.json` (the
/// target, the answer with its interval, the rounds of seeds and the curve), written together into
/// a plan folder.
package enum PlanReport {
  /// `plan.csv`: one row per memory size tried, in increasing size: the size, the seeds it was run
  /// with, the target's statistic with its 95 % interval (low, high; empty where the seeds cannot
  /// bound it), the share of seeds meeting the target, whether the statistic meets it, the
  /// metric's mean, min and max, then its value on each seed (empty where not run).
  package static func csv(_ plan: CapacityPlan) -> String {
    var out = CSVBuffer()
    out.appendRow(columns + plan.seeds.map { "seed_\($0)" })
    for probe in plan.probes {
      let defined = probe.values.compactMap { $0 }
      let mean = defined.isEmpty ? nil : defined.reduce(0, +) / Double(defined.count)
      let bounds = interval(probe.estimate, plan.target)
      out.append(probe.memoryKB)
      out.comma()
      out.append(probe.seedCount)
      out.comma()
      out.append(field: plan.target.statistic.description)
      for value in [probe.estimate.value, bounds.low, bounds.high, shareMet(probe, plan.target)] {
        out.comma()
        if let value { out.append(field: FixedPoint.format(value)) }
      }
      out.comma()
      out.append(field: probe.holds ? "true" : "false")
      let values = probe.values + Array(repeating: nil, count: plan.seeds.count - probe.seedCount)
      for value in [mean, defined.min(), defined.max()] + values {
        out.comma()
        if let value { out.append(field: FixedPoint.format(value)) }
      }
      out.newline()
    }
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// `plan.csv`'s columns before the seeds' (`seed_1`, `seed_2`, …), as docs/reports.md explains
  /// them.
  package static let columns = [
    "memory_kb", "seeds", "statistic", "value", "value_ci95_low", "value_ci95_high",
    "share_met", "target_met", "mean", "min", "max",
  ]

  /// The ends of a statistic's interval for `target`, the lower first (nil where the seeds cannot
  /// bound it: the good end is the higher one for a `>=` or `>` target).
  package static func interval(_ estimate: TargetEstimate, _ target: CapacityTarget) -> (
    low: Double?, high: Double?
  ) {
    target.isBetter(1, than: 0)
      ? (estimate.pessimistic, estimate.optimistic) : (estimate.optimistic, estimate.pessimistic)
  }

  /// The share of `probe`'s seeds on which the metric meets the target.
  package static func shareMet(_ probe: CapacityPlan.Probe, _ target: CapacityTarget) -> Double? {
    guard probe.seedCount > 0 else { return nil }
    return Double(probe.values.filter(target.holds).count) / Double(probe.seedCount)
  }

  /// What the answer means, in one sentence.
  package static func meaning(_ plan: CapacityPlan, scenario: Scenario) -> String {
    let target =
      "\(plan.target.metric.name) \(plan.target.comparison.rawValue) \(Units.decimal(plan.target.value, digits: 4))"
    guard let answer = plan.answerKB else {
      return
        "No memory up to \(Units.formatSize(plan.probes.last?.memoryKB ?? 0)) gives \(target) \(plan.target.statistic.meaning) on \(scenario.device.name) under \(scenario.policy)."
    }
    if plan.answerIsSmallestTried {
      return
        "With \(Units.formatSize(answer)), the smallest size tried, \(scenario.device.name) under \(scenario.policy) gives \(target) \(plan.target.statistic.meaning), one seed being one simulated day of \(scenario.name); no smaller size was tried, so the smallest such memory may be below it."
    }
    let (low, high) = plan.interval
    let range: String
    switch (low, high) {
    case let (low?, high?):
      range =
        "; with 95 % confidence the smallest such memory is \(Units.formatSize(low)) to \(Units.formatSize(high))"
    case let (low?, nil): range = "; with 95 % confidence it is at least \(Units.formatSize(low))"
    default: range = ""
    }
    return
      "With \(Units.formatSize(answer)) (the smallest on a \(Units.formatSize(plan.precisionKB)) grid), \(scenario.device.name) under \(scenario.policy) gives \(target) \(plan.target.statistic.meaning), one seed being one simulated day of \(scenario.name)\(range)."
  }
}
