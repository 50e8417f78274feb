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
    /// A user model in a file of its own, as a scenario's `userModel` or what-if's user model is
    /// written (its app ids are checked where it is used, against the scenario's apps).
    case userModel = "user model"
  }

  /// Checks the file at `path` and returns its kind, recognised from its content as the command
  /// that reads it would (`kind(of:)`), then read by that command's own reader: a JetsamEvent
  /// report as `import-jetsam` reads it, an app-usage log as `import-lsapp`, a trace as `run`, a
  /// MetricKit payload as `import-metrickit`, profiles, scenarios and sweeps as the loaders.
  ///
  /// A pipe or a device (`/dev/stdin` from a pipe) is refused: telling its kind and then reading
  /// it would read it twice, and the second read would find it empty.
  public static func validate(at path: String) throws(JetsimError) -> FileKind {
    if FileSystem.isStream(path) {
      throw .unreadable(
        path: path,
        reason:
          "it is a pipe or a device, which validate would have to read twice; save it to a file and validate that"
      )
    }
    let kind = try Self.kind(of: path)
    switch kind {
    case .jetsamReport:
      // As import-jetsam reads it: a report with no app would give no scenario.
      try JetsamImport.convert(try JetsamReport.load(at: path)).checkImportable()
    case .appUsageLog:
      _ = try LSAppImport.convert(InputFile.text(at: path), path: path, known: [])
    case .trace:
      // A trace is read a line at a time: any length in constant memory.
      var cursor = try TraceCursor(path: path)
      while try cursor.next() != nil {}
    case .metricKitPayload: _ = try MetricKitPayload.load(at: path)
    case .sweep: _ = try SweepDefinition.load(at: path)
    case .device: _ = try ProfileLoader.device(at: path)
    case .app: _ = try ProfileLoader.app(at: path)
    case .scenario: _ = try ProfileLoader.scenario(at: path)
    case .userModel: try ProfileLoader.checkUserModel(at: path)
    }
    return kind
  }

  /// The kind of the file at `path`. The names the importers are given (`.ips`, `.synced` and
  /// `.crash` reports, `.tsv` logs) are that kind whatever they hold, so that a damaged one gets
  /// its importer's error. Any other file is told by its content: JSON (an object or a list) is a
  /// JetsamEvent report when its first line is a report's header (`bug_type`) or its keys are a
  /// report body's (`memoryStatus`, `processes`), a user model when it has a user model's own keys
  /// (`popularity`, `dwell`, ...) and no scenario's, else a payload, sweep, scenario, device or app
  /// by its keys (`DocumentKind.hints`); text is an app-usage log when its first line is a log's header
  /// (`LSAppImport.isLogHeader`), a report of the older text layout when it starts `Incident
  /// Identifier:`, a trace when its header is a trace's or it is a `.csv`, and otherwise read as
  /// JSON (a scenario, whose loader says what is wrong).
  public static func kind(of path: String) throws(JetsimError) -> FileKind {
    let lowered = path.lowercased()
    if [".ips", ".synced", ".crash"].contains(where: lowered.hasSuffix) { return .jetsamReport }
    if lowered.hasSuffix(".tsv") { return .appUsageLog }
    let first = try LineReader(path: path).nextLine { String(decoding: $0, as: UTF8.self) } ?? ""
    let opening = first.drop { $0 == " " || $0 == "\t" }.first
    guard opening == "{" || opening == "[" else {
      if first.hasPrefix("Incident Identifier:") { return .jetsamReport }
      if LSAppImport.isLogHeader(first) { return .appUsageLog }
      let traceHeader = first.split(separator: ",").map(String.init) == TraceReader.header
      // Other text is a trace in a `.csv`, and otherwise what most inputs are: JSON.
      if traceHeader || lowered.hasSuffix(".csv") { return .trace }
      return .scenario
    }
    if first.contains("\"bug_type\"") { return .jetsamReport }
    let root = try ProfileLoader.json(InputFile.bytes(at: path), path: path)
    let keys = Set((root.elements?.first ?? root).members?.map(\.key) ?? [])
    // A user model's own keys and none only a scenario has: a user model of its own (its "apps"
    // and "growthPerMinute" would otherwise read as a scenario's or an app's).
    let recognised = DocumentKind.recognised(keys: keys)
    let scenarioOnly: Set = ["device", "script", "trace", "userModel", "snapshot"]
    if recognised == .scenario || recognised == nil, !keys.isDisjoint(with: UserModelFile.ownKeys),
      keys.isDisjoint(with: scenarioOnly)
    {
      return .userModel
    }
    switch recognised {
    case .jetsamReport: return .jetsamReport
    case .metricKitPayload: return .metricKitPayload
    case .sweep: return .sweep
    case .device: return .device
    case .app: return .app
    case .scenario, nil: return .scenario
    }
  }
}
