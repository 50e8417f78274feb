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
            ? .list(["sweep.csv", "sweep-summary.csv", "sweep.html"].map { .string("\(folder)/\($0)") })
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
    lines.append("  memory       mean       min       max  target met")
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
      lines.append(
        "  " + pad(Units.formatSize(probe.memoryKB), 8) + pad(mean, 10) + pad(low, 10)
          + pad(high, 10)
          + "  " + (probe.holds ? "yes" : "no"))
    }
    if plan.probes.contains(where: { probe in
      !probe.holds && plan.probes.contains { $0.memoryKB < probe.memoryKB && $0.holds }
    }) {
      lines.append(
        "  note: the target held at a smaller memory than one where it failed; bisection assumes it does not"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
