import Jetsim

/// What `jetsim sweep` prints, and the kills `jetsim plan` explains when a target is missed.
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
        "  reports: \(folder)/\(ReportFile.sweep.name) (one row a run), \(folder)/\(ReportFile.sweepSummary.name) (one row a point)"
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
              [ReportFile.sweep, .sweepSummary, .sweepHTML].map { .string("\(folder)/\($0.name)") })
            : .null
        ),
      ]))
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
