import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

/// plan.html and what-if.html: well formed and self-contained, with the p5–p95 band, the median,
/// the target line and the answer where they belong.
@Suite struct CurveChartTests {
  @Test func planHTMLHasTheBandTheTargetAndTheAnswer() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/light-user-2gb.json")
    let target = try #require(CapacityTarget.parse("pressure-warm-resume-ratio>=0.95").target)
    let plan = try Planner.plan(
      scenario, target: target, seeds: Array(1...20), minKB: mb(1024), maxKB: mb(4096),
      precisionKB: mb(128), jobs: 2)
    let page = PlanReport.html(plan, scenario: scenario)
    #expect(xmlError(page) == nil && externalReferences(page).isEmpty)
    let chart = try #require(svgCharts(in: page).first)
    let band = try #require(
      svgElements("polygon", in: chart).first { $0.attributes["class"] == "band" })
    let corners = (band.attributes["points"] ?? "").split(separator: " ")
    #expect(corners.count == 2 * plan.probes.count, "p95 across, p5 back")
    let median = try #require(
      svgElements("polyline", in: chart).first { $0.attributes["class"] == "median" })
    #expect((median.attributes["points"] ?? "").split(separator: " ").count == plan.probes.count)
    let lines = svgElements("line", in: chart)
    let targetLine = try #require(lines.first { $0.attributes["class"] == "target" })
    #expect(targetLine.number("y1") == targetLine.number("y2"))
    let y = try #require(targetLine.number("y1"))
    #expect(y > 14 && y < 14 + 260, "inside the plot area")
    let answer = try #require(lines.first { $0.attributes["class"] == "answer" })
    #expect(answer.number("x1") == answer.number("x2"))
    // The answer's line stands at its memory among the band's corners (x grows with memory).
    let xs = corners.prefix(plan.probes.count).compactMap { Double($0.split(separator: ",")[0]) }
    let index = try #require(plan.probes.firstIndex { $0.memoryKB == plan.answerKB })
    #expect(abs((answer.number("x1") ?? 0) - xs[index]) < 0.11)
  }

  @Test func quantilesAreByNearestRank() {
    let values: [Double?] = (1...20).map { Double($0) } + [nil]
    #expect(CurveChart.quantile(values, 0.05) == 1)
    #expect(CurveChart.quantile(values, 0.5) == 10)
    #expect(CurveChart.quantile(values, 0.95) == 19)
    #expect(CurveChart.quantile([nil], 0.5) == nil)
  }

  @Test func whatIfHTMLHasABandAgainstTheAppsSize() throws {
    let day = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/photofeed-day.json")
    let points = try WhatIf.run(
      day, app: "com.example.photofeed", residentsKB: [mb(300), mb(150)], devices: [],
      seeds: Array(1...4), jobs: 2)
    let page = WhatIfReport.html(points, app: "com.example.photofeed", scenario: day.name, seeds: 4)
    #expect(xmlError(page) == nil && externalReferences(page).isEmpty)
    let curve = try #require(svgCharts(in: page).first { $0.contains("class=\"band\"") })
    let band = try #require(svgElements("polygon", in: curve).first)
    #expect(
      (band.attributes["points"] ?? "").split(separator: " ").count == 6, "two sizes and today")
    #expect(svgElements("line", in: curve).contains { $0.attributes["class"] == "answer" })
  }
}
