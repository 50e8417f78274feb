import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

@Suite struct HTMLReportTests {
  func report(_ name: String) throws -> (html: String, result: RunResult) {
    let scenario = try ProfileLoader.scenario(at: "\(packageRoot)/Profiles/scenarios/\(name).json")
    let result = try Simulator.run(scenario)
    return (HTMLReport.render(result, device: scenario.device), result)
  }

  @Test(arguments: ["worked-example", "lifecycle-tour", "daily-commute", "evening-social"])
  func reportsAreWellFormedAndSelfContained(name: String) throws {
    let html = try report(name).html
    #expect(xmlError(html) == nil, "\(xmlError(html) ?? "")")
    #expect(externalReferences(html).isEmpty, "\(externalReferences(html))")
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("<title>jetsim: \(name)</title>"))
  }

  @Test func theTablesShowTheNumbersOfTheCSVs() throws {
    let (html, result) = try report("daily-commute")
    let csv = result.csv
    // Every kill of kills.csv is a row of the kills table, in order, with its seq, app and reason.
    let kills = try csvRows(csv.kills)
    let killsTable = try #require(html.components(separatedBy: "<h2>Kills</h2>").last)
    let rows = killsTable.components(separatedBy: "<tr>").dropFirst(2)
    #expect(rows.count == kills.count)
    for (row, kill) in zip(rows, kills) {
      let seq = try #require(kill["seq"])
      let app = try #require(kill["app"])
      let reason = try #require(kill["reason"])
      #expect(row.hasPrefix("<td class=\"n\">\(seq)</td>"))
      #expect(row.contains("<td>\(app)</td><td>\(reason)</td>"))
    }
    // Every summary metric appears with the value summary.csv has.
    let summary = try csvRows(csv.summary)[0]
    for metric in SummaryMetric.all {
      let value = try #require(summary[metric.name])
      let shown = value.isEmpty ? "n/a" : value
      #expect(
        html.contains(
          "<td>\(metric.name.replacing("_", with: " "))</td><td class=\"n\">\(shown)</td>"),
        "\(metric.name)")
    }
  }

  @Test func everyKillIsDrawnOnTheMemoryChart() throws {
    let (html, result) = try report("lifecycle-tour")
    // Kill markers carry their kills in their titles: every kill's app and time is in one of them.
    let markers = html.components(separatedBy: "<g class=\"kill\"><title>").dropFirst().map {
      $0.prefix { $0 != "<" }
    }
    for kill in result.kills {
      let needle = "\(Units.clock(kill.timeMs)) kill: \(result.summary.appIDs[kill.app])"
      #expect(
        markers.contains { $0.contains(needle) } || markers.contains { $0.contains("more") },
        "\(needle)")
    }
    #expect(!markers.isEmpty)
  }

  @Test func aLongRunStaysSmallAndStillDrawsEveryKill() throws {
    let apps = Fixture.stressApps
    let scenario = Scenario(name: "long", device: Fixture.device, apps: apps, actions: [])
    var workload = RandomWorkload(seed: 3, apps: apps, count: 200_000)
    var timeline = TimelineRecorder(appCount: apps.count)
    let summary = try Simulator.run(
      scenario, policy: LargestFirstPolicy(), workload: &workload, observer: &timeline)
    #expect(summary.metrics.events > 700_000)
    #expect(timeline.samples.count <= TimelineRecorder.maxBuckets)
    let html = HTMLReport.render(summary: summary, device: scenario.device, timeline: timeline)
    #expect(html.utf8.count < 5_000_000, "\(html.utf8.count) bytes")
    #expect(xmlError(html) == nil)
    // Kills are grouped by pixel column: one marker per column that has kills, every kill counted.
    var chart = SVGChart(
      width: 960, height: 300, label: "",
      x: .scale(HTMLReport.timeAxis(summary.metrics.durationMs)), y: nil)
    chart.axes(xLabel: "", yLabel: nil)
    let columns = chart.columns(of: timeline.kills) { Double($0.timeMs) }
    #expect(columns.reduce(0) { $0 + $1.items.count } == summary.metrics.totalKills)
    #expect(html.components(separatedBy: "<g class=\"kill\">").count - 1 == columns.count)
  }

  /// The rows of a CSV report as dictionaries by column.
  func csvRows(_ text: String) throws -> [[String: String]] {
    let records = try CSVReader.records(text)
    let header = try #require(records.first).fields
    return records.dropFirst().map { Dictionary(zip(header, $0.fields)) { first, _ in first } }
  }

  @Test func theChecksThemselvesCanFail() {
    #expect(xmlError("<html><body></html>") != nil)
    #expect(xmlError("<a><b></a></b>") != nil)
    #expect(xmlError("<a x=\"1></a>") != nil)
    #expect(xmlError("<a>&nbsp;</a>") != nil)
    #expect(xmlError("<a/><b/>") != nil)
    #expect(xmlError("<!DOCTYPE html><a x=\"1\">&amp;<b/></a>") == nil)
    #expect(externalReferences("<img src=\"http://example.com/x.png\"/>") == ["src=", "http:"])
  }
}
