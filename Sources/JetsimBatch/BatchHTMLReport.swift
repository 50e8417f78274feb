import JetsimCore
import JetsimIO

/// `compare.html` and `sweep.html`: the metrics of many runs as charts, self-contained like
/// `report.html`.
package enum BatchHTMLReport {
  /// The metrics drawn, in order.
  static let metrics = [
    "warm_resume_ratio", "kills_per_hour", "cold_launches", "launch_time_ms", "memory_warnings",
    "min_free_kb",
    "mean_apps_resident", "time_warning_ms",
  ]
  /// Series colours (Okabe–Ito), in order.
  static let palette = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000",
  ]

  /// One bar chart per metric across the comparison's policies, with 95 % confidence intervals.
  package static func comparison(_ comparison: Comparison) -> String {
    var html = HTMLDocument(title: "jetsim: \(comparison.scenarioName) compared")
    html.heading(
      "\(comparison.scenarioName): \(comparison.policies.count) policies × \(comparison.seeds.count) seeds"
    )
    html.paragraph(
      "Each bar is the mean across seeds; the whisker is the 95 % confidence interval of the mean (Student's t). compare.csv has every run."
    )
    for name in metrics {
      guard let metric = SummaryMetric.named(name) else { continue }
      let stats = comparison.policies.map { comparison.aggregate(metric, of: $0) }
      let top = stats.compactMap { $0.map { $0.mean + ($0.ci95 ?? 0) } }.max() ?? 0
      let bottom = min(0, stats.compactMap { $0.map { $0.mean - ($0.ci95 ?? 0) } }.min() ?? 0)
      html.section(name.replacing("_", with: " ") + direction(metric))
      var chart = SVGChart(
        width: 900, height: 220, label: "\(name) by policy",
        xMax: Double(comparison.policies.count), yMax: 1, leftMargin: 90)
      chart.barChart(
        labels: comparison.policies, means: stats.map { $0?.mean },
        intervals: stats.map { $0?.ci95 }, low: bottom,
        high: top == bottom ? bottom + 1 : top * 1.1, colour: palette[0], unit: unit(name))
      html.raw(chart.finish())
    }
    return html.finish()
  }

  /// One line chart per metric against the sweep's first axis, one line per combination of the
  /// other axes, from `sweep-summary.csv`'s text.
  package static func sweep(name: String, summaryCSV: String) -> String {
    var html = HTMLDocument(title: "jetsim: sweep \(name)")
    html.heading("sweep \(name)")
    guard let records = try? CSVReader.records(summaryCSV), let header = records.first?.fields,
      let runsColumn = header.firstIndex(of: "runs")
    else {
      html.paragraph("sweep-summary.csv could not be read.")
      return html.finish()
    }
    let rows = records.dropFirst().map(\.fields)
    guard runsColumn > 0 else {
      html.paragraph("The sweep has no axis besides seeds; sweep-summary.csv has its one point.")
      return html.finish()
    }
    let axis = header[0]
    let numericAxis = rows.allSatisfy { Double($0[0]) != nil }
    let xValues = numericAxis ? rows.compactMap { Double($0[0]) } : []
    let categories = numericAxis ? [] : uniqued(rows.map { $0[0] })
    func xOf(_ row: [String]) -> Double {
      numericAxis ? Double(row[0]) ?? 0 : Double(categories.firstIndex(of: row[0]) ?? 0)
    }
    let seriesKeys = uniqued(rows.map { $0[1..<runsColumn].joined(separator: ", ") })
    html.paragraph(
      "Each point is the mean across seeds, with its 95 % confidence interval; x is \(axis)"
        + (seriesKeys.count > 1
          ? "; one line per \(header[1..<runsColumn].joined(separator: ", "))." : "."))
    for metric in metrics {
      guard let meanColumn = header.firstIndex(of: "\(metric)_mean"),
        let ciColumn = header.firstIndex(of: "\(metric)_ci95")
      else { continue }
      let values = rows.compactMap { Double($0[meanColumn]) }
      let top = (values.max() ?? 1) * 1.1
      let bottom = min(0, values.min() ?? 0)
      let xLow = numericAxis ? 0 : -0.5
      let xHigh = numericAxis ? (xValues.max() ?? 1) * 1.05 : Double(categories.count) - 0.5
      html.section(
        metric.replacing("_", with: " ") + (SummaryMetric.named(metric).map(direction) ?? ""))
      var chart = SVGChart(
        width: 900, height: 240, label: "\(metric) against \(axis)", xMax: xHigh - xLow,
        yMax: top - bottom, leftMargin: 90)
      chart.lineChart(
        xOffset: xLow, yOffset: bottom, xLabel: axis + (axis.hasSuffix("_kb") ? " (MB)" : ""),
        yLabel: unit(metric),
        xFormat: { value in
          numericAxis
            ? (axis.hasSuffix("_kb")
              ? Units.decimal(value / 1024, digits: 0) : Units.decimal(value, digits: 2))
            : (categories.indices.contains(Int(value.rounded()))
              ? categories[Int(value.rounded())] : "")
        },
        series: seriesKeys.enumerated().map { index, key in
          let points = rows.filter { $0[1..<runsColumn].joined(separator: ", ") == key }.compactMap
          { row -> (Double, Double, Double?)? in
            guard let mean = Double(row[meanColumn]) else { return nil }
            return (xOf(row), mean, Double(row[ciColumn]))
          }
          return (key.isEmpty ? metric : key, palette[index % palette.count], points)
        })
      html.raw(chart.finish())
      if seriesKeys.count > 1 {
        html.raw(
          HTMLDocument.legend(
            seriesKeys.enumerated().map { ($1, palette[$0 % palette.count], "line") }))
      }
    }
    return html.finish()
  }

  static func direction(_ metric: SummaryMetric) -> String {
    switch metric.higherIsBetter {
    case true?: " (higher is better)"
    case false?: " (lower is better)"
    case nil: ""
    }
  }

  static func unit(_ metric: String) -> String {
    if metric.hasSuffix("_ms") { return "milliseconds" }
    if metric.hasSuffix("_kb") { return "kilobytes" }
    if metric.hasSuffix("_ratio") { return "ratio" }
    if metric.hasSuffix("_per_hour") { return "per hour" }
    return "count"
  }

  static func uniqued(_ values: [String]) -> [String] {
    var seen: Set<String> = []
    return values.filter { seen.insert($0).inserted }
  }
}

extension SVGChart {
  /// Vertical bars with whiskers, one per label.
  mutating func barChart(
    labels: [String], means: [Double?], intervals: [Double?], low: Double, high: Double,
    colour: String, unit: String
  ) {
    let span = high - low
    func py(_ value: Double) -> Double { top + height - (value - low) / span * height }
    var out =
      "<g class=\"axis\"><line x1=\"\(n(left))\" y1=\"\(n(top))\" x2=\"\(n(left))\" y2=\"\(n(top + height))\"/>"
    for tick in 0...4 {
      let value = low + span * Double(tick) / 4
      out +=
        "<line x1=\"\(n(left - 5))\" y1=\"\(n(py(value)))\" x2=\"\(n(left + width))\" y2=\"\(n(py(value)))\" class=\"grid\"/>"
      out +=
        "<text x=\"\(n(left - 8))\" y=\"\(n(py(value) + 4))\" text-anchor=\"end\">\(HTMLDocument.escape(Units.decimal(value, digits: value.magnitude < 10 ? 2 : 0)))</text>"
    }
    out +=
      "<text x=\"14\" y=\"\(n(top + height / 2))\" text-anchor=\"middle\" class=\"label\" transform=\"rotate(-90 14 \(n(top + height / 2)))\">\(HTMLDocument.escape(unit))</text></g>"
    let slot = width / Double(max(labels.count, 1))
    for (index, label) in labels.enumerated() {
      let cx = left + slot * (Double(index) + 0.5)
      out +=
        "<text x=\"\(n(cx))\" y=\"\(n(top + height + 18))\" text-anchor=\"middle\">\(HTMLDocument.escape(label))</text>"
      guard let mean = means[index] else { continue }
      let title =
        "\(label): mean \(Units.decimal(mean, digits: 4))"
        + (intervals[index].map { " ± \(Units.decimal($0, digits: 4))" } ?? "")
      out += "<g><title>\(HTMLDocument.escape(title))</title>"
      out +=
        "<rect x=\"\(n(cx - slot * 0.3))\" y=\"\(n(min(py(mean), py(0))))\" width=\"\(n(slot * 0.6))\" height=\"\(n(abs(py(0) - py(mean))))\" fill=\"\(colour)\"/>"
      if let interval = intervals[index] {
        out +=
          "<path d=\"M\(n(cx)) \(n(py(mean - interval)))V\(n(py(mean + interval)))M\(n(cx - 6)) \(n(py(mean - interval)))h12M\(n(cx - 6)) \(n(py(mean + interval)))h12\" stroke=\"#000\" stroke-width=\"1.5\"/>"
      }
      out += "</g>"
    }
    appendRaw(out)
  }

  /// Lines through points with whiskers, one per series.
  mutating func lineChart(
    xOffset: Double, yOffset: Double, xLabel: String, yLabel: String,
    xFormat: @escaping (Double) -> String,
    series: [(name: String, colour: String, points: [(x: Double, y: Double, ci: Double?)])]
  ) {
    let frame = self
    let shiftedX: (Double) -> Double = { frame.x($0 - xOffset) }
    let shiftedY: (Double) -> Double = { frame.y($0 - yOffset) }
    axes(
      xLabel: xLabel, yLabel: yLabel, xFormat: { xFormat($0 + xOffset) },
      yFormat: { value in
        Units.decimal(value + yOffset, digits: (value + yOffset).magnitude < 10 ? 2 : 0)
      })
    var out = ""
    for line in series {
      let points = line.points.sorted { $0.x < $1.x }
      out += "<g><title>\(HTMLDocument.escape(line.name))</title>"
      out +=
        "<polyline fill=\"none\" stroke=\"\(line.colour)\" stroke-width=\"2\" points=\"\(points.map { "\(n(shiftedX($0.x))),\(n(shiftedY($0.y)))" }.joined(separator: " "))\"/>"
      for point in points {
        let title =
          "\(line.name): \(xFormat(point.x)) → \(Units.decimal(point.y, digits: 4))"
          + (point.ci.map { " ± \(Units.decimal($0, digits: 4))" } ?? "")
        out +=
          "<g><title>\(HTMLDocument.escape(title))</title><circle cx=\"\(n(shiftedX(point.x)))\" cy=\"\(n(shiftedY(point.y)))\" r=\"3.5\" fill=\"\(line.colour)\"/>"
        if let ci = point.ci, ci > 0 {
          out +=
            "<path d=\"M\(n(shiftedX(point.x))) \(n(shiftedY(point.y - ci)))V\(n(shiftedY(point.y + ci)))\" stroke=\"\(line.colour)\" stroke-width=\"1.2\"/>"
        }
        out += "</g>"
      }
      out += "</g>"
    }
    appendRaw(out)
  }
}
