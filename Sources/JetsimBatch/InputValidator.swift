import JetsimCore
import JetsimIO

/// `jetsim validate`: checks any input file jetsim reads as what it is, exactly as the command that
/// uses it would read it, without running anything.
public enum InputValidator {
  /// The kinds of file jetsim reads.
  public enum FileKind: String, Sendable {
    /// A device profile.
    case device
    /// An app profile.
    case app
    /// A scenario.
    case scenario
    /// A sweep file.
    case sweep
    /// A workload trace (CSV).
    case trace
    /// An app-usage log in the LSApp shape.
    case appUsageLog = "app-usage log"
    /// A JetsamEvent report.
    case jetsamReport = "JetsamEvent report"
    /// MetricKit payloads (one, or a list of them).
    case metricKitPayload = "MetricKit payload"
  }

  /// Checks the file at `path` and returns its kind: a trace or app-usage log by its extension and
  /// header (a `.tsv`, or a `.csv` whose header `import-lsapp` reads as a log's, is an app-usage
  /// log; any other `.csv` a trace), a JetsamEvent report by its extension (`.ips`, `.synced`, `.crash`),
  /// otherwise a JSON scenario, sweep, device or app profile or MetricKit payload, told apart by
  /// its keys.
  public static func validate(at path: String) throws(JetsimError) -> FileKind {
    let lowered = path.lowercased()
    if [".ips", ".synced", ".crash"].contains(where: lowered.hasSuffix) {
      // As import-jetsam reads it: a report with no app would give no scenario.
      try JetsamImport.convert(try JetsamReport.load(at: path)).checkImportable()
      return .jetsamReport
    }
    if lowered.hasSuffix(".tsv") {
      _ = try LSAppImport.convert(InputFile.text(at: path), path: path, known: [])
      return .appUsageLog
    }
    if lowered.hasSuffix(".csv") {
      let header = try LineReader(path: path).nextLine { String(decoding: $0, as: UTF8.self) }
      if let header, LSAppImport.isLogHeader(header) {
        _ = try LSAppImport.convert(InputFile.text(at: path), path: path, known: [])
        return .appUsageLog
      }
      // A trace is read a line at a time: any length in constant memory.
      var cursor = try TraceCursor(path: path)
      while try cursor.next() != nil {}
      return .trace
    }
    let root = try ProfileLoader.json(InputFile.bytes(at: path), path: path)
    let first = root.elements?.first ?? root
    let keys = Set(first.members?.map(\.key) ?? [])
    if keys.contains("timeStampBegin") || keys.contains("applicationExitMetrics") {
      _ = try MetricKitPayload.load(at: path)
      return .metricKitPayload
    }
    if keys.contains("axes") {
      _ = try SweepDefinition.load(at: path)
      return .sweep
    }
    if keys.contains("script") || keys.contains("apps") || keys.contains("trace")
      || keys.contains("userModel")
    {
      _ = try ProfileLoader.scenario(at: path)
      return .scenario
    }
    if keys.contains("memory") || keys.contains("reserved") {
      _ = try ProfileLoader.device(at: path)
      return .device
    }
    if keys.contains("resident") || keys.contains("id") {
      _ = try ProfileLoader.app(at: path)
      return .app
    }
    _ = try ProfileLoader.scenario(at: path)
    return .scenario
  }
}
