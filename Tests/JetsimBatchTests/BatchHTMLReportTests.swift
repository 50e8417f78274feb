import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

/// compare.html and sweep.html: well formed, self-contained, and charts whose geometry holds (a
/// label under its point, a bar inside its plot area, series that look apart).
@Suite struct BatchHTMLReportTests {
  @Test func comparisonAndSweepPagesAreWellFormedAndSelfContained() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/evening-social.json")
    let comparison = try Comparison.run(
      scenario, policies: [.largestFirst, .lmkd], seeds: [1, 2, 3], jobs: 2)
    let compare = BatchHTMLReport.comparison(comparison, rankBy: .rankDefault)
    #expect(xmlError(compare) == nil && externalReferences(compare).isEmpty)
    // The ranking the terminal prints, with the paired differences drawn from zero.
    #expect(compare.contains("<h2>Ranking by warm resume ratio"))
    #expect(compare.contains("<th>verdict</th>"))
    #expect(compare.contains("difference from"))
    #expect(compare.contains(">largest-first</text>") && compare.contains(">lmkd</text>"))
    let scratch = try ScratchFolder()
    let definition = try SweepDefinition.load(
      at: "\(packageRoot)/Profiles/sweeps/light-user-memory.json")
    _ = try Sweep.run(definition, into: scratch.path, jobs: 2)
    let sweep = try String(contentsOfFile: scratch.path + "/sweep.html", encoding: .utf8)
    #expect(xmlError(sweep) == nil && externalReferences(sweep).isEmpty)
    #expect(sweep.contains("warm resume ratio (higher is better)"))
    #expect(sweep.contains(">memory</text>") && sweep.contains(">1.5 GB</text>"))
    #expect(!sweep.contains("memory_kb"))
    for chart in svgCharts(in: compare) { expectBarsInside(chart) }
    // Every chart of both pages inside its view box; only the differences go below zero.
    for chart in svgCharts(in: compare) + svgCharts(in: sweep) {
      let signed = chart.contains("aria-label=\"difference from")
      #expect(
        chartGeometryProblems(chart, signed: signed).isEmpty, "\(chartGeometryProblems(chart))")
    }
  }

  /// Laid out by a real browser engine (headless Chromium, when the machine has one), no mark or
  /// label of compare.html's or sweep.html's charts pokes out of its chart.
  @Test(.enabled(if: BrowserGeometry.browser != nil, "needs a headless Chromium on the PATH"))
  func aBrowserFindsEveryMarkAndLabelInsideItsChart() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/evening-social.json")
    let comparison = try Comparison.run(
      scenario, policies: [.largestFirst, .jetsam, .lmkd], seeds: [1, 2, 3], jobs: 2)
    let scratch = try ScratchFolder()
    let definition = try SweepDefinition.load(
      at: "\(packageRoot)/Profiles/sweeps/light-user-memory.json")
    _ = try Sweep.run(definition, into: scratch.path, jobs: 2)
    let pages = [
      BatchHTMLReport.comparison(comparison, rankBy: .rankDefault),
      try String(contentsOfFile: scratch.path + "/sweep.html", encoding: .utf8),
    ]
    for page in pages {
      let geometry = try #require(try BrowserGeometry.measure(page, in: scratch.path))
      #expect(geometry.charts.count == svgCharts(in: page).count)
      #expect(geometry.outside.isEmpty, "\(geometry.outside.prefix(5))")
    }
  }

  /// A count whose 95 % interval reaches below zero (few seeds, much spread) keeps its axis at
  /// zero and above: no "−5" tick on a count.
  @Test func countsHaveNoNegativeTicks() {
    let csv = """
      policy,runs,cold_launches_mean,cold_launches_ci95,kills_per_hour_mean,kills_per_hour_ci95
      jetsam,3,2.0,7.5,0.5,3.1
      lmkd,3,4.0,1.0,1.5,0.2

      """
    let page = BatchHTMLReport.sweep(name: "spread", summaryCSV: csv)
    let charts = svgCharts(in: page)
    #expect(charts.count == 2)
    for chart in charts {
      #expect(chartGeometryProblems(chart).isEmpty, "\(chartGeometryProblems(chart))")
      #expect(yTicks(chart).first == "0")
    }
    // The check can fail: the same axis from the interval's low end has a tick below zero.
    var negative = SVGChart(
      width: 900, height: 240, label: "t", x: .bands(["a"]),
      y: ChartScale(from: -5.5, to: 9.5, unit: .count), leftMargin: 90)
    negative.axes(xLabel: "x", yLabel: "y")
    #expect(!chartGeometryProblems(negative.finish()).isEmpty)
  }

  /// The y axis's tick labels, bottom first.
  func yTicks(_ chart: String) -> [String] {
    svgElements("text", in: chart).filter {
      $0.attributes["class"] == "tick" && $0.attributes["text-anchor"] == "end"
    }.map(\.text)
  }

  /// A policy worse than the best by a share (a ratio metric) gets a bar below zero: the chart of
  /// differences is not clamped to 0…1 like a share.
  @Test func aNegativeDifferenceOfRatiosIsDrawn() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/evening-social.json")
    let comparison = try Comparison.run(
      scenario, policies: [.largestFirst, .jetsam], seeds: [1], jobs: 1)
    let standings = comparison.standings(by: .rankDefault)
    let difference = try #require(standings.last?.vsBest?.mean)
    #expect(difference < 0, "jetsam is worse than largest-first on this evening")
    let page = BatchHTMLReport.comparison(comparison, rankBy: .rankDefault)
    // One seed: no verdict, and both share the first rank.
    #expect(page.contains("<td>no verdict: one seed gives no interval"))
    #expect(!page.contains("<td>worse</td>") && page.contains("<td>1=</td>"))
    let chart = try #require(svgCharts(in: page).first { $0.contains("difference from") })
    let bars = svgElements("rect", in: chart)
    #expect(bars.count == 1)
    #expect((bars.first?.number("height") ?? 0) > 20, "\(bars.first?.attributes ?? [:])")
    expectBarsInside(chart)
  }

  /// The plot area of the batch pages' charts: 90 px margin on the left, 14 px above.
  func plot(_ chart: String) -> (left: Double, right: Double, top: Double, bottom: Double) {
    let height = chart.contains("viewBox=\"0 0 1010.0 296.0\"") ? 240.0 : 220.0
    return (90, 990, 14, 14 + height)
  }

  func expectBarsInside(_ chart: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let area = plot(chart)
    let bars = svgElements("rect", in: chart)
    #expect(!bars.isEmpty, sourceLocation: sourceLocation)
    for bar in bars {
      let (y, height) = (bar.number("y") ?? .nan, bar.number("height") ?? .nan)
      #expect(
        y >= area.top - 0.11 && y + height <= area.bottom + 0.11, "\(bar.attributes)",
        sourceLocation: sourceLocation)
      #expect(height >= 0, sourceLocation: sourceLocation)
    }
  }

  @Test func barsOfNegativeValuesHangFromZeroInsideThePlot() {
    var chart = SVGChart(
      width: 900, height: 220, label: "t", x: .bands(["a", "b", "c"]),
      y: ChartScale(from: -1102.9, to: 73.1, unit: .count), leftMargin: 90)
    chart.axes(xLabel: "policy", yLabel: "difference")
    chart.bars(
      means: [-1000, 50, nil], intervals: [102.9, 23.1, nil], titles: ["a", "b", "c"],
      colour: "#000")
    let svg = chart.finish()
    expectBarsInside(svg)
    // The negative bar starts at the zero line and goes down.
    let zero = svgElements("line", in: svg).first { $0.attributes["class"] == "zero" }
    let bar = svgElements("rect", in: svg)[0]
    #expect(bar.number("y") == zero?.number("y1"))
    // Each policy's label sits under its bar's centre.
    let labels = svgElements("text", in: svg).filter { ["a", "b", "c"].contains($0.text) }
    #expect(labels.count == 3)
    for (label, rect) in zip(labels, svgElements("rect", in: svg)) {
      let centre = (rect.number("x") ?? 0) + (rect.number("width") ?? 0) / 2
      #expect(abs((label.number("x") ?? 0) - centre) < 0.11)
    }
  }

  @Test func categoriesHaveTheirLabelsUnderTheirPointsAndNoJoiningLines() throws {
    var csv = "policy,memory_kb,runs,warm_resume_ratio_mean,warm_resume_ratio_ci95\n"
    for policy in ["largest-first", "jetsam", "lmkd"] {
      for (index, memory) in ["1048576", "2097152"].enumerated() {
        csv += "\(policy),\(memory),5,0.\(7 + index)5,0.0\(index + 2)\n"
      }
    }
    let page = BatchHTMLReport.sweep(name: "s", summaryCSV: csv)
    let chart = try #require(svgCharts(in: page).first)
    #expect(!chart.contains("<polyline"))
    let ticks = svgElements("text", in: chart).filter { $0.attributes["class"] == "tick" }
    let categories = ticks.filter { ["largest-first", "jetsam", "lmkd"].contains($0.text) }
    #expect(categories.map(\.text) == ["largest-first", "jetsam", "lmkd"])
    let markers =
      svgElements("circle", in: chart).compactMap { $0.number("cx") }
      + svgElements("path", in: chart).filter { $0.attributes["fill"] != nil }.compactMap {
        Double($0.attributes["d"]?.dropFirst().split(separator: " ").first ?? "")
      }
    #expect(markers.count == 6)
    // Every point is within 30 px of its category's label, and every label has its two points.
    for label in categories {
      let x = label.number("x") ?? 0
      #expect(markers.filter { abs($0 - x) < 30 }.count == 2, "\(label.text)")
    }
  }

  @Test func manySeriesEachHaveTheirOwnLook() {
    var csv = "memory_kb,policy,runs,kills_per_hour_mean,kills_per_hour_ci95\n"
    for series in 0..<10 {
      for memory in [1_048_576, 2_097_152] { csv += "\(memory),p\(series),3,\(series).5,0.1\n" }
    }
    let page = BatchHTMLReport.sweep(name: "s", summaryCSV: csv)
    let chart = svgCharts(in: page).first ?? ""
    let lines = svgElements("polyline", in: chart)
    #expect(lines.count == 10)
    let looks = Set(
      lines.map {
        "\($0.attributes["stroke"] ?? "")|\($0.attributes["stroke-dasharray"] ?? "solid")"
      })
    #expect(looks.count == 10)
    #expect(page.contains("<div class=\"legend\">") && page.contains(">p9</span>"))
  }
}
