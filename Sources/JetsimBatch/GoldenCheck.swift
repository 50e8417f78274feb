import Foundation
import JetsimCore
import JetsimIO

/// The result of comparing a run with the golden reports in a folder (`jetsim check`).
public struct GoldenCheckResult: Sendable, Equatable {
  /// The scenario checked.
  public var scenario: String
  /// The golden folder.
  public var folder: String
  /// Every difference, in words, kills first: `kill #3 at 00:12:05.200: expected com.example.game
  /// (412.0 MB, suspended), got com.example.maps (388.0 MB, suspended)`.
  public var differences: [String]
  /// The number of kills and (if checked) events in the run.
  public var kills: Int
  public var events: Int?
  /// The inputs whose digests differ from the golden's `run.json`; nil if it has none.
  public var changedInputs: [String]?

  /// Whether the run matched the golden reports.
  public var passed: Bool { differences.isEmpty }

  /// What happened, for people: the first `limit` differences, a count of the rest, and whether the
  /// behaviour or the inputs changed.
  public func report(limit: Int = 5) -> String {
    if passed {
      var text =
        "\(scenario): kill order matches \(folder) (\(kills) \(kills == 1 ? "kill" : "kills")"
      text += events.map { "; \($0) events match" } ?? ""
      text += ")\n"
      if let changedInputs, !changedInputs.isEmpty {
        text +=
          "  note: the inputs changed since the golden was recorded (\(changedInputs.joined(separator: ", "))), but the behaviour did not\n"
      }
      return text
    }
    let noun = differences.count == 1 ? "difference" : "differences"
    var lines = ["\(scenario): the run differs from \(folder) (\(differences.count) \(noun))"]
    lines += differences.prefix(limit).map { "  \($0)" }
    if differences.count > limit {
      let rest = differences.count - limit
      lines.append("  and \(rest) more \(rest == 1 ? "difference" : "differences")")
    }
    switch changedInputs {
    case nil:
      lines.append(
        "  cause unknown: the golden folder has no run.json to tell whether the inputs changed")
    case let changes? where changes.isEmpty:
      lines.append(
        "  cause: behaviour changed; the scenario and its profiles are the ones the golden was recorded with"
      )
    case let changes?:
      lines.append(
        "  cause: the inputs changed since the golden was recorded: \(changes.joined(separator: ", "))"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Compares runs with golden reports, and re-records them.
public enum GoldenCheck {
  /// The report files a golden folder may hold, in the order they are compared and written.
  public static let files = [
    "kills.csv", "events.csv", "apps.csv", "summary.csv", "run.json", "report.html",
  ]

  /// Runs `scenario` and compares its kills (and with `events`, its event log) with the golden
  /// `kills.csv` (and `events.csv`) in `folder`.
  public static func check(_ scenario: Scenario, against folder: String, events: Bool = false)
    throws(JetsimError)
    -> GoldenCheckResult
  {
    let result = try Simulator.run(scenario)
    let csv = result.csv
    var differences = killDifferences(
      expected: try golden("kills.csv", in: folder), actual: csv.kills)
    if events {
      differences += eventDifferences(
        expected: try golden("events.csv", in: folder), actual: csv.events)
    }
    let recorded = FileManager.default.contents(atPath: "\(folder)/run.json").flatMap(
      Provenance.init(json:))
    return GoldenCheckResult(
      scenario: scenario.name, folder: folder, differences: differences, kills: result.kills.count,
      events: events ? result.events.count : nil,
      changedInputs: recorded?.changedInputs(comparedTo: scenario.inputs))
  }

  /// Re-records the golden reports of `scenario` in `folder`: the files already there (at least
  /// `kills.csv` and `run.json`, plus `events.csv` with `events`), writing only those whose content
  /// changed. Returns `(file, written)` for each file considered.
  public static func update(_ scenario: Scenario, in folder: String, events: Bool = false)
    throws(JetsimError)
    -> [(file: String, written: Bool)]
  {
    let result = try Simulator.run(scenario)
    let csv = result.csv
    let contents: [String: String] = [
      "kills.csv": csv.kills, "events.csv": csv.events, "apps.csv": csv.apps,
      "summary.csv": csv.summary,
      "run.json": Provenance(scenario: scenario, summary: result.summary).json,
      "report.html": HTMLReport.render(result, device: scenario.device),
    ]
    let manager = FileManager.default
    var chosen = files.filter { manager.fileExists(atPath: "\(folder)/\($0)") }
    for required in ["kills.csv", "run.json"] + (events ? ["events.csv"] : [])
    where !chosen.contains(required) {
      chosen.append(required)
    }
    var outcome: [(String, Bool)] = []
    do {
      try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      for file in files where chosen.contains(file) {
        let text = contents[file] ?? ""
        let path = "\(folder)/\(file)"
        let changed = manager.contents(atPath: path) != Data(text.utf8)
        if changed { try AtomicFile.write(text, to: path) }
        outcome.append((file, changed))
      }
    } catch let error as JetsimError {
      throw error
    } catch {
      throw .outputNotWritable(path: folder, reason: FileFailure.reason(error))
    }
    return outcome
  }

  private static func golden(_ file: String, in folder: String) throws(JetsimError) -> String {
    let path = "\(folder)/\(file)"
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .fileNotFound(path: path)
    }
    return String(decoding: data, as: UTF8.self)
  }

  // MARK: - Differences in words

  /// The rows of a report as dictionaries by column, with the header; nil if it is not CSV.
  static func rows(_ text: String) -> (header: [String], rows: [[String: String]])? {
    guard let records = try? CSVReader.records(text), let header = records.first?.fields else {
      return nil
    }
    let rows = records.dropFirst().map { record in
      Dictionary(zip(header, record.fields), uniquingKeysWith: { first, _ in first })
    }
    return (header, rows)
  }

  /// The rows of two reports paired by position; each pair that differs (a row may be missing on
  /// either side) is put in words by `describe(number, time, expected, actual, columns)`.
  private static func differences(
    in file: String, expected: String, actual: String,
    describe: (Int, String, [String: String]?, [String: String]?, [String]) -> String?
  ) -> [String] {
    guard let want = rows(expected), let got = rows(actual) else { return ["\(file) is not CSV"] }
    guard want.header == got.header else {
      return [
        "\(file) columns differ: expected \(want.header.joined(separator: ",")), got \(got.header.joined(separator: ","))"
      ]
    }
    var differences: [String] = []
    for index in 0..<max(want.rows.count, got.rows.count) {
      let expected = index < want.rows.count ? want.rows[index] : nil
      let actual = index < got.rows.count ? got.rows[index] : nil
      guard expected != actual else { continue }
      if let sentence = describe(
        index + 1, clock((expected ?? actual)?["time_ms"]), expected, actual, want.header)
      {
        differences.append(sentence)
      }
    }
    return differences
  }

  /// `field expected x, got y; ...` for the columns that differ between two rows, in column order.
  private static func changedFields(
    _ expected: [String: String], _ actual: [String: String], columns: [String],
    except ignored: String? = nil
  ) -> String {
    columns.filter { expected[$0] != actual[$0] && $0 != ignored }
      .map { "\($0) expected \(expected[$0] ?? ""), got \(actual[$0] ?? "")" }.joined(
        separator: "; ")
  }

  /// The differences between two `kills.csv`, one sentence per kill that differs.
  public static func killDifferences(expected: String, actual: String) -> [String] {
    differences(in: "kills.csv", expected: expected, actual: actual) {
      number, time, expected, actual, columns in
      switch (expected, actual) {
      case let (expected?, actual?) where victim(expected) == victim(actual):
        let detail = changedFields(expected, actual, columns: columns, except: "seq")
        return detail.isEmpty
          ? nil : "kill #\(number) at \(time), \(expected["app"] ?? ""): \(detail)"
      case let (expected?, actual?):
        let when = expected["time_ms"] == actual["time_ms"] ? "" : " at \(clock(actual["time_ms"]))"
        return
          "kill #\(number) at \(time): expected \(victim(expected)), got \(victim(actual))\(when)"
      case let (expected?, nil):
        return "kill #\(number) at \(time): expected \(victim(expected)), got no kill"
      case let (nil, actual?):
        return "kill #\(number) at \(time): expected no kill, got \(victim(actual))"
      default:
        return nil
      }
    }
  }

  /// `com.example.game (412.0 MB, suspended)`, with the reason when it is not a pressure kill.
  private static func victim(_ row: [String: String]) -> String {
    let size = Int(row["footprint_kb"] ?? "").map(Units.megabytes) ?? "?"
    let reason = row["reason"].flatMap { $0 == "vm-pageshortage" ? nil : ", \($0)" } ?? ""
    return "\(row["app"] ?? "?") (\(size), \(row["state"] ?? "?")\(reason))"
  }

  /// The differences between two `events.csv`, one sentence per event that differs.
  public static func eventDifferences(expected: String, actual: String) -> [String] {
    differences(in: "events.csv", expected: expected, actual: actual) {
      number, time, expected, actual, columns in
      let prefix = "event #\(number) at \(time)"
      switch (expected, actual) {
      case let (expected?, actual?) where summary(expected) == summary(actual):
        return
          "\(prefix), \(summary(expected)): \(changedFields(expected, actual, columns: columns))"
      case let (expected?, actual?):
        return "\(prefix): expected '\(summary(expected))', got '\(summary(actual))'"
      case let (expected?, nil):
        return "\(prefix): expected '\(summary(expected))', got no event"
      case let (nil, actual?):
        return "\(prefix): expected no event, got '\(summary(actual))'"
      default:
        return nil
      }
    }
  }

  /// `com.example.maps enter-background inactive>background didEnterBackground`.
  private static func summary(_ row: [String: String]) -> String {
    var parts = [row["app"].flatMap { $0.isEmpty ? nil : $0 }, row["event"]]
    if let from = row["from_state"], !from.isEmpty {
      parts.append("\(from)>\(row["to_state"] ?? "")")
    }
    parts.append(row["callback"].flatMap { $0.isEmpty ? nil : $0 })
    parts.append(row["detail"].flatMap { $0.isEmpty ? nil : "(\($0))" })
    return parts.compactMap { $0 }.joined(separator: " ")
  }

  private static func clock(_ milliseconds: String?) -> String {
    milliseconds.flatMap(Int.init).map(Units.clock) ?? "?"
  }
}
