/// Reads a workload trace: a CSV file with the header `time_ms,action,app,value`, one action a row, in
/// time order (docs/profiles.md). `value` is a duration for `interrupt` and `wake` (`"30s"`), a size for
/// `allocate` and `free` (`"50MB"`) and a mode for `mode-start` and `mode-stop` (`audio`).
public enum TraceReader {
  /// The header every trace starts with.
  public static let header = ["time_ms", "action", "app", "value"]

  /// The actions of the trace `text`, read from the file at `path` (used in errors).
  /// App ids are not checked here; the scenario that uses the trace checks them.
  public static func actions(_ text: String, path: String) throws(JetsimError) -> [(
    line: Int, action: TimedAction
  )] {
    let records: [CSVReader.Record]
    do {
      records = try CSVReader.records(text)
    } catch {
      switch error {
      case .unterminatedQuote(let line):
        throw .traceLine(
          path: path, line: line, message: "a quoted field is never closed; add the closing \"")
      case .textAfterQuote(let line):
        throw .traceLine(
          path: path, line: line, message: "text after a closing quote; quote the whole field")
      }
    }
    guard let first = records.first else {
      throw .traceLine(
        path: path, line: 1,
        message: "empty trace; start with the header \(header.joined(separator: ","))")
    }
    guard first.fields == header else {
      throw .traceLine(
        path: path, line: first.line,
        message:
          "the header must be \(header.joined(separator: ",")), found \(first.fields.joined(separator: ","))"
      )
    }
    var result: [(Int, TimedAction)] = []
    result.reserveCapacity(records.count - 1)
    var previous = 0
    for record in records.dropFirst() {
      let fail = { (message: String) in
        JetsimError.traceLine(path: path, line: record.line, message: message)
      }
      guard record.fields.count == header.count else {
        throw fail("expected 4 fields (time_ms,action,app,value), found \(record.fields.count)")
      }
      let fields = record.fields
      guard let time = Int(fields[0]), (0...Units.maxMilliseconds).contains(time) else {
        throw fail(
          "time_ms '\(fields[0])' is not a whole number of milliseconds from 0 to \(Units.maxMilliseconds)"
        )
      }
      guard time >= previous else {
        throw fail(
          "time_ms \(time) is before the previous line's \(previous); sort the trace by time")
      }
      previous = time
      let action: Action
      do {
        action = try ActionParser.action(name: fields[1], app: fields[2], value: fields[3])
      } catch {
        throw fail(error.message)
      }
      result.append((record.line, TimedAction(time, action)))
    }
    return result
  }
}

/// Builds an `Action` from its name, app and textual value: shared by scripts and traces.
enum ActionParser {
  struct Failure: Error { var message: String; var field: String }

  static func action(name: String, app: String, value: String) throws(Failure) -> Action {
    guard let kind = ActionKind(name: name) else {
      let names = ActionKind.allCases.map(\.name)
      let hint = Suggestion.closest(to: name, in: names).map { "did you mean '\($0)'? " } ?? ""
      throw Failure(
        message: "unknown action '\(name)'; \(hint)actions: \(names.joined(separator: ", "))",
        field: "action")
    }
    if kind.needsApp, app.isEmpty {
      throw Failure(message: "'\(name)' needs an app id", field: "app")
    }
    if !kind.needsApp, !app.isEmpty {
      throw Failure(message: "'\(name)' takes no app; leave the app empty", field: "app")
    }
    switch kind.argument {
    case .none:
      guard value.isEmpty else {
        throw Failure(message: "'\(name)' takes no value; leave it empty", field: "value")
      }
    case .duration:
      guard let duration = Units.milliseconds(value), duration > 0 else {
        throw Failure(
          message: "'\(name)' needs a positive duration, such as \"30s\"; found '\(value)'",
          field: "value")
      }
      return kind == .interrupt
        ? .interrupt(durationMs: duration) : .wake(app, durationMs: duration)
    case .size:
      guard let size = Units.kilobytes(value) else {
        throw Failure(
          message: "'\(name)' needs a size, such as \"50MB\"; found '\(value)'", field: "value")
      }
      return kind == .allocate ? .allocate(app, kilobytes: size) : .free(app, kilobytes: size)
    case .mode:
      guard let mode = BackgroundMode(rawValue: value), mode.keepsRunning else {
        throw Failure(
          message: "'\(name)' needs a mode: audio, location or voip; found '\(value)'",
          field: "value")
      }
      return kind == .startMode ? .startMode(app, mode) : .stopMode(app, mode)
    }
    switch kind {
    case .open: return .open(app)
    case .home: return .home
    case .lock: return .lock
    case .unlock: return .unlock
    case .forceQuit: return .forceQuit(app)
    default: return .reboot
    }
  }
}
