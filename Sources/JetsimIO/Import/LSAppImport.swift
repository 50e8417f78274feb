import JetsimCore
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Converts app-usage logs of the common public shape (the LSApp data set: user, session,
/// timestamp, app name, event type `Opened` / `Closed`) into a jetsim trace for one user.
///
/// `Opened` opens the app; `Closed` goes home if that app is on screen; other event types are
/// ignored. Times become milliseconds since the user's first event. Apps are matched to the base
/// scenario's profiles by id or name (case-insensitive); unknown apps get a copy of a default profile
/// named after them, with the id `lsapp.<name>`.
public enum LSAppImport {
  /// The result: the actions in time order, and every app the log names with its profile.
  public struct Conversion: Sendable {
    /// The trace's actions, from the user's first event.
    public var actions: [TimedAction]
    /// The apps the log uses, in order of first use: matched profiles, then new ones.
    public var apps: [AppProfile]
    /// Log names that matched a profile of the base scenario, and those that did not.
    public var matched: [String]
    /// The log's app names given the default profile.
    public var unmatched: [String]
    /// The user converted.
    public var user: String
  }

  /// The profile given to apps no base profile matches: a mid-sized app.
  public static let defaultApp = AppProfile(
    id: "lsapp.default", category: "imported", residentKB: 120 * 1024, cachesKB: 60 * 1024,
    backingStoresKB: 40 * 1024)

  /// Converts the log `text` (read from `path`, for errors) for `user` (by default the first user
  /// in the file), matching apps against `known`.
  ///
  /// - Complexity: O(*n* log *n*) for *n* events, and O(*a* × *k*) to match *a* app names against
  ///   *k* known profiles.
  public static func convert(
    _ text: String, path: String, user wanted: String? = nil, known: [AppProfile],
    defaultApp: AppProfile = defaultApp
  ) throws(JetsimError) -> Conversion {
    let records = try Self.records(text, path: path)
    let columns = try Columns(records[0].fields, path: path)
    let (user, events) = try Self.events(records.dropFirst(), columns, user: wanted, path: path)
    var matcher = AppMatcher(known: known, defaultApp: defaultApp)
    var actions: [TimedAction] = []
    var onScreen: String?
    let start = events.first?.time ?? 0
    for event in events {
      let id = matcher.id(for: event.app)
      if event.opened {
        actions.append(TimedAction(event.time - start, .open(id)))
        onScreen = id
      } else if onScreen == id {
        actions.append(TimedAction(event.time - start, .home))
        onScreen = nil
      }
    }
    return Conversion(
      actions: actions, apps: matcher.apps, matched: matcher.matched,
      unmatched: matcher.unmatched, user: user)
  }

  /// Whether `firstLine` is the header of an app-usage log as this importer reads one (a user, a
  /// time, an app and an event column, tab- or comma-separated), rather than a trace's: how
  /// `validate` tells the two apart in a `.csv`, so that it and `import-lsapp` agree.
  public static func isLogHeader(_ firstLine: String) -> Bool {
    let delimiter: Character = firstLine.contains("\t") ? "\t" : ","
    let fields = firstLine.split(separator: delimiter, omittingEmptySubsequences: false)
    return (try? Columns(fields.map(String.init), path: "")) != nil
  }

  /// The log's records, CSV or TSV by its first line; at least the header.
  static func records(_ text: String, path: String) throws(JetsimError) -> [CSVReader.Record] {
    let delimiter: Character = text.prefix { !$0.isNewline }.contains("\t") ? "\t" : ","
    let records: [CSVReader.Record]
    do {
      records = try CSVReader.records(delimiter == "\t" ? text.replacingTabs() : text)
    } catch {
      throw .traceLine(path: path, line: 1, message: "not CSV or TSV text")
    }
    guard !records.isEmpty else { throw .traceLine(path: path, line: 1, message: "empty log") }
    return records
  }

  /// Where the four columns jetsim reads are.
  struct Columns {
    let count: Int
    let user: Int
    let time: Int
    let app: Int
    let event: Int

    init(_ fields: [String], path: String) throws(JetsimError) {
      let header = fields.map { $0.lowercased().trimmingSpaces() }
      func column(_ names: [String]) throws(JetsimError) -> Int {
        guard let index = header.firstIndex(where: names.contains) else {
          throw .traceLine(
            path: path, line: 1,
            message:
              "no \(names[0]) column; the header needs user_id, timestamp, app_name and event_type (session_id is optional)"
          )
        }
        return index
      }
      count = header.count
      user = try column(["user_id", "user"])
      time = try column(["timestamp", "time"])
      app = try column(["app_name", "app"])
      event = try column(["event_type", "event"])
    }
  }

  /// One `Opened` or `Closed` of the user's.
  struct Event {
    var time: Int
    var line: Int
    var app: String
    var opened: Bool
  }

  /// The `Opened` and `Closed` events of `wanted` (by default the first user), in time order, each
  /// checked; and the user.
  static func events(
    _ records: ArraySlice<CSVReader.Record>, _ columns: Columns, user wanted: String?,
    path: String
  ) throws(JetsimError) -> (user: String, events: [Event]) {
    var events: [Event] = []
    var chosen = wanted
    for record in records {
      let fields = record.fields
      guard fields.count > max(columns.user, columns.time, columns.app, columns.event) else {
        throw .traceLine(
          path: path, line: record.line,
          message: "expected \(columns.count) fields, found \(fields.count)")
      }
      if chosen == nil { chosen = fields[columns.user] }
      guard fields[columns.user] == chosen else { continue }
      let kind = fields[columns.event].lowercased()
      guard kind == "opened" || kind == "closed" else { continue }
      let time = try Self.time(fields[columns.time], line: record.line, path: path)
      let app = try Self.appName(fields[columns.app], line: record.line, path: path)
      events.append(Event(time: time, line: record.line, app: app, opened: kind == "opened"))
    }
    guard let user = chosen, let start = events.map(\.time).min() else {
      throw .traceLine(
        path: path, line: 1,
        message: wanted.map { "no Opened or Closed events for user '\($0)'" }
          ?? "no Opened or Closed events")
    }
    events = events.stableSorted { $0.time < $1.time }
    // jetsim's times are at most `Units.maxMilliseconds` (about 139 years) from the start.
    if let late = events.first(where: { $0.time - start > Units.maxMilliseconds }) {
      throw .traceLine(
        path: path, line: late.line,
        message:
          "this event is more than 139 years after the user's first (jetsim's longest run); split the log"
      )
    }
    return (user, events)
  }

  static func time(_ field: String, line: Int, path: String) throws(JetsimError) -> Int {
    guard let time = Timestamp.milliseconds(field) else {
      throw .traceLine(
        path: path, line: line,
        message:
          "timestamp '\(field.excerpt())' is not YYYY-MM-DD HH:MM:SS (years 1 to 9999) or whole seconds since 1970"
      )
    }
    return time
  }

  /// The name becomes an app profile's name (and its id, after "lsapp."): one short line.
  static func appName(_ app: String, line: Int, path: String) throws(JetsimError) -> String {
    guard !app.isEmpty, app.count <= 100, !app.hasControlCharacters else {
      throw .traceLine(
        path: path, line: line,
        message:
          "app_name '\(app.excerpt())' must be 1 to 100 characters on one line, without control characters"
      )
    }
    return app
  }

  /// Gives each app name of the log a profile: a known one matched by id or name, else a copy of
  /// the default profile.
  struct AppMatcher {
    let known: [AppProfile]
    let defaultApp: AppProfile
    var apps: [AppProfile] = []
    var matched: [String] = []
    var unmatched: [String] = []
    private var ids: [String: String] = [:]

    init(known: [AppProfile], defaultApp: AppProfile) {
      self.known = known
      self.defaultApp = defaultApp
    }

    /// The id of the profile for `name`, made at its first use.
    mutating func id(for name: String) -> String {
      if let id = ids[name] { return id }
      let lowered = name.lowercased()
      var app: AppProfile
      if let match = known.first(where: {
        $0.id.lowercased() == lowered || $0.name.lowercased() == lowered
      }) {
        // Two names for one profile ("Mail" and "com.example.mail") are one app.
        if apps.contains(where: { $0.id == match.id }) {
          ids[name] = match.id
          return match.id
        }
        app = match
        matched.append(name)
      } else {
        app = newProfile(named: name, lowered: lowered)
        unmatched.append(name)
      }
      apps.append(app)
      ids[name] = app.id
      return app.id
    }

    /// The default profile for `name`. Names that differ only in punctuation ("Foo Bar",
    /// "Foo-Bar") get ids of their own.
    private func newProfile(named name: String, lowered: String) -> AppProfile {
      var app = defaultApp
      let base = "lsapp." + String(lowered.map { $0.isLetter || $0.isNumber ? $0 : "-" })
      app.id = base
      var copy = 1
      while apps.contains(where: { $0.id == app.id }) || known.contains(where: { $0.id == app.id })
      {
        copy += 1
        app.id = "\(base)-\(copy)"
      }
      app.name = name
      return app
    }
  }

  /// Converts the log file at `log` for `user` against `base`'s apps and writes, into `folder`, a
  /// scenario `lsapp-user-<user>.json` (the base's device, the apps the log uses) and its trace.
  /// Returns the conversion and the paths of the scenario and its trace.
  public static func importLog(
    at log: String, base: Scenario, user: String? = nil, into folder: String
  )
    throws(JetsimError) -> (conversion: Conversion, scenarioPath: String, tracePath: String)
  {
    let conversion = try convert(
      InputFile.text(at: log), path: log, user: user, known: base.apps)
    var user = String(conversion.user.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    if user.utf8.count > 48 {
      // A file name must stay short: a long id keeps its start and a digest of the whole.
      user =
        String(user.prefix(32)) + "-" + String(SHA256.hex(Array(conversion.user.utf8)).prefix(12))
    }
    let name = "lsapp-user-" + user
    let scenarioPath = "\(folder)/\(name).json"
    let tracePath = "\(folder)/\(name)-trace.csv"
    let scenario = ProfileWriter.scenarioJSON(
      name: name,
      description: "User \(conversion.user) of \(log), on the device and apps of \(base.name).",
      device: .inline(base.device), apps: conversion.apps, trace: "\(name)-trace.csv")
    try writePair(
      (traceCSV(conversion.actions), tracePath), then: (scenario, scenarioPath), in: folder)
    return (conversion, scenarioPath, tracePath)
  }

  /// Writes a trace and then the scenario that names it, each atomically, into `folder` (created
  /// if missing). If either fails, what this call created (a new trace file, the folder) is
  /// removed again, so a failed import leaves the disk as it was.
  static func writePair(
    _ trace: (text: String, path: String), then scenario: (text: String, path: String),
    in folder: String
  ) throws(JetsimError) {
    let created: [String]
    do {
      created = try FileSystem.makeDirectories(folder)
    } catch {
      throw error.notWritable(folder)
    }
    let traceIsNew = FileSystem.entry(at: trace.path) == .none
    do {
      try AtomicFile.write(trace.text, to: trace.path, output: .trace)
      try AtomicFile.write(scenario.text, to: scenario.path, output: .scenario)
    } catch {
      if traceIsNew { unlink(trace.path) }
      FileSystem.removeEmptyFolders(created)
      throw error
    }
  }

  /// The trace CSV of `actions` (the format `TraceReader` reads).
  public static func traceCSV(_ actions: [TimedAction]) -> String {
    var out = CSVBuffer()
    out.appendRow(TraceReader.header)
    for timed in actions {
      out.append(timed.timeMs)
      out.comma()
      out.append(field: timed.action.name)
      out.comma()
      out.append(field: timed.action.app ?? "", formulaSafe: false)
      out.comma()
      out.newline()
    }
    return String(decoding: out.bytes, as: UTF8.self)
  }
}

/// Timestamps of logs, read without locale or time-zone dependence: `YYYY-MM-DD HH:MM:SS` (taken as
/// UTC, fractions of a second allowed) or whole seconds since 1970.
enum Timestamp {
  /// Whole seconds since 1970 accepted: years 1 to 9999, so that any two are less than
  /// `Int.max` milliseconds apart.
  static let secondsRange = -62_135_596_800...253_402_300_799

  static func milliseconds(_ text: String) -> Int? {
    let trimmed = text.trimmingSpaces()
    if let seconds = Int(trimmed) {
      return secondsRange.contains(seconds) ? seconds * 1000 : nil
    }
    let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" })
    guard parts.count == 2 else { return nil }
    let date = parts[0].split(separator: "-").compactMap { Int($0) }
    let clock = parts[1].split(separator: ":")
    guard date.count == 3, clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]),
      let second = Double(clock[2]), (1...9999).contains(date[0]), (1...12).contains(date[1]),
      (1...31).contains(date[2]),
      (0..<24).contains(hour),
      (0..<60).contains(minute), second >= 0, second < 61
    else { return nil }
    return (days(year: date[0], month: date[1], day: date[2]) * 86_400 + hour * 3_600 + minute * 60)
      * 1000
      + Int((second * 1000).rounded())
  }

  /// Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

extension String {
  /// Tab-separated text as comma-separated text (fields holding commas are quoted).
  fileprivate func replacingTabs() -> String {
    // "\r\n" is one Character in Swift: split on both line ends, so Windows logs work too.
    split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
      line in
      line.split(separator: "\t", omittingEmptySubsequences: false).map { field in
        String(decoding: CSVBuffer.encode(field: String(field), formulaSafe: false), as: UTF8.self)
      }.joined(separator: ",")
    }.joined(separator: "\n")
  }
}
