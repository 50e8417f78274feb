import Jetsim

/// The ranked table `jetsim compare` prints: each policy's mean (± 95 % CI half-width across seeds)
/// for the ranking metric and the headline metrics.
enum CompareReport {
  static let columns: [(metric: String, title: String)] = [
    ("warm_resume_ratio", "warm-resume ratio"), ("kills_per_hour", "kills/hour"),
    ("cold_launches", "cold launches"),
    ("launch_time_ms", "launch time ms"), ("min_available_kb", "min available KB"),
  ]

  /// The comparison for people: a header, the ranked table, notes on ties and seeds, and where
  /// the reports are.
  static func text(
    _ comparison: Comparison, device: String, rankBy: String, folder: String, keptRuns: Bool
  ) -> String {
    guard let metric = SummaryMetric.named(rankBy) else { return "" }
    let ranking = Ranking(comparison, metric: metric, name: rankBy)
    let direction = (metric.higherIsBetter ?? true) ? "higher is better" : "lower is better"
    let table = aligned(rows(comparison, ranking))
    let notes = self.notes(comparison, ranking)
    let files =
      ReportFile.list(ReportFile.written(by: "compare"))
      + (keptRuns ? ", <policy>/seed-<n>/" : "")
    return """
      \(comparison.scenarioName) on \(device): \(comparison.policies.count.counted("policy", "policies")) × \(comparison.seeds.count.counted("seed")), ranked by \(rankBy) (\(direction)); mean ± 95 % CI across seeds
      \(table.map { "  " + $0 }.joined(separator: "\n"))
      \(notes.map { "  note: \($0)\n" }.joined())  reports: \(folder)/ (\(files))

      """
  }

  /// The metric a comparison is ranked by, and the outcome: the standings, the best policy (nil
  /// when no run has a value) and whether it is clearly the best.
  struct Ranking {
    var name: String
    var metric: SummaryMetric
    var standings: [Comparison.Standing]
    var best: String?
    var clear: Bool

    init(_ comparison: Comparison, metric: SummaryMetric, name: String) {
      self.name = name
      self.metric = metric
      standings = comparison.standings(by: metric)
      best = standings.first { $0.rank != nil }?.policy
      clear = comparison.bestIsClear(by: metric)
    }
  }

  /// The table's cells: a header, then a row per policy in rank order with its rank, the
  /// ranking metric and the headline metrics, and its paired difference from the best.
  static func rows(_ comparison: Comparison, _ ranking: Ranking) -> [[String]] {
    let rankBy = ranking.name
    let shown = [(rankBy, rankBy)] + columns.filter { $0.metric != rankBy }
    var rows = [
      ["rank", "policy"] + shown.map(\.title) + ["vs \(ranking.best ?? "best") (paired)"]
    ]
    for entry in ranking.standings {
      let rank = entry.rank.map { "\($0)\(entry.sharesRank ? "=" : "")" } ?? "-"
      let paired =
        entry.policy == ranking.best
        ? (entry.verdict == .best ? "(best)" : "(best by mean)")
        : cell(entry.vsBest, ranking.metric, sign: true) + " "
          + entry.verdict.name.replacing("_", with: " ")
      rows.append(
        [rank, entry.policy]
          + shown.map { column in
            guard let columnMetric = SummaryMetric.named(column.metric) else { return "n/a" }
            return cell(comparison.aggregate(columnMetric, of: entry.policy), columnMetric)
          } + [paired])
    }
    return rows
  }

  /// A mean ± its 95 % CI half-width, with `metric`'s digits (a `+` before a positive mean with
  /// `sign`); "n/a" for no value.
  static func cell(_ summary: SampleSummary?, _ metric: SummaryMetric, sign: Bool = false) -> String
  {
    guard let summary else { return "n/a" }
    let digits = metric.isRatio ? 4 : 1
    let mean = (sign && summary.mean >= 0 ? "+" : "") + Units.decimal(summary.mean, digits: digits)
    return summary.ci95.map { "\(mean) ± \(Units.decimal($0, digits: digits))" } ?? mean
  }

  /// `rows` as lines of aligned columns: the first two (rank, policy) left-aligned, the numbers
  /// right-aligned, two spaces apart.
  static func aligned(_ rows: [[String]]) -> [String] {
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column < 2 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }
  }

  /// What a reader needs to read the table right: ties, seeds that change nothing, nothing
  /// ranked, and what the paired difference and its interval say.
  static func notes(_ comparison: Comparison, _ ranking: Ranking) -> [String] {
    let rankBy = ranking.name
    var notes: [String] = []
    if ranking.standings.contains(where: \.sharesRank) {
      notes.append(
        "= marks policies that share a rank: on \(rankBy) no paired 95 % interval between them excludes 0"
      )
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
    guard let best = ranking.best else {
      notes.append(
        "no run has a value of \(rankBy), so nothing is ranked; choose another with --rank-by")
      return notes
    }
    guard comparison.seeds.count > 1 else {
      notes.append(
        "one seed: no interval, so no policy is shown to be better than another; give --seeds 10 or more"
      )
      return notes
    }
    notes.append(
      "vs \(best): the difference from the best policy on \(rankBy), seed by seed (the runs of a seed share their workload), mean ± 95 % CI"
    )
    if !ranking.clear {
      notes.append(
        "no verdict: the interval includes 0, so on these seeds the policy cannot be told from \(best); more seeds may tell them apart"
      )
    }
    return notes
  }
}

extension CompareReport {
  /// The comparison as one JSON document: for each policy in rank order, its rank (shared where
  /// the evidence cannot tell policies apart), its verdict against the best (`best`, `better`,
  /// `worse` or `no_verdict` with `verdict_reason`), and every metric's mean, min, max and 95 % CI
  /// half-width across seeds.
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
                ("shares_rank", .bool(entry.sharesRank)), ("policy", .string(policy)),
                ("verdict", .string(entry.verdict.name)),
                ("verdict_reason", entry.verdict.reason.map { .string($0) } ?? .null),
                (
                  "vs_best",
                  entry.vsBest.map { difference in
                    .fields([
                      ("mean", .decimal(difference.mean)), ("ci95", .decimal(difference.ci95)),
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
