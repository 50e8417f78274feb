import Jetsim

/// What `jetsim sweep` and `jetsim plan` print.
enum SweepReport {
  static func text(
    _ definition: SweepDefinition, outcome: Sweep.Outcome, shard: ShardSpec?, folder: String,
    jobs: Int, seconds: Double
  ) -> String {
    let shape =
      "\(definition.pointCount.counted("point")) × \(definition.seeds.count.counted("seed"))"
    var lines = [
      "\(definition.name): \(definition.runCount.counted("run")) (\(shape)); "
        + (shard.map { "shard \($0): \(outcome.owned.counted("run")), " } ?? "")
        + "\(outcome.ran.counted("run")) now on \(jobs.counted("thread")) in \(Units.decimal(seconds, digits: 1)) s"
        + (outcome.alreadyDone > 0 ? ", \(outcome.alreadyDone) done before" : "")
    ]
    if outcome.assembled {
      lines.append(
        "  reports: \(folder)/sweep.csv (one row a run), \(folder)/sweep-summary.csv (one row a point)"
      )
    } else if let shard {
      lines.append(
        "  this shard's runs are in \(folder)/runs; when all \(shard.count) shards are done:")
      lines.append("  jetsim merge <the \(shard.count) shard folders> --out DIR")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The sweep's outcome as one JSON document: its shape, what ran, and where the reports are
  /// (`null` until every shard is merged).
  static func json(
    _ definition: SweepDefinition, outcome: Sweep.Outcome, shard: ShardSpec?, folder: String
  ) -> String {
    JSONText.render(
      .fields([
        ("sweep", .string(definition.name)), ("points", .integer(definition.pointCount)),
        ("seeds", .integer(definition.seeds.count)), ("runs", .integer(definition.runCount)),
        ("shard", shard.map { .string($0.description) } ?? .null),
        ("owned", .integer(outcome.owned)), ("ran", .integer(outcome.ran)),
        ("already_done", .integer(outcome.alreadyDone)), ("folder", .string(folder)),
        (
          "reports",
          outcome.assembled
            ? .list(
              ["sweep.csv", "sweep-summary.csv", "sweep.html"].map { .string("\(folder)/\($0)") })
            : .null
        ),
      ]))
  }

  static func text(_ plan: CapacityPlan, scenario: Scenario) -> String {
    let precision = Units.formatSize(plan.precisionKB)
    var lines: [String] = []
    if let answer = plan.answerKB {
      lines.append(
        "\(scenario.name): the smallest memory with \(plan.target) on \(plan.seeds.count == 1 ? "its seed" : "all \(plan.seeds.count) seeds") is "
          + "\(Units.formatSize(answer)) (to within \(precision); \(scenario.device.name), policy \(scenario.policy))"
      )
    } else {
      let largest = plan.probes.last.map { Units.formatSize($0.memoryKB) } ?? "?"
      lines.append(
        "\(scenario.name): \(plan.target) does not hold on \(plan.seeds.count == 1 ? "its seed" : "all \(plan.seeds.count) seeds") even with \(largest)"
      )
    }
    lines.append(
      "  memory       mean       min       max  target met  kills a run: pressure   other")
    let runs = Double(max(plan.seeds.count, 1))
    for probe in plan.probes {
      let defined = probe.values.compactMap { $0 }
      let mean =
        defined.isEmpty
        ? "n/a" : Units.decimal(defined.reduce(0, +) / Double(defined.count), digits: 4)
      let low = defined.min().map { Units.decimal($0, digits: 4) } ?? "n/a"
      let high = defined.max().map { Units.decimal($0, digits: 4) } ?? "n/a"
      func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
      }
      let pressure = KillReason.allCases.filter(\.isMemoryPressure).reduce(0) {
        $0 + probe.kills($1)
      }
      let other = probe.killsByReason.reduce(0, +) - pressure
      lines.append(
        "  " + pad(Units.formatSize(probe.memoryKB), 8) + pad(mean, 10) + pad(low, 10)
          + pad(high, 10) + "  " + (probe.holds ? "yes" : "no ") + "       "
          + pad(Units.decimal(Double(pressure) / runs, digits: 1), 16)
          + pad(Units.decimal(Double(other) / runs, digits: 1), 8))
    }
    lines += remainingKills(plan)
    if plan.probes.contains(where: { probe in
      !probe.holds && plan.probes.contains { $0.memoryKB < probe.memoryKB && $0.holds }
    }) {
      lines.append(
        "  note: the target held at a smaller memory than one where it failed; bisection assumes it does not"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// When the target is missed even at the largest size: the kills left there and why memory
  /// does not remove them, and the metric that counts only memory pressure.
  static func remainingKills(_ plan: CapacityPlan) -> [String] {
    let remaining = plan.remainingKills
    guard let largest = plan.probes.last, plan.answerKB == nil else { return [] }
    let size = Units.formatSize(largest.memoryKB)
    guard !remaining.isEmpty else {
      return ["  at \(size) no app is killed: the target asks for more than memory can give"]
    }
    let seeds = plan.seeds.count.counted("seed")
    var lines = ["  kills left at \(size) (over \(seeds)), most first:"]
    for kill in remaining.prefix(8) {
      let why = kill.reason.whyMemoryDoesNotHelp ?? "memory pressure: still short of memory here"
      lines.append("    \(kill.app): \(kill.reason) ×\(kill.count) (\(why))")
    }
    if remaining.count > 8 {
      lines.append("    and \(remaining.count - 8) more (plan.json has them all)")
    }
    let metric = plan.target.metric.name
    if remaining.contains(where: { !$0.reason.isMemoryPressure }),
      let pressure = [
        "warm_resume_ratio": "pressure-warm-resume-ratio",
        "kills_per_hour": "pressure-kills-per-hour", "kills": "pressure-kills",
      ][metric]
    {
      lines.append(
        "  \(metric) counts kills no memory size prevents; --target on \(pressure) counts only memory pressure"
      )
    }
    return lines
  }
}
