import JetsimCore

/// The self-contained HTML report of a run (`report.html`): inline SVG and CSS, no scripts and no
/// external references, well-formed XML (XHTML syntax), colours from the Okabe–Ito palette, which
/// colour-blind readers can tell apart. Tooltips are SVG titles, which every browser shows on hover.
public enum HTMLReport {
  /// Okabe–Ito colours by state, and for thresholds and kills.
  static let colours: [AppState: String] = [
    .active: "#0072B2", .inactive: "#56B4E9", .background: "#E69F00", .suspended: "#009E73",
  ]
  static let reservedColour = "#BBBBBB"
  static let systemColour = "#777777"
  static let fileCacheColour = "#DDEEFF"
  static let warningColour = "#CC79A7"
  static let criticalColour = "#D55E00"
  static let peakColour = "#444444"

  /// At most this many lanes (the busiest apps) and kill rows are drawn; the report says so.
  static let maxLanes = 60
  static let maxKillRows = 2000
  /// The memory chart and the lanes below it share their plot's left edge and width (room for the
  /// lanes' app ids beside them), so one time falls at one place on both.
  static let timelineLeft = 190.0
  static let timelineWidth = 960.0
  /// Marks on a lane stand at least this far apart (a mark is 8 pixels wide), and kill markers on
  /// the memory chart `killSpacing` (a marker is 10 wide): those closer share one mark and its
  /// tooltip. Where that still leaves more than a third of the chart covered, they stand three
  /// times as far apart (`sparse`), so marks never pile up into a black band over the states and
  /// the memory they mark.
  static let markSpacing = 9.0
  static let killSpacing = 11.0

  /// The groups of `items` to draw on `chart` at least `spacing` pixels apart, or three times as
  /// far when there would be more than a third of the chart's width over `spacing` of them.
  static func sparse<Item>(_ items: TimeBuckets<Item>, on chart: SVGChart, spacing: Double)
    -> [(x: Double, group: TimeBuckets<Item>.Group)]
  {
    let groups = items.columns(on: chart, width: spacing)
    guard Double(groups.count) > chart.width / (3 * spacing) else { return groups }
    return items.columns(on: chart, width: 3 * spacing)
  }

  /// The report of a run: its summary, the device, the app ids and what `timeline` recorded.
  package static func render(summary: RunSummary, device: DeviceProfile, timeline: TimelineRecorder)
    -> String
  {
    var whole = MarkupBytes()
    for part in renderParts(summary: summary, device: device, timeline: timeline) {
      whole.append(part)
    }
    return whole.text
  }

  /// `render(summary:device:timeline:)` as UTF-8 bytes in pieces, one after the other, as
  /// `ReportWriter` writes them (the charts are not copied into one buffer).
  package static func renderParts(
    summary: RunSummary, device: DeviceProfile, timeline: TimelineRecorder
  ) -> [MarkupBytes] {
    let metrics = summary.metrics
    let duration = max(1, metrics.durationMs)
    var html = HTMLDocument(title: "jetsim: \(summary.scenario)")
    html.heading("\(summary.scenario)")
    html.paragraph(
      "\(summary.device) (\(Units.megabytes(device.memoryKB)) memory, \(Units.megabytes(device.reservedKB)) reserved), policy \(summary.policy), seed \(summary.seed), \(Units.clock(metrics.durationMs)) simulated."
    )
    if metrics.durationMs == 0 {
      // Nothing happens over time: a chart would stretch one instant across its whole width.
      html.paragraph(
        "The run covers no simulated time: everything happened at 0:00, so there is no timeline to draw. The tables below and the CSV reports have every event and kill."
      )
    } else {
      // The memory chart and the two halves of the lanes, drawn on every core, in that order.
      let charts = ParallelMap.map(count: 3, jobs: 3) { job in
        job == 0
          ? memoryChart(summary: summary, device: device, timeline: timeline, durationMs: duration)
          : laneChart(summary: summary, timeline: timeline, durationMs: duration, half: job - 1)
      }
      html.section("Memory over time")
      html.raw(charts[0])
      html.section("Apps over time")
      html.raw(charts[1], charts[2])
    }
    html.section("Summary")
    html.table(
      header: ["metric", "value", "what it is (summary.csv column)"],
      rows: SummaryMetric.all.map {
        [$0.title, $0.display($0.value(metrics)), "\($0.meaning) (\($0.name))"]
      },
      numericColumns: [1])
    killTable(timeline, appIDs: summary.appIDs, into: &html)
    return html.finishedParts()
  }

  /// The Kills section: its first `maxKillRows` kills.
  static func killTable(
    _ timeline: TimelineRecorder, appIDs: [String], into html: inout HTMLDocument
  ) {
    html.section("Kills")
    let shown = timeline.killRows
    if timeline.killMarks.count == 0 {
      html.paragraph("No app was killed.")
    } else {
      if timeline.killMarks.count > maxKillRows {
        html.paragraph(
          "The first \(maxKillRows) of \(timeline.killMarks.count) kills; kills.csv has them all.")
      }
      html.table(
        header: [
          "seq", "time", "app", "reason", "rank", "state", "footprint MB", "available before MB",
          "available after MB", "callback",
        ],
        rows: shown.map { kill in
          [
            "\(kill.seq)", Units.clock(kill.timeMs), appIDs[kill.app], "\(kill.reason)",
            "\(kill.rank)", "\(kill.state)",
            mb(kill.footprintKB), mb(kill.availableBeforeKB), mb(kill.availableAfterKB),
            kill.callback?.description ?? "none",
          ]
        },
        numericColumns: [0, 4, 6, 7, 8])
    }
  }

  /// The report of a run kept in memory: the same bytes `ReportWriter` writes for it.
  public static func render(_ result: RunResult, device: DeviceProfile) -> String {
    var timeline = TimelineRecorder(
      appCount: result.summary.appCount,
      systemCount: result.summary.appIDs.count - result.summary.appCount, device: device)
    var kills = result.kills.makeIterator()
    var nextKill = kills.next()
    for event in result.events {
      timeline.record(event)
      while let kill = nextKill, kill.seq == event.seq {
        timeline.record(kill)
        nextKill = kills.next()
      }
    }
    return render(summary: result.summary, device: device, timeline: timeline)
  }

  static func mb(_ kilobytes: Int) -> String { Units.decimal(Double(kilobytes) / 1024, digits: 1) }

  // MARK: - Memory chart

  static func memoryChart(
    summary: RunSummary, device: DeviceProfile, timeline: TimelineRecorder, durationMs: Int
  ) -> MarkupBytes {
    let peak = timeline.samples.map { device.reservedKB + $0.peakAppsKB }.max() ?? 0
    let time = timeAxis(durationMs)
    var chart = SVGChart(
      width: timelineWidth, height: 300,
      label:
        "Memory over time: reserved, system processes, apps by state and the page cache, under device memory",
      x: .scale(time),
      y: ChartScale(from: 0, to: Double(max(device.memoryKB, peak)), unit: .kilobytes),
      leftMargin: timelineLeft)
    chart.axes(xLabel: timeTitle(time), yLabel: "memory")
    let samples = pixelSamples(timeline, in: chart)
    var below: [Double] = samples.map { _ in 0 }
    for (name, colour, level) in memoryLayers(device) {
      let above = samples.map { Double(level($0)) }
      chart.stepArea(
        times: samples.map { Double($0.timeMs) }, lower: below, upper: above,
        end: Double(durationMs), fill: colour, title: name)
      below = above
    }
    let peakLine = peakSteps(
      samples, reservedKB: device.reservedKB, columnMs: Double(durationMs) / chart.width,
      endMs: Double(durationMs))
    chart.stepLine(
      times: peakLine.times, values: peakLine.values, end: Double(durationMs), stroke: peakColour,
      dash: nil, title: "peak used within each pixel column; used memory between events")
    drawLevels(of: device, on: &chart)
    drawKills(timeline.killMarks, appIDs: summary.appIDs, on: &chart)
    var markup = chart.finishedMarkup()
    markup.append(HTMLDocument.legend(memoryLegend))
    return markup
  }

  /// The thin peak line: in each pixel column with events, the most memory used within it, for
  /// that column only; from the column's end to the next events, the memory used after the
  /// column's last event (the top of the stacked areas), so no old peak is held across a quiet
  /// stretch.
  static func peakSteps(
    _ samples: [TimelineRecorder.Sample], reservedKB: Int, columnMs: Double, endMs: Double
  ) -> (times: [Double], values: [Double]) {
    var times: [Double] = []
    var values: [Double] = []
    for (index, sample) in samples.enumerated() {
      let start = Double(sample.timeMs)
      let next = index + 1 < samples.count ? Double(samples[index + 1].timeMs) : endMs
      let peak = Double(reservedKB + sample.peakAppsKB)
      let used = Double(
        reservedKB + sample.systemKB + sample.suspendedKB + sample.backgroundKB
          + sample.foregroundKB)
      times.append(start)
      values.append(peak)
      if peak != used, start + columnMs < next {
        times.append(start + columnMs)
        values.append(used)
      }
    }
    return (times, values)
  }

  /// The stacked areas, bottom first: reserved, system processes, suspended apps, background
  /// apps, the foreground app, the page cache (free memory is what is left above it); each the
  /// height of its top edge in a sample.
  static func memoryLayers(_ device: DeviceProfile) -> [(
    String, String, (TimelineRecorder.Sample) -> Int
  )] {
    [
      ("reserved", reservedColour, { _ in device.reservedKB }),
      ("system processes", systemColour, { device.reservedKB + $0.systemKB }),
      (
        "suspended", colours[.suspended] ?? "", { device.reservedKB + $0.systemKB + $0.suspendedKB }
      ),
      (
        "background", colours[.background] ?? "",
        { device.reservedKB + $0.systemKB + $0.suspendedKB + $0.backgroundKB }
      ),
      (
        "foreground", colours[.active] ?? "",
        {
          device.reservedKB + $0.systemKB + $0.suspendedKB + $0.backgroundKB + $0.foregroundKB
        }
      ),
      (
        "page cache", fileCacheColour,
        {
          device.reservedKB + $0.systemKB + $0.suspendedKB + $0.backgroundKB + $0.foregroundKB
            + $0.fileBackedKB
        }
      ),
    ]
  }

  /// One sample per pixel column: its last composition, and the peak of the whole column.
  static func pixelSamples(_ timeline: TimelineRecorder, in chart: SVGChart)
    -> [TimelineRecorder.Sample]
  {
    chart.columns(of: timeline.samples) { Double($0.timeMs) }.map { column in
      var last = column.items[column.items.count - 1]
      last.timeMs = column.items[0].timeMs
      last.peakAppsKB = column.items.map(\.peakAppsKB).max() ?? last.peakAppsKB
      return last
    }
  }

  /// The device's memory and its warning and critical levels, as used memory.
  static func drawLevels(of device: DeviceProfile, on chart: inout SVGChart) {
    chart.horizontalLine(
      Double(device.memoryKB), stroke: "#000000", dash: nil,
      title: "device memory \(Units.megabytes(device.memoryKB))")
    chart.horizontalLine(
      Double(device.memoryKB - device.warningThresholdKB), stroke: warningColour, dash: "8 4",
      title: "warning: available below \(Units.megabytes(device.warningThresholdKB))")
    chart.horizontalLine(
      Double(device.memoryKB - device.criticalThresholdKB), stroke: criticalColour, dash: "3 3",
      title: "critical: available below \(Units.megabytes(device.criticalThresholdKB))")
  }

  /// Every kill: a marker at its time; kills closer than a marker's width share one and its
  /// tooltip (`sparse`).
  static func drawKills(
    _ kills: TimeBuckets<KillRecord>, appIDs: [String], on chart: inout SVGChart
  ) {
    for (x, group) in sparse(kills, on: chart, spacing: killSpacing) {
      let lines = group.items.prefix(5).map { kill in
        "\(Units.clock(kill.timeMs)) kill: \(appIDs[kill.app]) (\(kill.reason), \(Units.megabytes(kill.footprintKB)), \(kill.state))"
      }
      let more = group.count > 5 ? "\nand \(group.count - 5) more" : ""
      chart.killMarker(atX: x, title: lines.joined(separator: "\n") + more)
    }
  }

  static let memoryLegend: [(String, String, String?)] = [
    ("page cache (file-backed; with free memory, what is available)", fileCacheColour, nil),
    ("foreground (active or inactive)", colours[.active] ?? "", nil),
    ("background", colours[.background] ?? "", nil),
    ("suspended", colours[.suspended] ?? "", nil), ("system processes", systemColour, nil),
    ("reserved", reservedColour, nil),
    ("peak used within a pixel column", peakColour, "thin"),
    ("device memory", "#000000", "line"), ("warning threshold", warningColour, "dash"),
    ("critical threshold", criticalColour, "dash"),
    ("kill (hover for the app)", "#000000", "killTop"),
  ]

  /// A run's time axis: from its start to its end exactly, ticked on a round clock.
  static func timeAxis(_ durationMs: Int) -> ChartScale {
    ChartScale(from: 0, to: Double(max(durationMs, 1)), unit: .clock, roundOut: false)
  }

  /// The title of a run's time axis, with how its ticks read.
  static func timeTitle(_ scale: ChartScale) -> String {
    "time since the start (\(scale.clockFormat))"
  }

  // MARK: - Lanes

  /// The chart of each app's state over time, in two halves drawn apart (on two threads): `half`
  /// 0 is the chart's start and the first half of its lanes, 1 the other lanes and its end; the
  /// chart is the one after the other.
  static func laneChart(
    summary: RunSummary, timeline: TimelineRecorder, durationMs: Int, half: Int
  ) -> MarkupBytes {
    let busiest = timeline.activity.indices.filter { timeline.activity[$0] > 0 }
      .sorted {
        timeline.activity[$0] != timeline.activity[$1]
          ? timeline.activity[$0] > timeline.activity[$1] : $0 < $1
      }
    let lanes = Array(busiest.prefix(maxLanes)).sorted()
    guard !lanes.isEmpty else {
      var none = MarkupBytes()
      if half == 0 { none.append("<p>No app ran.</p>") }
      return none
    }
    let laneHeight = 18.0
    let time = timeAxis(durationMs)
    var chart = SVGChart(
      width: timelineWidth, height: laneHeight * Double(lanes.count),
      label: "Each app's lifecycle state over time", x: .scale(time), y: nil,
      leftMargin: timelineLeft)
    let rows = half == 0 ? 0..<(lanes.count / 2) : (lanes.count / 2)..<lanes.count
    if half == 0 {
      chart.axes(xLabel: timeTitle(time), yLabel: nil)
    } else {
      chart = chart.blank()
    }
    let states = LaneStates()
    for row in rows {
      drawLane(
        row: row, app: lanes[row], id: summary.appIDs[lanes[row]], states: states,
        timeline: timeline, durationMs: durationMs, on: &chart)
    }
    guard half == 1 else { return chart.markup }
    var note = ""
    if busiest.count > lanes.count {
      note =
        "<p>The \(lanes.count) busiest of \(busiest.count) apps that ran; apps.csv has them all.</p>"
    }
    let legend: [(String, String, String?)] = [
      ("active", colours[.active] ?? "", nil), ("inactive", colours[.inactive] ?? "", nil),
      ("background", colours[.background] ?? "", nil),
      ("suspended", colours[.suspended] ?? "", nil),
      ("cold launch", "#000000", "launch"), ("warm resume", "#000000", "resume"),
      ("kill", "#000000", "kill"),
    ]
    var markup = chart.finishedMarkup()
    markup.append(HTMLDocument.legend(legend) + note)
    return markup
  }

  /// App `app`'s lane, row `row`: its states as bars, its launches, resumes and kills as marks.
  /// Tooltips are written piece by piece into each mark (a lane has one per pixel column), the
  /// app's id escaped once.
  static func drawLane(
    row: Int, app: Int, id: String, states: LaneStates, timeline: TimelineRecorder,
    durationMs: Int, on chart: inout SVGChart
  ) {
    chart.laneLabel(row: row, text: id)
    let escaped = Array(HTMLDocument.escape(id).utf8)
    // The id, a phrase, two clocks and a count: the most a tooltip holds.
    let titleBytes = escaped.count + 48 + 2 * Units.maxClockBytes + 21
    let segments = chart.coalesced(timeline.segments(of: app), endMs: durationMs)
    escaped.withUnsafeBufferPointer { id in
      for (index, segment) in segments.enumerated() where segment.state != .notRunning {
        let end = index + 1 < segments.count ? segments[index + 1].startMs : durationMs
        chart.laneBar(
          row: row, from: Double(segment.startMs), to: Double(end),
          fill: states.fills[Int(segment.state.rawValue)], titleBytes: titleBytes
        ) { title in
          title.append(id)
          title.append(segment.mixed ? ": mostly " : ": ")
          title.append(states.names[Int(segment.state.rawValue)])
          title.append(" from ")
          title.append(clock: segment.startMs)
          title.append(" to ")
          title.append(clock: end)
        }
      }
      for kind in TimelineRecorder.Mark.allCases {
        let what: StaticString =
          kind == .coldLaunch
          ? ": cold launch at " : kind == .warmResume ? ": warm resume at " : ": kill at "
        for (x, group) in sparse(
          timeline.marks[app][kind.rawValue], on: chart, spacing: markSpacing)
        {
          chart.laneMark(row: row, atX: x, kind: kind, titleBytes: titleBytes) { title in
            title.append(id)
            title.append(what)
            title.append(clock: group.timeMs)
            if group.count > 1 {
              title.append(" and ")
              title.append(group.count - 1)
              title.append(" more here")
            }
          }
        }
      }
    }
  }

  /// Each state's bar colour (`colours`) and name, as bytes, by `AppState.rawValue`: what every
  /// bar of a lane chart writes.
  struct LaneStates {
    let fills = AppState.allCases.map { Array((colours[$0] ?? "#000000").utf8) }
    let names = AppState.allCases.map { Array($0.description.utf8) }
  }
}
