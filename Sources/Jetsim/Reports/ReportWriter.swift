import Foundation

/// Writes a run's reports (`events.csv`, `kills.csv`, `apps.csv`, `summary.csv`, and `run.json`) into a
/// `ReportFolder`, streaming the event log and kills through fixed-size buffers as the run goes.
///
/// ```swift
/// var writer = try ReportWriter(folder: ReportFolder(destination: "Reports/mine"), scenario: scenario)
/// let summary = try Simulator.run(scenario, observer: &writer)
/// try writer.finish(summary)   // writes apps.csv and summary.csv, then moves the folder into place
/// ```
public struct ReportWriter: SimulationObserver {
  /// A file written through a buffer.
  final class Stream {
    let handle: FileHandle
    var buffer = CSVBuffer()
    var error: (any Error)?

    init(path: String) throws {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw CocoaError(.fileWriteNoPermission)
      }
      handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func flushIfFull() {
      if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
      guard error == nil, buffer.count > 0 else { return }
      do {
        try buffer.bytes.withUnsafeBytes { try handle.write(contentsOf: Data($0)) }
      } catch {
        self.error = error
      }
      buffer.removeAll()
    }

    func close() throws {
      flush()
      try handle.close()
      if let error { throw error }
    }
  }

  /// Where the reports are being written.
  public let folder: ReportFolder
  private let tables: ReportTables
  private let scenario: Scenario
  private let events: Stream
  private let kills: Stream

  /// Starts the reports of `scenario` (run under `policy`, by default the scenario's) in `folder`.
  public init(folder: ReportFolder, scenario: Scenario, policy: String? = nil) throws(JetsimError) {
    self.folder = folder
    self.scenario = scenario
    tables = ReportTables(appIDs: scenario.apps.map(\.id), policy: policy ?? scenario.policy)
    do {
      events = try Stream(path: folder.path("events.csv"))
      kills = try Stream(path: folder.path("kills.csv"))
    } catch {
      folder.discard()
      throw .outputNotWritable(path: folder.destination, reason: ReportFolder.reason(error))
    }
    events.buffer.appendHeader(ReportTables.eventColumns)
    kills.buffer.appendHeader(ReportTables.killColumns)
  }

  public mutating func record(_ event: EventRecord) {
    tables.append(event, to: &events.buffer)
    events.flushIfFull()
  }

  public mutating func record(_ kill: KillRecord) {
    tables.append(kill, to: &kills.buffer)
    kills.flushIfFull()
  }

  /// Writes `apps.csv` and `summary.csv` from `summary`, closes the streams and moves the folder into
  /// place. On any failure nothing is left at the destination but what was there before.
  public func finish(_ summary: RunSummary) throws(JetsimError) {
    do {
      try events.close()
      try kills.close()
      try Data(ReportTables.appsTable(summary).bytes).write(
        to: URL(fileURLWithPath: folder.path("apps.csv")))
      try Data(Provenance(scenario: scenario, summary: summary).json.utf8).write(
        to: URL(fileURLWithPath: folder.path("run.json")))
      try Data(ReportTables.summaryTable(summary).bytes).write(
        to: URL(fileURLWithPath: folder.path("summary.csv")))
    } catch {
      folder.discard()
      throw .outputNotWritable(path: folder.destination, reason: ReportFolder.reason(error))
    }
    try folder.commit()
  }

  /// Abandons the reports: nothing is written at the destination.
  public func discard() {
    try? events.close()
    try? kills.close()
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
