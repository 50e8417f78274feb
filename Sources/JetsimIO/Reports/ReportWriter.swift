import Foundation
import JetsimCore

/// Writes a run's reports (`events.csv`, `kills.csv`, `apps.csv`, `summary.csv`, and `run.json`) into a
/// `ReportFolder`, streaming the event log and kills through fixed-size buffers as the run goes.
///
/// ```swift
/// var writer = try ReportWriter(folder: ReportFolder(destination: "Reports/mine"), scenario: scenario)
/// let summary = try Simulator.run(scenario, observer: &writer)
/// try writer.finish(summary)   // writes apps.csv and summary.csv, then moves the folder into place
/// ```
public struct ReportWriter: SimulationObserver {
  /// An open file that buffers are flushed to; the first write error is kept and reported at the end.
  final class OutputFile {
    let handle: FileHandle
    var error: (any Error)?

    init(path: String) throws {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw CocoaError(.fileWriteNoPermission)
      }
      handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Writes the buffer's bytes and empties it.
    func flush(_ buffer: inout CSVBuffer) {
      if error == nil, buffer.count > 0 {
        do {
          try buffer.withBytes { try handle.write(contentsOf: $0) }
        } catch {
          self.error = error
        }
      }
      buffer.removeAll()
    }

    func close(_ buffer: inout CSVBuffer) throws {
      flush(&buffer)
      try handle.close()
      if let error { throw error }
    }
  }

  /// Bytes buffered before a write to disk.
  static let flushBytes = 1 << 16

  /// Where the reports are being written.
  public let folder: ReportFolder
  private let tables: ReportTables
  private let scenario: Scenario
  private let eventsFile: OutputFile
  private let killsFile: OutputFile
  private var timeline: TimelineRecorder?
  private var events = CSVBuffer(capacity: flushBytes + 4096)
  private var kills = CSVBuffer(capacity: 4096)

  /// Starts the reports of `scenario` (run under `policy`, by default the scenario's) in `folder`;
  /// with `html`, `report.html` too (docs/reports.md).
  public init(folder: ReportFolder, scenario: Scenario, policy: String? = nil, html: Bool = false)
    throws(JetsimError)
  {
    self.folder = folder
    self.scenario = scenario
    timeline = html ? TimelineRecorder(appCount: scenario.apps.count) : nil
    tables = ReportTables(appIDs: scenario.apps.map(\.id), policy: policy ?? scenario.policy)
    do {
      eventsFile = try OutputFile(path: folder.path("events.csv"))
      killsFile = try OutputFile(path: folder.path("kills.csv"))
    } catch {
      folder.discard()
      throw .outputNotWritable(path: folder.destination, reason: FileFailure.reason(error))
    }
    events.appendHeader(ReportTables.eventColumns)
    kills.appendHeader(ReportTables.killColumns)
  }

  public mutating func record(_ event: EventRecord) {
    timeline?.record(event)
    tables.append(event, to: &events)
    if events.count >= Self.flushBytes { eventsFile.flush(&events) }
  }

  public mutating func record(_ kill: KillRecord) {
    timeline?.record(kill)
    tables.append(kill, to: &kills)
    if kills.count >= Self.flushBytes { killsFile.flush(&kills) }
  }

  /// Writes `apps.csv`, `summary.csv` and `run.json` from `summary`, closes the streams and moves the
  /// folder into place. On any failure nothing is left at the destination but what was there before.
  public mutating func finish(_ summary: RunSummary) throws(JetsimError) {
    do {
      try eventsFile.close(&events)
      try killsFile.close(&kills)
      try Data(ReportTables.appsTable(summary).bytes).write(
        to: URL(fileURLWithPath: folder.path("apps.csv")))
      try Data(Provenance(scenario: scenario, summary: summary).json.utf8).write(
        to: URL(fileURLWithPath: folder.path("run.json")))
      try Data(ReportTables.summaryTable(summary).bytes).write(
        to: URL(fileURLWithPath: folder.path("summary.csv")))
      if let timeline {
        let html = HTMLReport.render(summary: summary, device: scenario.device, timeline: timeline)
        try Data(html.utf8).write(to: URL(fileURLWithPath: folder.path("report.html")))
      }
    } catch {
      folder.discard()
      throw .outputNotWritable(path: folder.destination, reason: FileFailure.reason(error))
    }
    try folder.commit()
  }

  /// Abandons the reports: nothing is written at the destination.
  public mutating func discard() {
    try? eventsFile.close(&events)
    try? killsFile.close(&kills)
    folder.discard()
  }
}

extension RunResult {
  /// The four reports as text, exactly as `ReportWriter` writes them: for tests and for users who
  /// want the CSV without files.
  public var csv: (events: String, kills: String, apps: String, summary: String) {
    let tables = ReportTables(appIDs: summary.appIDs, policy: summary.policy)
    var events = CSVBuffer()
    events.appendHeader(ReportTables.eventColumns)
    for event in self.events { tables.append(event, to: &events) }
    var kills = CSVBuffer()
    kills.appendHeader(ReportTables.killColumns)
    for kill in self.kills { tables.append(kill, to: &kills) }
    func text(_ buffer: CSVBuffer) -> String { String(decoding: buffer.bytes, as: UTF8.self) }
    return (
      text(events), text(kills), text(ReportTables.appsTable(summary)),
      text(ReportTables.summaryTable(summary))
    )
  }
}
