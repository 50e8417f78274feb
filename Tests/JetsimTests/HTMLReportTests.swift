import Foundation
import Testing

@testable import Jetsim

/// Why `text` is not well-formed XML, or nil: every tag closed in order, attributes quoted, only
/// XML's own entities, one root element. (Foundation's XMLParser on Linux recovers from some errors,
/// so it cannot be the judge.)
func xmlError(_ text: String) -> String? {
  var stack: [Substring] = []
  var index = text.startIndex
  var roots = 0
  while index < text.endIndex {
    let character = text[index]
    if character == "&" {
      guard let end = text[index...].firstIndex(of: ";") else { return "an unterminated entity" }
      let name = text[text.index(after: index)..<end]
      let valid =
        ["amp", "lt", "gt", "quot", "apos"].contains(name)
        || (name.hasPrefix("#") && name.dropFirst().allSatisfy(\.isNumber) && name.count > 1)
      guard valid else { return "an unknown entity &\(name);" }
      index = text.index(after: end)
      continue
    }
    guard character == "<" else {
      index = text.index(after: index)
      continue
    }
    guard let close = text[index...].firstIndex(of: ">") else { return "an unterminated tag" }
    let tag = text[text.index(after: index)..<close]
    index = text.index(after: close)
    if tag.hasPrefix("!") || tag.hasPrefix("?") { continue }
    if tag.hasPrefix("/") {
      guard let open = stack.popLast(), open == tag.dropFirst() else {
        return "</\(tag.dropFirst())> closes the wrong element"
      }
      continue
    }
    let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
    guard !name.isEmpty else { return "an empty tag" }
    guard tag.filter({ $0 == "\"" }).count % 2 == 0 else { return "unbalanced quotes in <\(name)>" }
    if stack.isEmpty { roots += 1 }
    if !tag.hasSuffix("/") { stack.append(name) }
  }
  if let open = stack.last { return "<\(open)> is never closed" }
  return roots == 1 ? nil : "\(roots) root elements"
}

/// Whether the page could reach outside itself: scripts, links, sources, imports or URLs. The SVG and
/// XHTML namespace names are identifiers, never fetched.
func externalReferences(_ text: String) -> [String] {
  let stripped = text.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    .replacingOccurrences(of: "xmlns=\"http://www.w3.org/1999/xhtml\"", with: "")
  return [
    "<script", "src=", "href=", "url(", "@import", "<link", "http:", "https:", "<iframe", "<object",
  ].filter {
    stripped.lowercased().contains($0)
  }
}

@Suite struct HTMLReportTests {
  func report(_ name: String) throws -> (html: String, result: RunResult) {
    let scenario = try ProfileLoader.scenario(at: "\(packageRoot)/Profiles/scenarios/\(name).json")
    let result = try Simulator.run(scenario)
    return (HTMLReport.render(result, device: scenario.device), result)
  }

  @Test(arguments: GoldenReportTests.scenarios)
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
    let kills = try #require(GoldenCheck.rows(csv.kills)).rows
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
    let summary = try #require(GoldenCheck.rows(csv.summary)).rows[0]
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
    let apps = InvariantTests.apps
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
      width: 960, height: 300, label: "", xMax: Double(summary.metrics.durationMs), yMax: 1)
    chart.axes(xLabel: "", yLabel: nil, xFormat: { _ in "" }, yFormat: nil)
    let columns = chart.columns(of: timeline.kills) { Double($0.timeMs) }
    #expect(columns.reduce(0) { $0 + $1.items.count } == summary.metrics.totalKills)
    #expect(html.components(separatedBy: "<g class=\"kill\">").count - 1 == columns.count)
  }

  @Test func comparisonAndSweepPagesAreWellFormedAndSelfContained() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/evening-social.json")
    let comparison = try Comparison.run(
      scenario, policies: ["largest-first", "lmkd"], seeds: [1, 2, 3], jobs: 2)
    let compare = BatchHTMLReport.comparison(comparison)
    #expect(xmlError(compare) == nil && externalReferences(compare).isEmpty)
    #expect(compare.contains(">largest-first</text>") && compare.contains(">lmkd</text>"))
    let scratch = try Scratch()
    let definition = try SweepDefinition.load(
      at: "\(packageRoot)/Profiles/sweeps/light-user-memory.json")
    _ = try Sweep.run(definition, into: scratch.path, jobs: 2)
    let sweep = try String(contentsOfFile: scratch.path + "/sweep.html", encoding: .utf8)
    #expect(xmlError(sweep) == nil && externalReferences(sweep).isEmpty)
    #expect(sweep.contains("warm resume ratio (higher is better)"))
    #expect(sweep.contains("memory_kb (MB)"))
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
