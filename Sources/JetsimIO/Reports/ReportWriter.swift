import JetsimCore

/// Writes a run's reports (`events.csv`, `kills.csv`, `apps.csv`, `summary.csv`, `run.json` and
/// `metrickit.json`) into a `ReportFolder`, streaming the event log and kills as the run goes: a
/// thread of the writer's own formats and writes them (end every writer with `finish(_:)` or
/// `discard()`, which end that thread too).
///
/// ```swift
/// var writer = try ReportWriter(folder: ReportFolder(destination: "Reports/mine"), scenario: scenario)
/// let summary = try Simulator.run(scenario, observer: &writer)
/// try writer.finish(summary)   // writes apps.csv and summary.csv, then moves the folder into place
/// ```
public struct ReportWriter: SimulationObserver {
  /// The event log and kills are written to disk in whole blocks of this many bytes, so every
  /// write starts at a multiple of it: Linux then caches the file in large pages, which halves the
  /// kernel's time to write it and to delete an older report (`docs/performance.md`).
  static let blockBytes = 1 << 16

  // Two words: a simulation holds its observer as an existential, which stores a value this
  // small inline, so recording a row costs no check that a boxed copy is unique.
  /// The run's folder, scenario and row stream.
  private let run: Run
  /// The rows not yet handed to the stream.
  private var chunk = RowStream.newChunk()

  private final class Run {
    let folder: ReportFolder
    var scenario: Scenario
    /// Where the run was told to end in place of the scenario's own end, for `run.json`.
    var durationMs: Int?
    /// The rows' way to the files: formatted and written on a thread of its own.
    let stream: RowStream

    init(folder: ReportFolder, scenario: Scenario, stream: RowStream) {
      self.folder = folder
      self.scenario = scenario
      self.stream = stream
    }
  }

  private var stream: RowStream { run.stream }

  /// Where the reports are being written.
  public var folder: ReportFolder { run.folder }
  private var scenario: Scenario { run.scenario }

  /// Starts the reports of `scenario` in `folder`; with `html`, `report.html` too
  /// (docs/reports.md). The policy's name comes from the run itself (`start(policy:)`), the same
  /// source as `summary.csv`'s.
  public init(folder: ReportFolder, scenario: Scenario, html: Bool = false) throws(JetsimError) {
    let eventsFile: OutputFile
    let killsFile: OutputFile
    do {
      eventsFile = try OutputFile(creating: folder.path(ReportFile.events.name))
      killsFile = try OutputFile(creating: folder.path(ReportFile.kills.name))
    } catch {
      folder.discard()
      throw error.notWritable(folder.destination)
    }
    // What `report.html` draws is recorded by the stream's thread, as it writes the rows.
    let stream: RowStream
    do {
      stream = try RowStream(
        tables: ReportTables(appIDs: scenario.processNames, policy: ""), eventsFile: eventsFile,
        killsFile: killsFile,
        timeline: html
          ? TimelineRecorder(
            appCount: scenario.apps.count, systemCount: scenario.device.systemProcesses.count,
            device: scenario.device) : nil)
    } catch {
      folder.discard()
      throw .outputNotWritable(
        path: folder.destination,
        reason: "no thread could be started to write them: \(error.reason)")
    }
    run = Run(folder: folder, scenario: scenario, stream: stream)
  }

  /// Records in `run.json` that the run was told to end at `durationMs` (`--duration`), in place
  /// of its scenario's own end.
  public mutating func record(durationMs: Int) {
    run.durationMs = durationMs
  }

  /// Adds `input` to the inputs `run.json` lists: a trace whose digest is known only once the run
  /// has read it (`TraceCheck`).
  package mutating func add(input: RunInput) {
    run.scenario.inputs.append(input)
  }

  public mutating func start(policy: String) {
    stream.start(ReportTables(appIDs: scenario.processNames, policy: policy))
  }

  public mutating func record(_ event: EventRecord) {
    if chunk.append(event) == RowStream.chunkSize { stream.hand(&chunk) }
  }

  public mutating func record(_ kill: KillRecord) {
    if chunk.append(kill) == RowStream.chunkSize { stream.hand(&chunk) }
  }

  /// Writes `apps.csv`, `summary.csv`, `run.json` and `metrickit.json` from `summary`, closes the
  /// streams and moves the folder into place. On any failure nothing is left at the destination
  /// but what was there before.
  public mutating func finish(_ summary: RunSummary) throws(JetsimError) {
    // The last rows go to the writer first: it writes them while this thread writes the small
    // reports; the HTML is drawn once the writer has recorded every row.
    stream.hand(&chunk)
    do {
      try write(ReportTables.appsTable(summary), to: .apps)
      var provenance = Provenance(scenario: scenario, summary: summary)
      provenance.durationMs = run.durationMs
      try write(provenance.json, to: .provenance)
      try write(ReportTables.summaryTable(summary), to: .summary)
      let metricKit = try OutputFile(creating: folder.path(ReportFile.metricKit.name))
      MetricKitPayload.writeRunJSON(summary) { metricKit.write($0) }
      try metricKit.close()
      let ended = stream.end(with: &chunk)
      try ended.events.close()
      try ended.kills.close()
      if let timeline = ended.timeline {
        let file = try OutputFile(creating: folder.path(ReportFile.html.name))
        for part in HTMLReport.renderParts(
          summary: summary, device: scenario.device, timeline: timeline)
        {
          part.withBytes { file.write($0) }
        }
        try file.close()
      }
    } catch {
      discard()
      throw error.notWritable(folder.destination)
    }
    try folder.commit()
  }

  private func write(_ buffer: CSVBuffer, to report: ReportFile) throws(FileSystem.Failure) {
    let file = try OutputFile(creating: folder.path(report.name))
    buffer.withBytes { file.write($0) }
    try file.close()
  }

  private func write(_ text: String, to report: ReportFile) throws(FileSystem.Failure) {
    let file = try OutputFile(creating: folder.path(report.name))
    file.write(text)
    try file.close()
  }

  /// Abandons the reports: nothing is written at the destination.
  public mutating func discard() {
    let files = stream.end(with: &chunk)
    try? files.events.close()
    try? files.kills.close()
    folder.discard()
  }
}

extension OutputFile {
  /// Writes `buffer`'s bytes and empties it.
  func flush(_ buffer: inout CSVBuffer) {
    buffer.withBytes { write($0) }
    buffer.removeAll()
  }

  /// Writes as many whole blocks of `ReportWriter.blockBytes` as `buffer` holds and keeps the
  /// rest, so a file written only this way (and flushed once at its end) is written in whole,
  /// aligned blocks.
  func flushBlocks(_ buffer: inout CSVBuffer) {
    let whole = buffer.count - buffer.count % ReportWriter.blockBytes
    guard whole > 0 else { return }
    buffer.withBytes { write(UnsafeRawBufferPointer(rebasing: $0[..<whole])) }
    buffer.removeFirst(whole)
  }

  /// Writes what `buffer` still holds and closes the file.
  func close(flushing buffer: inout CSVBuffer) throws(FileSystem.Failure) {
    flush(&buffer)
    try close()
  }
}

extension RunResult {
  /// The four reports as text, exactly as `ReportWriter` writes them: for tests and for users who
  /// want the CSV without files.
  public var csv: (events: String, kills: String, apps: String, summary: String) {
    (
      eventsCSV, killsCSV, Self.text(ReportTables.appsTable(summary)),
      Self.text(ReportTables.summaryTable(summary))
    )
  }

  /// `events.csv` as text (`csv`'s first report alone: a long run's event log is large).
  public var eventsCSV: String {
    var tables = ReportTables(appIDs: summary.appIDs, policy: summary.policy)
    var events = CSVBuffer()
    events.appendRow(ReportTables.eventColumns)
    self.events.withUnsafeBufferPointer { tables.append($0, to: &events) }
    return Self.text(events)
  }

  /// `kills.csv` as text (`csv`'s second report alone).
  public var killsCSV: String {
    let tables = ReportTables(appIDs: summary.appIDs, policy: summary.policy)
    var kills = CSVBuffer()
    kills.appendRow(ReportTables.killColumns)
    for kill in self.kills { tables.append(kill, to: &kills) }
    return Self.text(kills)
  }

  private static func text(_ buffer: CSVBuffer) -> String {
    String(decoding: buffer.bytes, as: UTF8.self)
  }
}
