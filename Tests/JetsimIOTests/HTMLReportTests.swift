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
    // Every summary metric appears with the value summary.csv has, sizes in MB and times on a
    // clock, and its meaning beside it.
    let summary = try csvRows(csv.summary)[0]
    for metric in SummaryMetric.all {
      let value = try #require(summary[metric.name])
      let shown =
        value.isEmpty
        ? "n/a"
        : metric.isSize
          ? Units.megabytes(Int(value) ?? -1)
          : metric.isTime ? Units.clock(Int(value) ?? -1) : value
      #expect(
        html.contains(
          "<td>\(metric.title)</td><td class=\"n\">\(shown)</td><td>\(HTMLDocument.escape(metric.meaning)) (\(metric.name))</td>"
        ),
        "\(metric.name)")
    }
    #expect(html.contains("<td>peak used</td><td class=\"n\">"))
    // Every table scrolls inside the page rather than widening it.
    #expect(
      html.components(separatedBy: "<table>").count
        == html.components(separatedBy: "<div class=\"scroll\"><table>").count)
    #expect(!html.contains("peak used kb"), "sizes are shown in MB, not as KB counts")
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

  /// A run of over a million events (rows of events.csv), recorded once for the tests that read
  /// its report.
  static let longRun = Result {
    let apps = Fixture.stressApps
    let scenario = Scenario(name: "long", device: Fixture.device, apps: apps, actions: [])
    var workload = RandomWorkload(seed: 3, apps: apps, count: 300_000)
    var timeline = TimelineRecorder(appCount: apps.count, device: scenario.device)
    let summary = try Simulator.run(
      scenario, policy: LargestFirstPolicy(), workload: &workload, observer: &timeline)
    return (summary, timeline, scenario.device)
  }

  @Test func aLongRunStaysSmallAndStillDrawsEveryKill() throws {
    let (summary, timeline, device) = try Self.longRun.get()
    #expect(summary.metrics.events > 1_000_000)
    #expect(timeline.samples.count <= TimelineRecorder.maxBuckets)
    let html = HTMLReport.render(summary: summary, device: device, timeline: timeline)
    #expect(html.utf8.count < 5_000_000, "\(html.utf8.count) bytes")
    #expect(xmlError(html) == nil)
    // Kills are grouped by pixel column: one marker per column that has kills, every kill counted
    // in its tooltip (five named, "and N more"), though most are kept only as counts by bucket.
    #expect(summary.metrics.totalKills > TimelineRecorder.exactKills, "the bucketed mode")
    let titles = html.components(separatedBy: "<g class=\"kill\"><title>").dropFirst().map {
      String($0.prefix { $0 != "<" })
    }
    let counted = titles.reduce(0) { sum, title in
      let named = title.components(separatedBy: " kill: ").count - 1
      let more =
        title.range(of: #"and (\d+) more"#, options: .regularExpression).map {
          Int(title[$0].split(separator: " ")[1]) ?? 0
        } ?? 0
      return sum + named + more
    }
    #expect(counted == summary.metrics.totalKills)
    // Markers at least their width apart, and dense kills spread so that they cover at most a
    // third of the chart.
    #expect(Double(titles.count) <= HTMLReport.timelineWidth / (3 * HTMLReport.killSpacing) + 1)
    #expect(timeline.killRows.count == HTMLReport.maxKillRows)
  }

  /// The charts of a million-event run line up and stay readable (`expectOneReadableTimeline`),
  /// and a run longer than a day reads its ticks as days and hours.
  @Test func theChartsOfAMillionEventRunLineUpAndStayReadable() throws {
    let (summary, timeline, device) = try Self.longRun.get()
    #expect(summary.metrics.durationMs > 86_400_000, "a run longer than a day")
    let html = HTMLReport.render(summary: summary, device: device, timeline: timeline)
    let memory = try #require(xAxis(of: svgCharts(in: html)[0]))
    #expect(memory.ticks.contains { $0.1.contains(" d ") }, "\(memory.ticks)")
    try expectOneReadableTimeline(html)
  }

  /// Laid out by a real browser engine (headless Chromium, when the machine has one), the memory
  /// chart's x axis and the lanes' start and end at the same CSS pixel, and no mark or label of
  /// either pokes out of its chart, on a short run and on the million-event one.
  @Test(.enabled(if: BrowserGeometry.browser != nil, "needs a headless Chromium on the PATH"))
  func aBrowserDrawsTheMemoryChartAndTheLanesOnOneAxis() throws {
    let (summary, timeline, device) = try Self.longRun.get()
    let scratch = try ScratchFolder()
    try expectOneAxisInABrowser(try report("daily-commute").html, scratch: scratch.path)
    try expectOneAxisInABrowser(
      HTMLReport.render(summary: summary, device: device, timeline: timeline),
      scratch: scratch.path)
  }

  /// The same checks on a report.html given by path in `JETSIM_CHECK_REPORT` (for one written by
  /// a release build from a trace too long to run here, such as bench/'s million-line workload).
  @Test(.enabled(if: ProcessInfo.processInfo.environment["JETSIM_CHECK_REPORT"] != nil))
  func aReportGivenByPathPassesTheSameChecks() throws {
    let path = try #require(ProcessInfo.processInfo.environment["JETSIM_CHECK_REPORT"])
    let html = try String(contentsOfFile: path, encoding: .utf8)
    #expect(xmlError(html) == nil)
    try expectOneReadableTimeline(html)
    if BrowserGeometry.browser != nil {
      let scratch = try ScratchFolder()
      try expectOneAxisInABrowser(html, scratch: scratch.path)
    }
  }

  /// report.html's two timeline charts: nothing outside its view box, one x axis (the same view
  /// box width, axis line and ticks at the same places), ticks that never read past 23 hours, and
  /// readable lanes (`expectReadableLanes`).
  func expectOneReadableTimeline(
    _ html: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let charts = svgCharts(in: html)
    try #require(charts.count == 2, sourceLocation: sourceLocation)
    for chart in charts {
      let problems = chartGeometryProblems(chart)
      #expect(problems.isEmpty, "\(problems.prefix(3))", sourceLocation: sourceLocation)
    }
    let memory = try #require(xAxis(of: charts[0]), sourceLocation: sourceLocation)
    let lanes = try #require(xAxis(of: charts[1]), sourceLocation: sourceLocation)
    #expect(
      memory.from == lanes.from && memory.to == lanes.to, sourceLocation: sourceLocation)
    #expect(
      memory.ticks.map(\.0) == lanes.ticks.map(\.0)
        && memory.ticks.map(\.1) == lanes.ticks.map(\.1),
      "\(memory.ticks) \(lanes.ticks)", sourceLocation: sourceLocation)
    let widths = charts.compactMap {
      svgElements("svg", in: $0).first?.attributes["viewBox"]?.split(separator: " ")[2]
    }
    #expect(
      widths.count == 2 && widths[0] == widths[1], "\(widths)", sourceLocation: sourceLocation)
    for (_, label) in memory.ticks {
      let hour = Int(label.split(separator: " ").last?.split(separator: ":").first ?? "") ?? 0
      #expect(hour < 24, "\(label)", sourceLocation: sourceLocation)
    }
    expectReadableLanes(
      charts[1], plotWidth: HTMLReport.timelineWidth, sourceLocation: sourceLocation)
  }

  /// `html` laid out in the browser: the memory chart's and the lanes' axis lines start and end
  /// at the same CSS pixel, and nothing pokes out of its chart.
  func expectOneAxisInABrowser(
    _ html: String, scratch: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let geometry = try #require(
      try BrowserGeometry.measure(html, in: scratch), sourceLocation: sourceLocation)
    try #require(geometry.charts.count == 2, sourceLocation: sourceLocation)
    let memory = try #require(geometry.charts[0].axis, sourceLocation: sourceLocation)
    let lanes = try #require(geometry.charts[1].axis, sourceLocation: sourceLocation)
    #expect(
      abs(memory.left - lanes.left) < 0.5 && abs(memory.right - lanes.right) < 0.5,
      "\(memory) \(lanes)", sourceLocation: sourceLocation)
    #expect(
      geometry.outside.isEmpty, "\(geometry.outside.prefix(5))", sourceLocation: sourceLocation)
  }

  /// Each lane of `svg` has at most one bar a pixel column, bars that do not overlap, and marks of
  /// one kind at least their width (8 px) apart.
  func expectReadableLanes(
    _ svg: String, plotWidth: Double, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let bars = Dictionary(grouping: svgElements("rect", in: svg)) { $0.number("y") ?? .nan }
    #expect(!bars.isEmpty, sourceLocation: sourceLocation)
    for (row, lane) in bars {
      #expect(
        Double(lane.count) <= plotWidth + 1, "lane at y \(row): \(lane.count) bars",
        sourceLocation: sourceLocation)
      let spans = lane.map { ($0.number("x") ?? .nan, $0.number("width") ?? .nan) }.sorted {
        $0.0 < $1.0
      }
      for (bar, next) in zip(spans, spans.dropFirst()) where bar.0 + bar.1 > next.0 + 0.15 {
        Issue.record(
          "lane at y \(row): bars overlap at x \(next.0)", sourceLocation: sourceLocation)
      }
    }
    // Marks: a cold launch is a path "l4 7h-8z", a warm resume a circle, a kill a cross path.
    var positions: [String: [Double]] = [:]
    for mark in svgElements("path", in: svg) + svgElements("circle", in: svg) {
      let d = mark.attributes["d"] ?? ""
      let kind = mark.name == "circle" ? "resume" : d.hasSuffix("h-8z") ? "launch" : "kill"
      let x = mark.number("cx") ?? mark.pathStart?.x ?? .nan
      let y = mark.number("cy") ?? mark.pathStart?.y ?? .nan
      let row = Int((y - 14) / 18)
      positions["\(kind) lane \(row)", default: []].append(x)
    }
    for (lane, xs) in positions {
      let sorted = xs.sorted()
      let closest = zip(sorted, sorted.dropFirst()).map { $1 - $0 }.min() ?? .infinity
      #expect(closest >= 8, "\(lane): marks \(closest) px apart", sourceLocation: sourceLocation)
      // However busy the lane, one kind's marks (8 px each) cover at most a third of it.
      #expect(
        Double(xs.count) * 8 <= plotWidth / 3 + 8, "\(lane): \(xs.count) marks",
        sourceLocation: sourceLocation)
    }
  }

  /// The thin peak line holds a column's peak for that column only; across a quiet stretch it
  /// follows the memory in use (the top of the stacked areas), never an old peak.
  @Test func thePeakLineDoesNotHoldAnOldPeakAcrossAQuietStretch() {
    typealias Sample = TimelineRecorder.Sample
    let samples = [
      Sample(
        timeMs: 0, foregroundKB: 1000, backgroundKB: 200, suspendedKB: 300, systemKB: 100,
        fileBackedKB: 0, peakAppsKB: 1800),
      Sample(
        timeMs: 200_000, foregroundKB: 500, backgroundKB: 0, suspendedKB: 300, systemKB: 100,
        fileBackedKB: 0, peakAppsKB: 900),
      Sample(
        timeMs: 200_500, foregroundKB: 400, backgroundKB: 0, suspendedKB: 300, systemKB: 100,
        fileBackedKB: 0, peakAppsKB: 950),
    ]
    let line = HTMLReport.peakSteps(samples, reservedKB: 50, columnMs: 1000, endMs: 300_000)
    // 1850 for one column, then 1650 (what was in use) until the next events; the second and
    // third samples share a column, so the third's peak follows at once; then what was in use.
    #expect(line.times == [0, 1000, 200_000, 200_500, 201_500])
    #expect(line.values == [1850, 1650, 950, 1000, 850])
  }

  /// The memory chart's legend names every line it draws, and its y-axis title has room beside
  /// the widest tick label.
  @Test func theMemoryChartExplainsItsPeakLineAndKeepsItsAxisTitleClear() throws {
    let html = try report("daily-commute").html
    #expect(html.contains("peak used within a pixel column</span>"))
    #expect(html.contains("stroke=\"\(HTMLReport.peakColour)\""))
    let scale = ChartScale(from: 0, to: 2_037_760, unit: .kilobytes)
    let chart = SVGChart(width: 960, height: 300, label: "", x: .bands(["a"]), y: scale)
    let widest = scale.ticks.map { scale.label($0).count }.max() ?? 0
    #expect(widest >= 7, "labels such as 2000 MB")
    #expect(chart.left - 8 - 7 * Double(widest) >= 22, "tick labels end clear of the title")
  }

  /// The memory chart stacks what the simulation counts: after every row, reserved memory, system
  /// processes and apps by state add up to the device's memory less the row's free memory, on a
  /// device that compresses suspended memory, one with app swap, and a real device's snapshot.
  @Test(arguments: ["compression", "swap", "iphone-11-real-start"])
  func theStackedMemoryIsTheMemoryInUse(device kind: String) throws {
    var scenario: Scenario
    if kind == "iphone-11-real-start" {
      scenario = try ProfileLoader.scenario(
        at: "\(packageRoot)/Profiles/scenarios/iphone-11-real-start.json")
      scenario.policy = .jetsam
    } else {
      var device = Fixture.device
      if kind == "compression" { device.compressionPermille = 2500 }
      if kind == "swap" { device.appSwap = DeviceProfile.AppSwap(budgetKB: mb(300)) }
      scenario = Scenario(name: kind, device: device, apps: Fixture.stressApps, actions: [])
      scenario.durationMs = nil
    }
    var log = EventLog()
    let events: [EventRecord]
    if kind == "iphone-11-real-start" {
      _ = try Simulator.run(scenario, observer: &log)
    } else {
      var workload = RandomWorkload(seed: 5, apps: scenario.apps, count: 3_000)
      _ = try Simulator.run(
        scenario, policy: LargestFirstPolicy(), workload: &workload, observer: &log)
    }
    events = log.events
    var timeline = TimelineRecorder(
      appCount: scenario.apps.count, systemCount: scenario.device.systemProcesses.count,
      device: scenario.device)
    var mismatches = 0
    for event in events {
      timeline.record(event)
      guard let sample = timeline.samples.last else { continue }
      let stacked =
        scenario.device.reservedKB + sample.systemKB + sample.suspendedKB + sample.backgroundKB
        + sample.foregroundKB
      // The processes' layers reach the memory less the available memory; the page cache's
      // layer on top of them, the memory less the free memory.
      if stacked != scenario.device.memoryKB - event.availableKB { mismatches += 1 }
      if stacked + sample.fileBackedKB != scenario.device.memoryKB - event.freeKB {
        mismatches += 1
      }
    }
    #expect(events.count > 100)
    #expect(mismatches == 0, "\(mismatches) of \(events.count) rows")
  }

  /// A run that covers no time says so instead of stretching one instant across a chart; lane
  /// names too long for the margin keep their end and show in full on hover.
  @Test func aRunOfNoLengthDrawsNoTimeline() throws {
    let apps = [Fixture.app("notes", resident: 50), Fixture.app("maps", resident: 80)]
    let scenario = Scenario(
      name: "instant", device: Fixture.device, apps: apps,
      actions: [TimedAction(0, .open("notes")), TimedAction(0, .open("maps"))], durationMs: 0)
    let result = try Simulator.run(scenario)
    #expect(result.summary.metrics.durationMs == 0)
    let html = HTMLReport.render(result, device: scenario.device)
    #expect(html.contains("The run covers no simulated time"))
    #expect(!html.contains("<svg"))
    #expect(xmlError(html) == nil)
    var chart = SVGChart(
      width: 960, height: 18, label: "", x: .scale(HTMLReport.timeAxis(1000)), y: nil,
      leftMargin: 190)
    chart.laneLabel(row: 0, text: "com.apple.WebKit.WebContent#1299")
    chart.laneLabel(row: 1, text: "FindMy")
    let svg = chart.finish()
    #expect(
      svg.contains("<title>com.apple.WebKit.WebContent#1299</title>…e.WebKit.WebContent#1299<"))
    #expect(svg.contains(">FindMy</text>"))
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

/// `TimeBuckets` groups by pixel column exactly as `SVGChart.columns` does while every item is kept,
/// and keeps every count once items go into buckets.
@Suite struct TimeBucketsTests {
  @Test(arguments: [1, 7, 1000])
  func itGroupsAsTheChartDoesAndCountsEveryItem(seed: UInt64) {
    var random = RandomStream(seed: seed, stream: 0)
    var time = 0
    var times: [Int] = []
    for _ in 0..<3000 {
      time += random.below(500)
      times.append(time)
    }
    let chart = SVGChart(
      width: 960, height: 10, label: "", x: .scale(HTMLReport.timeAxis(time)), y: nil)
    var exact = TimeBuckets<Int>(keep: 5, exactLimit: 10_000)
    var bucketed = TimeBuckets<Int>(keep: 5, exactLimit: 100)
    for (index, time) in times.enumerated() {
      exact.append(index, at: time, bucketMs: 1000)
      bucketed.append(index, at: time, bucketMs: index < 1500 ? 1000 : 2000)
    }
    let expected = chart.columns(of: Array(times.enumerated()), width: 3) { Double($0.element) }
    let groups = exact.columns(on: chart, width: 3)
    #expect(groups.map(\.x) == expected.map(\.x))
    #expect(groups.map(\.group.count) == expected.map(\.items.count))
    #expect(groups.map(\.group.items) == expected.map { $0.items.prefix(5).map(\.offset) })
    let coarse = bucketed.columns(on: chart, width: 3)
    #expect(coarse.reduce(0) { $0 + $1.group.count } == times.count)
    #expect(coarse.allSatisfy { $0.group.items.count == min(5, $0.group.count) })
    #expect(coarse.count <= 321, "at most one group a column of three pixels, both ends included")
    #expect(coarse.first?.group.items.first == 0, "in time order")
  }

  /// Past `maxBuckets`, buckets merge two by two: memory stays bounded on a run however long,
  /// every item is still counted, and each group is placed at the time of an item it holds.
  @Test(arguments: [1, 7, 1000])
  func aCapOnBucketsKeepsEveryCountAndRealTimes(seed: UInt64) {
    var random = RandomStream(seed: seed, stream: 0)
    var capped = TimeBuckets<Int>(keep: 2, exactLimit: 100, maxBuckets: 64)
    var uncapped = TimeBuckets<Int>(keep: 2, exactLimit: 100)
    var time = 0
    var times: Set<Int> = []
    for index in 0..<20_000 {
      time += random.below(500)
      times.insert(time)
      capped.append(index, at: time, bucketMs: 1000)
      uncapped.append(index, at: time, bucketMs: 1000)
    }
    let chart = SVGChart(
      width: 960, height: 10, label: "", x: .scale(HTMLReport.timeAxis(time)), y: nil)
    let groups = capped.columns(on: chart, width: 0)
    #expect(groups.count <= 64)
    #expect(uncapped.columns(on: chart, width: 0).count > 64, "the cap is what bounds them")
    #expect(groups.reduce(0) { $0 + $1.group.count } == 20_000)
    #expect(groups.allSatisfy { times.contains($0.group.timeMs) })
    #expect(groups.map(\.group.timeMs) == groups.map(\.group.timeMs).sorted())
    // Each group's items are the first two appended into it (items are their own indices), moved
    // along with their bucket at every merge, never another bucket's.
    var first = 0
    for (_, group) in groups {
      #expect(group.items == Array(first..<(first + min(2, group.count))))
      first += group.count
    }
  }

  /// The cap holds where one doubling merges nothing (items ever farther apart) and where the
  /// caller's own bucket width grows during the run.
  @Test func aCapHoldsForSparseItemsAndAGrowingWidth() {
    var capped = TimeBuckets<Int>(keep: 1, exactLimit: 10, maxBuckets: 8)
    var time = 0
    var times: Set<Int> = []
    for index in 0..<400 {
      time += 1000 * (index + 1)
      times.insert(time)
      capped.append(index, at: time, bucketMs: index < 200 ? 1000 : 4000)
    }
    let chart = SVGChart(
      width: 960, height: 10, label: "", x: .scale(HTMLReport.timeAxis(time)), y: nil)
    let groups = capped.columns(on: chart, width: 0)
    #expect(groups.count <= 8)
    #expect(groups.reduce(0) { $0 + $1.group.count } == 400)
    #expect(groups.allSatisfy { times.contains($0.group.timeMs) })
    #expect(groups.first?.group.items == [0])
  }
}
