import JetsimCore
import JetsimIO

/// The files of a capacity plan: `plan.csv` (one row per memory size tried) and `plan.json` (the
/// target, the answer and the curve), written together into a plan folder.
package enum PlanReport {
  /// `plan.csv`: one row per memory size tried, in increasing size: the size, whether the target
  /// held on every seed, the metric's mean, min and max, then its value on each seed.
  package static func csv(_ plan: CapacityPlan) -> String {
    var out = CSVBuffer()
    out.appendRow(
      ["memory_kb", "target_met", "mean", "min", "max"] + plan.seeds.map { "seed_\($0)" })
    for probe in plan.probes {
      let defined = probe.values.compactMap { $0 }
      let mean = defined.isEmpty ? nil : defined.reduce(0, +) / Double(defined.count)
      out.append(probe.memoryKB)
      out.comma()
      out.append(field: probe.holds ? "true" : "false")
      for value in [mean, defined.min(), defined.max()] + probe.values {
        out.comma()
        if let value { out.append(field: FixedPoint.format(value)) }
      }
      out.newline()
    }
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// `plan.json`: the scenario, target, seeds and precision, the answer (null when the target is
  /// not met at the largest size tried) and the curve.
  package static func json(_ plan: CapacityPlan, scenario: Scenario) -> String {
    JSONText.render(
      .fields([
        ("scenario", .string(scenario.name)), ("device", .string(scenario.device.name)),
        ("policy", .string(scenario.policy.rawValue)),
        ("target", .string(plan.target.description)),
        ("seeds", .list(plan.seeds.map { .integer($0) })),
        ("precision_kb", .integer(plan.precisionKB)),
        ("answer_kb", plan.answerKB.map { .integer($0) } ?? .null),
        ("met", .bool(plan.answerKB != nil)),
        (
          "curve",
          .list(
            plan.probes.map { probe in
              .fields([
                ("memory_kb", .integer(probe.memoryKB)), ("target_met", .bool(probe.holds)),
                ("values", .list(probe.values.map { .decimal($0) })),
                (
                  "kills_by_reason",
                  .fields(
                    KillReason.allCases.map { ($0.columnName, .integer(probe.kills($0))) })
                ),
              ])
            })
        ),
        (
          "remaining_kills",
          .list(
            plan.remainingKills.map { kill in
              .fields([
                ("app", .string(kill.app)), ("reason", .string(kill.reason.description)),
                ("count", .integer(kill.count)),
                ("memory_pressure", .bool(kill.reason.isMemoryPressure)),
                ("why", kill.reason.whyMemoryDoesNotHelp.map { .string($0) } ?? .null),
              ])
            })
        ),
      ]))
  }

  /// Writes `plan.csv` and `plan.json` into the plan folder `destination`, both or neither.
  package static func write(_ plan: CapacityPlan, scenario: Scenario, to destination: String)
    throws(JetsimError)
  {
    try ReportFolder.write(
      [(.plan, csv(plan)), (.planJSON, json(plan, scenario: scenario))], to: destination,
      kind: .plan)
  }
}
