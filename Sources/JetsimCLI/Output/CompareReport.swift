import Jetsim

/// The ranked table `jetsim compare` prints: each policy's mean (± 95 % CI half-width across seeds)
/// for the ranking metric and the headline metrics.
enum CompareReport {
  static let columns: [(metric: String, title: String)] = [
    ("warm_resume_ratio", "warm-resume ratio"), ("kills_per_hour", "kills/hour"),
    ("cold_launches", "cold launches"),
    ("launch_time_ms", "launch time ms"), ("min_free_kb", "min free KB"),
  ]

  static func text(
    _ comparison: Comparison, device: String, rankBy: String, folder: String, keptRuns: Bool
  ) -> String {
    guard let metric = SummaryMetric.named(rankBy) else { return "" }
    let higherIsBetter = metric.higherIsBetter ?? true
    let standings = comparison.standings(by: metric)
    let best = standings.first { $0.rank != nil }?.policy
    let clear = comparison.bestIsClear(by: metric)
    let shown = [(rankBy, rankBy)] + columns.filter { $0.metric != rankBy }
    func cell(_ summary: SampleSummary?, _ metric: SummaryMetric, sign: Bool = false) -> String {
      guard let summary else { return "n/a" }
      let digits = metric.isRatio ? 4 : 1
      let mean =
        (sign && summary.mean >= 0 ? "+" : "") + Units.decimal(summary.mean, digits: digits)
      return summary.ci95.map { "\(mean) ± \(Units.decimal($0, digits: digits))" } ?? mean
    }
    var rows = [["rank", "policy"] + shown.map(\.title) + ["vs \(best ?? "best") (paired)"]]
    for entry in standings {
      let rank = entry.rank.map { "\($0)\(entry.equalMeans ? "=" : "")" } ?? "-"
      let paired =
        entry.policy == best
        ? (clear ? "(best)" : "(best by mean)")
        : cell(entry.vsBest, metric, sign: true) + (entry.tiedWithBest ? " tied" : "")
      rows.append(
        [rank, entry.policy]
          + shown.map { column in
            guard let columnMetric = SummaryMetric.named(column.metric) else { return "n/a" }
            return cell(comparison.aggregate(columnMetric, of: entry.policy), columnMetric)
          } + [paired])
    }
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    let table = rows.map { row in
      row.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column < 2 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }
    let direction = higherIsBetter ? "higher is better" : "lower is better"
    var notes: [String] = []
    if standings.contains(where: \.equalMeans) {
      notes.append("= marks policies tied on \(rankBy): they share their rank")
    }
    let unchanged = comparison.policiesSeedsDoNotChange
    if !unchanged.isEmpty {
      let which =
        unchanged.count == comparison.policies.count
        ? "every policy" : unchanged.joined(separator: ", ")
      notes.append(
        "the seeds changed nothing for \(which): the workload draws nothing at random (as a script or a trace), so the intervals are 0 and more seeds add nothing; a user model varies the workload"
      )
    }
    if best == nil {
      notes.append(
        "no run has a value of \(rankBy), so nothing is ranked; choose another with --rank-by")
    }
    if best != nil, comparison.seeds.count > 1 {
      notes.append(
        "vs \(best ?? ""): the difference from the best policy on \(rankBy), seed by seed (the runs of a seed share their workload), mean ± 95 % CI"
      )
      if !clear {
        notes.append(
          "tied: the interval includes 0, so on these seeds the policy cannot be told from \(best ?? "the best"); more seeds may tell them apart"
        )
      }
    } else if best != nil {
      notes.append(
        "one seed: no interval, so no policy is shown to be better than another; give --seeds 10 or more"
      )
    }
    let files =
      "compare.csv, compare-summary.csv, compare.html" + (keptRuns ? ", <policy>/seed-<n>/" : "")
    return """
      \(comparison.scenarioName) on \(device): \(comparison.policies.count.counted("policy", "policies")) × \(comparison.seeds.count.counted("seed")), ranked by \(rankBy) (\(direction)); mean ± 95 % CI across seeds
      \(table.map { "  " + $0 }.joined(separator: "\n"))
      \(notes.map { "  note: \($0)\n" }.joined())  reports: \(folder)/ (\(files))

      """
  }
}

extension CompareReport {
  /// The comparison as one JSON document: for each policy in rank order, every metric's mean, min,
  /// max and 95 % CI half-width across seeds.
  static func json(_ comparison: Comparison, rankBy: String, folder: String) -> String {
    let metric = SummaryMetric.named(rankBy)
    let standings = metric.map(comparison.standings) ?? []
    return JSONText.render(
      .fields([
        ("scenario", .string(comparison.scenarioName)), ("rank_by", .string(rankBy)),
        ("best_is_clear", .bool(metric.map(comparison.bestIsClear) ?? false)),
        ("seeds", .list(comparison.seeds.map { .integer($0) })),
        (
          "policies",
          .list(
            standings.map { entry in
              let policy = entry.policy
              return .fields([
                ("rank", entry.rank.map { .integer($0) } ?? .null),
                ("tied", .bool(entry.equalMeans)), ("policy", .string(policy)),
                (
                  "vs_best",
                  entry.vsBest.map { difference in
                    .fields([
                      ("mean", .decimal(difference.mean)), ("ci95", .decimal(difference.ci95)),
                      ("tied", .bool(entry.tiedWithBest)),
                    ])
                  } ?? .null
                ),
                (
                  "metrics",
                  .fields(
                    SummaryMetric.all.map { metric in
                      let summary = comparison.aggregate(metric, of: policy)
                      return (
                        metric.name,
                        .fields([
                          ("mean", .decimal(summary?.mean)), ("min", .decimal(summary?.min)),
                          ("max", .decimal(summary?.max)), ("ci95", .decimal(summary?.ci95)),
                        ])
                      )
                    })
                ),
              ])
            })
        ),
        (
          "policies_seeds_do_not_change",
          .list(comparison.policiesSeedsDoNotChange.map { .string($0) })
        ),
        ("reports", .string(folder)),
      ]))
  }
}
