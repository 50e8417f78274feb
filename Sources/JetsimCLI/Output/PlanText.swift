import Jetsim

/// What `jetsim plan` prints: the answer with its interval, what it means, the rounds of seeds,
/// and the curve.
enum PlanText {
  static func text(_ plan: CapacityPlan, scenario: Scenario) -> String {
    var lines = [
      headline(plan, scenario: scenario), "  " + PlanReport.meaning(plan, scenario: scenario),
    ]
    if let warning = plan.smallestTriedWarning {
      let starving = (plan.probes.first?.failedOpens ?? 0) > 0
      lines.append(
        "  warning: \(warning)"
          + (starving
            ? "; give a --min above the sizes where opens fail, or a target on a metric that grows with memory, such as pressure-warm-resume-ratio"
            : ""))
    } else if let note = plan.intervalNote {
      lines.append("  interval: \(note)")
    }
    lines += rounds(plan)
    lines.append(
      "  memory  seeds  \(plan.target.statistic.description.padded(9, left: true))  95 % interval of it  share met  target met  kills a run: pressure   other"
    )
    for probe in plan.probes { lines.append(row(probe, plan)) }
    lines += SweepReport.remainingKills(plan)
    if plan.probes.contains(where: { probe in
      !probe.holds && plan.probes.contains { $0.memoryKB < probe.memoryKB && $0.holds }
    }) {
      lines.append(
        "  note: the target held at a smaller memory than one where it failed; bisection assumes it does not"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The first line: the answer and its interval, or that the target is not met.
  static func headline(_ plan: CapacityPlan, scenario: Scenario) -> String {
    let place = "\(scenario.device.name), policy \(scenario.policy)"
    guard let answer = plan.answerKB else {
      let largest = plan.probes.last.map { Units.formatSize($0.memoryKB) } ?? "?"
      return
        "\(scenario.name): \(plan.target) is not met even with \(largest) (\(plan.seeds.count.counted("seed")); \(place))"
    }
    if plan.answerIsSmallestTried {
      return
        "\(scenario.name): \(Units.formatSize(answer)), the smallest size tried, for \(plan.target) (it held there: the search never saw it unmet; \(plan.seeds.count.counted("seed")); \(place))"
    }
    let (low, high) = plan.interval
    let interval =
      "95 % interval \(low.map(Units.formatSize) ?? "n/a") to \(high.map(Units.formatSize) ?? "n/a")"
    return
      "\(scenario.name): \(Units.formatSize(answer)) for \(plan.target) (\(interval); to within \(Units.formatSize(plan.precisionKB)); \(plan.seeds.count.counted("seed")); \(place))"
  }

  /// The rounds of seeds and whether the answer settled.
  static func rounds(_ plan: CapacityPlan) -> [String] {
    let steps = plan.rounds.map { round in
      "\(round.seeds) → \(round.answerKB.map(Units.formatSize) ?? "not met")"
    }.joined(separator: ", ")
    let precision = Units.formatSize(plan.precisionKB)
    guard let settled = plan.settled, plan.rounds.count > 1 else {
      guard let most = plan.maxSeeds else {
        return [
          "  seeds: \(steps) (the seeds given; --max-seeds N runs more until the answer settles)"
        ]
      }
      return [
        "  seeds: \(steps) (--max-seeds \(most) leaves no room for a second round, so whether the answer settles is not known)"
      ]
    }
    let (last, before) = (plan.rounds[plan.rounds.count - 1], plan.rounds[plan.rounds.count - 2])
    let moved =
      zip(last.answerKB.map { [$0] } ?? [], before.answerKB.map { [$0] } ?? []).map {
        Units.formatSize(abs($0 - $1))
      }.first ?? "from met to not met"
    return [
      "  seeds: \(steps); "
        + (settled
          ? "settled: it moved by \(moved == "0KB" ? "0" : moved) from \(before.seeds) to \(last.seeds) seeds, no more than --precision \(precision)"
          : "not settled at \(plan.seeds.count) seeds (moved by \(moved) from \(before.seeds)); give a larger --max-seeds")
        + (settled && plan.intervalNote != nil && !plan.answerIsSmallestTried
          && plan.maxSeeds == plan.seeds.count
          ? "; --max-seeds \(plan.seeds.count) reached before the interval had both ends" : "")
    ]
  }

  /// One size tried: its seeds, statistic and interval, share met and kills.
  static func row(_ probe: CapacityPlan.Probe, _ plan: CapacityPlan) -> String {
    let digits = plan.target.metric.isRatio ? 4 : 3
    let show = { (value: Double?) in value.map { Units.decimal($0, digits: digits) } ?? "n/a" }
    let bounds = PlanReport.interval(probe.estimate, plan.target)
    let interval = "\(show(bounds.low)) to \(show(bounds.high))"
    let share = PlanReport.shareMet(probe, plan.target).map { Units.decimal($0, digits: 3) }
    let pressure = KillReason.allCases.filter(\.isMemoryPressure).reduce(0) {
      $0 + probe.kills($1)
    }
    let other = probe.killsByReason.reduce(0, +) - pressure
    let runs = Double(max(probe.seedCount, 1))
    let cells: [(String, Int)] = [
      (Units.formatSize(probe.memoryKB), 6), ("\(probe.seedCount)", 7),
      (show(probe.estimate.value), 11), (interval, 21), (share ?? "n/a", 11),
    ]
    let kills: [(String, Int)] = [
      (Units.decimal(Double(pressure) / runs, digits: 1), 31),
      (Units.decimal(Double(other) / runs, digits: 1), 8),
    ]
    let left = cells.map { $0.0.padded($0.1, left: true) }.joined()
    let right = kills.map { $0.0.padded($0.1, left: true) }.joined()
    return "  " + left + "  " + (probe.holds ? "yes" : "no ") + right
  }
}
