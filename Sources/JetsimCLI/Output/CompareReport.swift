import Jetsim

/// The ranked table `jetsim compare` prints: each policy's mean (± 95 % CI half-width across seeds)
/// for the ranking metric and the headline metrics.
enum CompareReport {
  static let columns: [(metric: String, title: String)] = [
    ("warm_resume_ratio", "warm-resume ratio"), ("kills_per_hour", "kills/hour"),
    ("cold_launches", "cold launches"),
    ("launch_time_ms", "launch time ms"), ("min_free_kb", "min free KB"),
  ]

  /// The policies, best first by the mean of `rankBy` (policies with no value last, ties in the
  /// order given).
  static func ranking(_ comparison: Comparison, rankBy: String) -> [String] {
    guard let metric = SummaryMetric.named(rankBy) else { return comparison.policies }
    let higherIsBetter = metric.higherIsBetter ?? true
    return comparison.policies.enumerated().sorted { a, b in
      let x = comparison.aggregate(metric, of: a.element)?.mean
      let y = comparison.aggregate(metric, of: b.element)?.mean
      switch (x, y) {
      case let (x?, y?) where x != y: return higherIsBetter ? x > y : x < y
      case (_?, nil): return true
      case (nil, _?): return false
      default: return a.offset < b.offset
      }
    }.map(\.element)
  }

  static func text(_ comparison: Comparison, device: String, rankBy: String, folder: String)
    -> String
  {
    guard let metric = SummaryMetric.named(rankBy) else { return "" }
    let higherIsBetter = metric.higherIsBetter ?? true
    let ranked = ranking(comparison, rankBy: rankBy)
    let shown = [(rankBy, rankBy)] + columns.filter { $0.metric != rankBy }
    var rows = [["rank", "policy"] + shown.map(\.title)]
    for (index, policy) in ranked.enumerated() {
      rows.append(
        ["\(index + 1)", policy]
          + shown.map { column in
            guard let metric = SummaryMetric.named(column.metric),
              let summary = comparison.aggregate(metric, of: policy)
            else {
              return "n/a"
            }
            let digits = metric.isRatio ? 4 : 1
            let mean = Units.decimal(summary.mean, digits: digits)
            return summary.ci95.map { "\(mean) ± \(Units.decimal($0, digits: digits))" } ?? mean
          })
    }
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    let table = rows.map { row in
      row.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column < 2 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }
    let direction = higherIsBetter ? "higher is better" : "lower is better"
    return """
      \(comparison.scenarioName) on \(device): \(comparison.policies.count) policies × \(comparison.seeds.count) seeds, ranked by \(rankBy) (\(direction)); mean ± 95 % CI across seeds
      \(table.map { "  " + $0 }.joined(separator: "\n"))
        reports: \(folder)/ (compare.csv, compare-summary.csv, <policy>/seed-<n>/)

      """
  }
}

extension CompareReport {
  /// The comparison as one JSON document: for each policy in rank order, every metric's mean, min,
  /// max and 95 % CI half-width across seeds.
  static func json(_ comparison: Comparison, rankBy: String, folder: String) -> String {
    let ranked = ranking(comparison, rankBy: rankBy)
    return JSONText.render(
      .fields([
        ("scenario", .string(comparison.scenarioName)), ("rankBy", .string(rankBy)),
        ("seeds", .list(comparison.seeds.map { .integer($0) })),
        (
          "policies",
          .list(
            ranked.enumerated().map { rank, policy in
              .fields([
                ("rank", .integer(rank + 1)), ("policy", .string(policy)),
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
        ("reports", .string(folder)),
      ]))
  }
}
