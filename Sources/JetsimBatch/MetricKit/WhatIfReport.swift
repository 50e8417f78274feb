import JetsimCore
import JetsimIO

/// The files of a what-if (`jetsim what-if`): `what-if.csv` (a row per device and size: each
/// counter's mean per 24 h of simulated time with its 95 % interval, its paired difference from
/// the app's size today with its interval, and the totals over every seed),
/// `metrickit.json` (each point's payload over every seed) and `what-if.html` (the background
/// memory-pressure exits per day, by device and size).
package enum WhatIfReport {
  package static func csv(_ points: [WhatIf.Point], app: String, seeds: Int) -> String {
    var out = CSVBuffer()
    var header = ["app", "device", "resident_kb", "today_kb", "seeds", "simulated_days"]
    for exit in WhatIf.exits {
      header += [
        "\(exit.column)_per_24h_simulated", "\(exit.column)_per_24h_simulated_ci95",
        "\(exit.column)_vs_today_per_24h_simulated",
        "\(exit.column)_vs_today_per_24h_simulated_ci95",
      ]
    }
    header += MetricKitExit.all.map { "\($0.column)_total" }
    header += ["peak_memory_kb", "average_suspended_kb"]
    out.appendRow(header)
    for point in points {
      var row = [
        app, point.device, "\(point.residentKB)", "\(point.todayKB)", "\(seeds)",
        FixedPoint.format(Double(point.payload.durationMs) / 86_400_000),
      ]
      for exit in WhatIf.exits {
        for summary in [point.summary(exit), point.vsToday(exit)] {
          row += [
            summary.map { FixedPoint.format($0.mean) } ?? "",
            summary?.ci95.map { FixedPoint.format($0) } ?? "",
          ]
        }
      }
      row += MetricKitExit.all.map { "\(point.payload.count($0))" }
      row += [
        point.payload.peakMemoryKB.map(String.init) ?? "",
        point.payload.averageSuspendedKB.map(String.init) ?? "",
      ]
      out.appendRow(row)
    }
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// Every point's payload, in `what-if.csv`'s order.
  package static func json(_ points: [WhatIf.Point]) -> String {
    JSONText.render(.list(points.map(\.payload.json)))
  }

  /// A bar a point: the background memory-pressure exits per day with its 95 % interval, grouped
  /// by device.
  package static func html(_ points: [WhatIf.Point], app: String, scenario: String, seeds: Int)
    -> String
  {
    var html = HTMLDocument(title: "jetsim: what if \(app) used less memory")
    html.heading("What if \(app) used less memory?")
    html.paragraph(
      "\(scenario): the same workload with \(app)'s resident memory (its dirty memory without caches, backing stores or growth; its footprint in a device snapshot) at each size and at its size today, \(seeds.counted("seed")) each, read as MetricKit would report it to \(app): background exits to free up memory (MXBackgroundExitData.cumulativeMemoryPressureExitCount) per 24 h of simulated time."
    )
    let exit = MetricKitExit.backgroundMemoryPressure
    let labels = points.map { "\($0.device), \(Units.formatSize($0.residentKB))" }
    let summaries = points.map { $0.summary(exit) }
    let highs = summaries.compactMap { $0.map { $0.mean + ($0.ci95 ?? 0) } }
    var chart = SVGChart(
      width: 900, height: 260,
      label: "background memory-pressure exits per day, by device and size",
      x: .bands(labels), y: ChartScale(from: 0, to: highs.max() ?? 1, unit: .count),
      leftMargin: 90)
    chart.axes(xLabel: "device, resident memory", yLabel: "exits per day")
    chart.bars(
      means: summaries.map { $0?.mean }, intervals: summaries.map { $0?.ci95 }, titles: labels,
      colour: ChartStyle.colours[0])
    html.raw(chart.finish())
    html.paragraph(
      "Each bar is the mean across seeds; the whisker its 95 % confidence interval (Student's t). what-if.csv has every counter; metrickit.json each point's payload."
    )
    curves(points, app: app, into: &html)
    html.table(
      header: [
        "device", "resident", "background memory-pressure exits per 24 h simulated", "95 % CI",
        "vs today, paired", "memory-limit exits (background, foreground)",
        "average suspended (MetricKit)",
      ],
      rows: points.map { point in
        let summary = point.summary(exit)
        let paired = point.vsToday(exit)
        return [
          point.device, Units.formatSize(point.residentKB),
          summary.map { Units.decimal($0.mean, digits: 2) } ?? "n/a (no simulated time)",
          summary?.ci95.map { "± " + Units.decimal($0, digits: 2) } ?? "n/a (one seed)",
          paired.map {
            ($0.mean >= 0 ? "+" : "") + Units.decimal($0.mean, digits: 2)
              + ($0.ci95.map { " ± " + Units.decimal($0, digits: 2) } ?? "")
          } ?? "n/a (no run at today's size)",
          "\(point.payload.count(.backgroundMemoryResourceLimit)), \(point.payload.count(.foregroundMemoryResourceLimit))",
          point.payload.averageSuspendedKB.map(Units.megabytes) ?? "n/a (never suspended)",
        ]
      }, numericColumns: [2, 3, 4, 6])
    return html.finish()
  }

  /// For each device with two sizes or more: the exits per 24 h simulated against the app's size,
  /// the median and p5–p95 band across seeds, today's size marked.
  static func curves(_ points: [WhatIf.Point], app: String, into html: inout HTMLDocument) {
    let exit = MetricKitExit.backgroundMemoryPressure
    var devices: [String] = []
    for point in points where !devices.contains(point.device) { devices.append(point.device) }
    for device in devices {
      let mine = points.filter { $0.device == device }
      guard mine.count > 1, let today = mine.first?.todayKB else { continue }
      var curve = mine.map {
        CurveChart.Point(kilobytes: $0.residentKB, values: $0.perDay[exit] ?? [])
      }
      if !mine.contains(where: { $0.residentKB == today }) {
        curve.append(CurveChart.Point(kilobytes: today, values: mine[0].todayPerDay[exit] ?? []))
      }
      html.section("\(device): exits per 24 h simulated against \(app)'s size")
      html.raw(
        CurveChart.svg(
          curve,
          label:
            "\(device): background memory-pressure exits per 24 h simulated against \(app)'s resident memory, median and p5 to p95 across seeds",
          xLabel: "\(app)'s resident memory", yLabel: "exits per 24 h", unit: .count,
          answer: (today, "today \(Units.megabytes(today))")))
    }
  }

  /// Writes the three files into `destination`, all or none.
  package static func write(
    _ points: [WhatIf.Point], app: String, scenario: String, seeds: Int, to destination: String
  ) throws(JetsimError) {
    try ReportFolder.write(
      [
        (.whatIf, csv(points, app: app, seeds: seeds)), (.metricKit, json(points)),
        (.whatIfHTML, html(points, app: app, scenario: scenario, seeds: seeds)),
      ], to: destination, kind: .whatIf)
  }
}
