import JetsimCore
import JetsimIO

/// A metric's distribution across seeds against a size: the median as a line over the p5–p95
/// band, with an optional target line and a marked answer (`plan.html`, `what-if.html`).
package struct CurveChart {
  /// One size: the seeds' values there.
  package struct Point {
    /// The size, in KB.
    package var kilobytes: Int
    /// The metric on each seed (nil where undefined).
    package var values: [Double?]
  }

  /// The `share` quantile (0…1) of `values` by nearest rank, nil if none is defined.
  package static func quantile(_ values: [Double?], _ share: Double) -> Double? {
    let sorted = values.compactMap { $0 }.sorted()
    guard !sorted.isEmpty else { return nil }
    let rank = Int((share * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count, max(1, rank)) - 1]
  }

  /// The chart as SVG: the band (`class="band"`), the median (`class="median"`), the target line
  /// (`class="target"`) and the answer (`class="answer"`) when given.
  package static func svg(
    _ points: [Point], label: String, xLabel: String, yLabel: String, unit: ChartUnit,
    target: (value: Double, title: String)? = nil, answer: (kilobytes: Int, title: String)? = nil
  ) -> String {
    let points = points.sorted { $0.kilobytes < $1.kilobytes }
    let rows = points.compactMap { point -> (x: Double, low: Double, mid: Double, high: Double)? in
      guard let low = quantile(point.values, 0.05), let mid = quantile(point.values, 0.5),
        let high = quantile(point.values, 0.95)
      else { return nil }
      return (Double(point.kilobytes), low, mid, high)
    }
    let values = rows.flatMap { [$0.low, $0.high] } + (target.map { [$0.value] } ?? [])
    let xs = rows.map(\.x)
    var chart = SVGChart(
      width: 900, height: 260, label: label,
      x: .scale(ChartScale(from: xs.min() ?? 0, to: xs.max() ?? 1, unit: .kilobytes)),
      y: ChartScale(from: values.min() ?? 0, to: values.max() ?? 1, unit: unit), leftMargin: 90)
    chart.axes(xLabel: xLabel, yLabel: yLabel)
    let band =
      rows.map { "\(chart.n(chart.x($0.x))),\(chart.n(chart.y($0.high)))" }
      + rows.reversed().map { "\(chart.n(chart.x($0.x))),\(chart.n(chart.y($0.low)))" }
    chart.appendRaw(
      "<polygon class=\"band\" points=\"\(band.joined(separator: " "))\" fill=\"\(ChartStyle.colours[1])\" fill-opacity=\"0.25\"><title>p5 to p95 across seeds</title></polygon>"
    )
    let median = rows.map { "\(chart.n(chart.x($0.x))),\(chart.n(chart.y($0.mid)))" }
    chart.appendRaw(
      "<polyline class=\"median\" points=\"\(median.joined(separator: " "))\" fill=\"none\" stroke=\"\(ChartStyle.colours[1])\" stroke-width=\"2\"><title>median across seeds</title></polyline>"
    )
    if let target { chart.appendRaw(targetLine(chart, target.value, target.title)) }
    if let answer { chart.appendRaw(answerLine(chart, Double(answer.kilobytes), answer.title)) }
    return chart.finish()
  }

  static func targetLine(_ chart: SVGChart, _ value: Double, _ title: String) -> String {
    let y = chart.n(chart.y(value))
    return
      "<line class=\"target\" x1=\"\(chart.n(chart.left))\" y1=\"\(y)\" x2=\"\(chart.n(chart.left + chart.width))\" y2=\"\(y)\" stroke=\"\(ChartStyle.colours[5])\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\"><title>\(HTMLDocument.escape(title))</title></line>"
  }

  static func answerLine(_ chart: SVGChart, _ kilobytes: Double, _ title: String) -> String {
    let x = chart.n(chart.x(kilobytes))
    return
      "<line class=\"answer\" x1=\"\(x)\" y1=\"\(chart.n(chart.top))\" x2=\"\(x)\" y2=\"\(chart.n(chart.top + chart.height))\" stroke=\"\(ChartStyle.colours[2])\" stroke-width=\"2\"><title>\(HTMLDocument.escape(title))</title></line><text class=\"answer\" x=\"\(x)\" y=\"\(chart.n(chart.top + 12))\" dx=\"4\">\(HTMLDocument.escape(title))</text>"
  }
}
