import JetsimCore

/// Reads a workload trace: a CSV file with the header `time_ms,action,app,value`, one action a row, in
/// time order (docs/profiles.md). `value` is a duration for `interrupt` and `wake` (`"30s"`), a size for
/// `allocate` and `free` (`"50MB"`) and a mode for `mode-start` and `mode-stop` (`audio`).
package enum TraceReader {
  /// The header every trace starts with.
  package static let header = ["time_ms", "action", "app", "value"]

  /// The actions of the trace `text`, read from the file at `path` (used in errors).
  /// App ids are not checked here; the scenario that uses the trace checks them.
  package static func actions(_ text: String, path: String) throws(JetsimError) -> [(
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
          "time_ms '\(fields[0].excerpt())' is not a whole number of milliseconds from 0 to \(Units.maxMilliseconds)"
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
