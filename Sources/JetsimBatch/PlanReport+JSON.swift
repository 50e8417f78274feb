import JetsimCore
import JetsimIO

extension PlanReport {
  /// `plan.json`: the scenario, target, seeds and precision, the answer (null when the target is
  /// not met at the largest size tried) with its interval and what it means, the rounds of seeds,
  /// and the curve.
  package static func json(_ plan: CapacityPlan, scenario: Scenario) -> String {
    let (low, high) = plan.interval
    return JSONText.render(
      .fields([
        ("scenario", .string(scenario.name)), ("device", .string(scenario.device.name)),
        ("policy", .string(scenario.policy.rawValue)),
        ("target", .string(plan.target.description)),
        ("statistic", .string(plan.target.statistic.description)),
        ("seeds", .list(plan.seeds.map { .integer($0) })),
        ("max_seeds", plan.maxSeeds.map { .integer($0) } ?? .null),
        ("precision_kb", .integer(plan.precisionKB)),
        ("answer_kb", plan.answerKB.map { .integer($0) } ?? .null),
        ("met", .bool(plan.answerKB != nil)),
        ("answer_is_smallest_tried", .bool(plan.answerIsSmallestTried)),
        ("warning", plan.smallestTriedWarning.map { .string($0) } ?? .null),
        (
          "interval_95",
          .fields([
            ("low_kb", low.map { .integer($0) } ?? .null),
            ("high_kb", high.map { .integer($0) } ?? .null),
            ("note", plan.intervalNote.map { .string($0) } ?? .null),
          ])
        ),
        ("meaning", .string(meaning(plan, scenario: scenario))),
        ("settled", plan.settled.map { .bool($0) } ?? .null),
        ("rounds", .list(plan.rounds.map(roundJSON))),
        ("curve", .list(plan.probes.map { probeJSON($0, plan.target) })),
        ("remaining_kills", .list(plan.remainingKills.map(killJSON))),
      ]))
  }

  static func roundJSON(_ round: CapacityPlan.Round) -> JSONValue {
    .fields([
      ("seeds", .integer(round.seeds)),
      ("answer_kb", round.answerKB.map { .integer($0) } ?? .null),
      ("low_kb", round.lowKB.map { .integer($0) } ?? .null),
      ("high_kb", round.highKB.map { .integer($0) } ?? .null),
    ])
  }

  static func probeJSON(_ probe: CapacityPlan.Probe, _ target: CapacityTarget) -> JSONValue {
    let bounds = interval(probe.estimate, target)
    return .fields([
      ("memory_kb", .integer(probe.memoryKB)), ("seeds", .integer(probe.seedCount)),
      ("value", .decimal(probe.estimate.value)),
      ("value_ci95", .fields([("low", .decimal(bounds.low)), ("high", .decimal(bounds.high))])),
      ("share_met", .decimal(shareMet(probe, target))),
      ("target_met", .bool(probe.holds)),
      ("values", .list(probe.values.map { .decimal($0) })),
      ("failed_opens", .integer(probe.failedOpens)),
      (
        "kills_by_reason",
        .fields(KillReason.allCases.map { ($0.columnName, .integer(probe.kills($0))) })
      ),
    ])
  }

  static func killJSON(_ kill: CapacityPlan.AppKills) -> JSONValue {
    .fields([
      ("app", .string(kill.app)), ("reason", .string(kill.reason.description)),
      ("count", .integer(kill.count)),
      ("memory_pressure", .bool(kill.reason.isMemoryPressure)),
      ("why", kill.reason.whyMemoryDoesNotHelp.map { .string($0) } ?? .null),
    ])
  }

  /// Writes `plan.csv` and `plan.json` (and with `curve`, `plan.html`) into the plan folder
  /// `destination`, all or none.
  package static func write(
    _ plan: CapacityPlan, scenario: Scenario, to destination: String, curve: Bool = false
  ) throws(JetsimError) {
    var files = [(ReportFile.plan, csv(plan)), (.planJSON, json(plan, scenario: scenario))]
    if curve { files.append((.planHTML, html(plan, scenario: scenario))) }
    try ReportFolder.write(files, to: destination, kind: .plan)
  }
}
