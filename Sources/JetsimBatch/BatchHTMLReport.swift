import JetsimCore
import JetsimIO

/// `compare.html` and `sweep.html`: the metrics of many runs as charts, self-contained like
/// `report.html`.
package enum BatchHTMLReport {
  /// The metrics drawn, in order.
  static let metrics = [
    "warm_resume_ratio", "kills_per_hour", "cold_launches", "launch_time_ms", "memory_warnings",
    "min_available_kb",
    "mean_apps_resident", "time_warning_ms",
  ]
  /// One bar chart per metric across the comparison's policies: bars from zero, whiskers for the
  /// 95 % confidence intervals, an axis that holds both.
  package static func comparison(_ comparison: Comparison, rankBy: SummaryMetric) -> String {
    var html = HTMLDocument(title: "jetsim: \(comparison.scenarioName) compared")
    html.heading(
      "\(comparison.scenarioName): \(comparison.policies.count.counted("policy", "policies")) × \(comparison.seeds.count.counted("seed"))"
    )
    ranking(comparison, by: rankBy, into: &html)
    html.paragraph(
      "Each bar is the mean across seeds; the whisker is the 95 % confidence interval of the mean (Student's t). compare.csv has every run."
    )
    for name in metrics {
      guard let metric = SummaryMetric.named(name) else { continue }
      let stats = comparison.policies.map { comparison.aggregate(metric, of: $0) }
      // No summary metric is below zero, whatever its confidence interval says: its axis has no
      // negative ticks (the whisker stops at the axis).
      let lows = stats.compactMap { $0.map { max(0, $0.mean - ($0.ci95 ?? 0)) } }
      let highs = stats.compactMap { $0.map { $0.mean + ($0.ci95 ?? 0) } }
      html.section(title(name) + direction(metric))
      var chart = SVGChart(
        width: 900, height: 220, label: "\(title(name)) by policy", x: .bands(comparison.policies),
        y: ChartScale(from: lows.min() ?? 0, to: highs.max() ?? 0, unit: .of(metric: name)),
        leftMargin: 90)
      chart.axes(xLabel: "policy", yLabel: title(name))
      chart.bars(
        means: stats.map { $0?.mean }, intervals: stats.map { $0?.ci95 },
        titles: comparison.policies, colour: ChartStyle.colours[0])
      html.raw(chart.finish())
    }
    return html.finish()
  }

  /// The ranking by `metric`, as `jetsim compare` prints it: each policy's rank, mean and paired
  /// difference from the best (seed by seed, with its 95 % interval and whether it is a tie), then
  /// the differences drawn from zero, so that 0.962 against 0.967 is not lost in bars from zero.
  static func ranking(
    _ comparison: Comparison, by metric: SummaryMetric, into html: inout HTMLDocument
  ) {
    let standings = comparison.standings(by: metric)
    guard let best = standings.first(where: { $0.rank != nil })?.policy else { return }
    let digits = metric.isRatio ? 4 : 1
    func text(_ summary: SampleSummary?, sign: Bool = false) -> String {
      guard let summary else { return "" }
      let mean =
        (sign && summary.mean >= 0 ? "+" : "") + Units.decimal(summary.mean, digits: digits)
      return summary.ci95.map { "\(mean) ± \(Units.decimal($0, digits: digits))" } ?? mean
    }
    let clear = comparison.bestIsClear(by: metric)
    html.section("Ranking by \(title(metric.name))" + direction(metric))
    html.paragraph(
      clear
        ? "\(best) is best: every other policy's difference from it, seed by seed, has a 95 % interval that excludes 0."
        : "\(best) has the best mean, but not clearly: a policy marked no verdict has a difference from it whose 95 % interval includes 0\(comparison.seeds.count < 2 ? " (one seed gives no interval at all, so there is no verdict)" : ""); policies that cannot be told apart share a rank."
    )
    html.table(
      header: ["rank", "policy", "mean ± 95 % CI", "vs \(best), paired", "verdict"],
      rows: standings.map { entry in
        [
          entry.rank.map { "\($0)\(entry.sharesRank ? "=" : "")" } ?? "-", entry.policy,
          text(comparison.aggregate(metric, of: entry.policy)),
          text(entry.vsBest, sign: true),
          entry.verdict.reason.map { "no verdict: \($0)" } ?? entry.verdict.name,
        ]
      }, numericColumns: [2, 3])
    let others = standings.filter { $0.vsBest != nil }
    guard !others.isEmpty else { return }
    let lows = others.compactMap { $0.vsBest.map { $0.mean - ($0.ci95 ?? 0) } } + [0]
    let highs = others.compactMap { $0.vsBest.map { $0.mean + ($0.ci95 ?? 0) } } + [0]
    // A difference of two shares lies in −1…1, not 0…1: it is drawn as a plain number.
    let unit = ChartUnit.of(metric: metric.name)
    var chart = SVGChart(
      width: 900, height: 220, label: "difference from \(best) in \(title(metric.name))",
      x: .bands(others.map(\.policy)),
      y: ChartScale(
        from: lows.min() ?? 0, to: highs.max() ?? 0, unit: unit == .ratio ? .count : unit),
      leftMargin: 90)
    chart.axes(xLabel: "policy", yLabel: "vs \(best)")
    chart.bars(
      means: others.map { $0.vsBest?.mean }, intervals: others.map { $0.vsBest?.ci95 },
      titles: others.map(\.policy), colour: ChartStyle.colours[1])
    html.raw(chart.finish())
  }

  /// One chart per metric against the sweep's first axis, one series per combination of the other
  /// axes, from `sweep-summary.csv`'s text. A numeric axis (memory, a rate) draws lines through the
  /// points; a categorical one (policy, device, apps) draws each category's points over its label,
  /// side by side, unjoined.
  package static func sweep(name: String, summaryCSV: String) -> String {
    var html = HTMLDocument(title: "jetsim: sweep \(name)")
    html.heading("sweep \(name)")
    guard let records = try? CSVReader.records(summaryCSV), let header = records.first?.fields,
      let runsColumn = header.firstIndex(of: "runs")
    else {
      html.paragraph("sweep-summary.csv could not be read.")
      return html.finish()
    }
    guard runsColumn > 0 else {
      html.paragraph("The sweep has no axis besides seeds; sweep-summary.csv has its one point.")
      return html.finish()
    }
    let table = SweepTable(header: header, records: records.dropFirst(), runsColumn: runsColumn)
    html.paragraph(
      "Each point is the mean across seeds, with its 95 % confidence interval; x is \(title(table.axis))"
        + (table.seriesKeys.count > 1
          ? "; one series per \(header[1..<runsColumn].joined(separator: ", "))." : "."))
    for metric in metrics {
      guard let chart = table.chart(of: metric) else { continue }
      html.section(title(metric) + (SummaryMetric.named(metric).map(direction) ?? ""))
      html.raw(chart)
      if table.seriesKeys.count > 1 {
        html.raw(ChartStyle.legend(table.seriesKeys, joined: table.numeric))
      }
    }
    return html.finish()
  }

  /// `sweep-summary.csv` as the sweep page draws it: x is the first axis, one series per
  /// combination of the other axes.
  struct SweepTable {
    let header: [String]
    let rows: [[String]]
    let runsColumn: Int
    /// The first axis, and whether its values are numbers (else categories, drawn in bands).
    let axis: String
    let numeric: Bool
    let categories: [String]
    let xAxis: ChartAxis
    let seriesKeys: [String]

    init(header: [String], records: ArraySlice<CSVReader.Record>, runsColumn: Int) {
      self.header = header
      self.runsColumn = runsColumn
      rows = records.map(\.fields).filter { $0.count == header.count }
      axis = header[0]
      numeric = rows.allSatisfy { Double($0[0]) != nil }
      categories = uniqued(rows.map { $0[0] })
      if numeric {
        let values = rows.compactMap { Double($0[0]) }
        xAxis = .scale(
          ChartScale(
            from: values.min() ?? 0, to: values.max() ?? 0, unit: .of(metric: header[0]),
            includingZero: false))
      } else {
        xAxis = .bands(categories)
      }
      seriesKeys = uniqued(rows.map { $0[1..<runsColumn].joined(separator: ", ") })
    }

    func x(_ row: [String]) -> Double {
      numeric ? Double(row[0]) ?? 0 : Double(categories.firstIndex(of: row[0]) ?? 0)
    }

    /// The chart of `metric` against the first axis, if the table has its columns.
    func chart(of metric: String) -> String? {
      guard let meanColumn = header.firstIndex(of: "\(metric)_mean"),
        let ciColumn = header.firstIndex(of: "\(metric)_ci95")
      else { return nil }
      let points = rows.compactMap { row -> (Double, Double)? in
        guard let mean = Double(row[meanColumn]) else { return nil }
        let ci = Double(row[ciColumn]) ?? 0
        return (max(0, mean - ci), mean + ci)
      }
      var chart = SVGChart(
        width: 900, height: 240, label: "\(title(metric)) against \(title(axis))", x: xAxis,
        y: ChartScale(
          from: points.map(\.0).min() ?? 0, to: points.map(\.1).max() ?? 0,
          unit: .of(metric: metric)),
        leftMargin: 90)
      chart.axes(xLabel: title(axis), yLabel: title(metric))
      for (index, key) in seriesKeys.enumerated() {
        let series = rows.filter { $0[1..<runsColumn].joined(separator: ", ") == key }.compactMap {
          row -> (x: Double, y: Double, ci: Double?)? in
          guard let mean = Double(row[meanColumn]) else { return nil }
          return (x(row), mean, Double(row[ciColumn]))
        }
        // Categories' points side by side within their band, one slot per series.
        let slot = numeric ? 0 : min(12, chart.bandWidth * 0.7 / Double(seriesKeys.count))
        chart.series(
          name: key.isEmpty ? title(metric) : key, points: series, style: ChartStyle.series(index),
          joined: numeric, offset: (Double(index) - Double(seriesKeys.count - 1) / 2) * slot,
          format: xAxis.label)
      }
      return chart.finish()
    }
  }

  /// A column name for people: `min_free_kb` → "min free" (the unit is in the ticks).
  static func title(_ column: String) -> String { SummaryMetric.title(ofColumn: column) }

  static func direction(_ metric: SummaryMetric) -> String {
    switch metric.higherIsBetter {
    case true?: " (higher is better)"
    case false?: " (lower is better)"
    case nil: ""
    }
  }

  static func uniqued(_ values: [String]) -> [String] {
    var seen: Set<String> = []
    return values.filter { seen.insert($0).inserted }
  }
}

extension ChartAxis {
  /// A value's label on this axis: the scale's, or the category's.
  func label(_ value: Double) -> String {
    switch self {
    case .scale(let scale): scale.label(value)
    case .bands(let labels): labels.indices.contains(Int(value)) ? labels[Int(value)] : ""
    }
  }
}

extension SVGChart {
  /// One bar per band, from zero to its mean, with a whisker for its interval.
  mutating func bars(means: [Double?], intervals: [Double?], titles: [String], colour: String) {
    var out = ""
    for (index, mean) in means.enumerated() {
      guard let mean else { continue }
      let cx = x(Double(index))
      let interval = intervals[index]
      let title =
        "\(titles[index]): mean \(Units.decimal(mean, digits: 4))"
        + (interval.map { " ± \(Units.decimal($0, digits: 4))" } ?? "")
      out += "<g><title>\(HTMLDocument.escape(title))</title>"
      out +=
        "<rect x=\"\(n(cx - bandWidth * 0.3))\" y=\"\(n(min(y(mean), y(0))))\" width=\"\(n(bandWidth * 0.6))\" height=\"\(n(abs(y(0) - y(mean))))\" fill=\"\(colour)\"/>"
      if let interval, interval > 0 {
        out +=
          "<path d=\"M\(n(cx)) \(n(y(mean - interval)))V\(n(y(mean + interval)))M\(n(cx - 6)) \(n(y(mean - interval)))h12M\(n(cx - 6)) \(n(y(mean + interval)))h12\" stroke=\"#000\" stroke-width=\"1.5\"/>"
      }
      out += "</g>"
    }
    appendRaw(out)
  }

  /// A series: its points as markers with whiskers, `offset` pixels right of their x, joined by a
  /// line when `joined`.
  mutating func series(
    name: String, points: [(x: Double, y: Double, ci: Double?)],
    style: (colour: String, dash: String?, marker: ChartStyle.Marker), joined: Bool, offset: Double,
    format: (Double) -> String
  ) {
    let points = points.sorted { $0.x < $1.x }
    var out = "<g class=\"series\"><title>\(HTMLDocument.escape(name))</title>"
    if joined, points.count > 1 {
      out +=
        "<polyline fill=\"none\" stroke=\"\(style.colour)\" stroke-width=\"2\"\(style.dash.map { " stroke-dasharray=\"\($0)\"" } ?? "") points=\"\(points.map { "\(n(x($0.x) + offset)),\(n(y($0.y)))" }.joined(separator: " "))\"/>"
    }
    for point in points {
      let px = x(point.x) + offset
      let title =
        "\(name): \(format(point.x)) → \(Units.decimal(point.y, digits: 4))"
        + (point.ci.map { " ± \(Units.decimal($0, digits: 4))" } ?? "")
      out += "<g><title>\(HTMLDocument.escape(title))</title>"
      if let ci = point.ci, ci > 0 {
        out +=
          "<path d=\"M\(n(px)) \(n(y(point.y - ci)))V\(n(y(point.y + ci)))\" stroke=\"\(style.colour)\" stroke-width=\"1.2\"/>"
      }
      out += ChartStyle.marker(style.marker, x: px, y: y(point.y), colour: style.colour, format: n)
      out += "</g>"
    }
    appendRaw(out + "</g>")
  }
}
