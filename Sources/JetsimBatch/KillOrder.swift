import JetsimCore
import JetsimIO

/// The differences between a golden report and a run's, in words: kill sequences (and event logs)
/// aligned by their order of who, why and in which state, numbers compared only when asked.
package enum KillOrder {
  /// A report's rows, by column name.
  struct Table {
    var columns: [String]
    var rows: [[String: String]]

    init?(_ text: String) {
      guard let records = try? CSVReader.records(text), let header = records.first?.fields else {
        return nil
      }
      columns = header
      rows = records.dropFirst().map { record in
        Dictionary(zip(header, record.fields), uniquingKeysWith: { first, _ in first })
      }
    }
  }

  /// A report compared row by row: its file, what a row is called, how rows are matched and
  /// described, and which columns hold numbers.
  package struct Rows {
    let file: ReportFile
    let noun: String
    let key: ([String: String]) -> String
    let describe: ([String: String]) -> String
    let numberColumns: [String]

    /// `kills.csv`: kills matched by who, why and in which state.
    package static var kills: Rows {
      Rows(
        file: .kills, noun: "kill",
        key: { row in
          KillColumn.names(comparedAs: .identity).map { row[$0] ?? "" }.joined(separator: "|")
        },
        describe: victim, numberColumns: KillColumn.names(comparedAs: .value))
    }

    /// `events.csv`: events matched by what happened to whom.
    package static var events: Rows {
      Rows(
        file: .events, noun: "event", key: summary, describe: { "'\(summary($0))'" },
        numberColumns: EventColumn.names(comparedAs: .value))
    }
  }

  /// The differences between two copies of `report` (`kills.csv` or
  /// `events.csv`): its rows aligned, and with `numbers` their numbers compared within `tolerance`.
  package static func differences(
    in report: Rows, expected: String, actual: String, numbers: Bool,
    tolerance: NumberTolerance? = nil
  ) -> [String] {
    let (file, noun, describe) = (report.file.name, report.noun, report.describe)
    guard let want = Table(expected) else { return ["the golden \(file) is not CSV"] }
    guard let got = Table(actual) else { return ["the run's \(file) is not CSV"] }
    var differences: [String] = []
    if numbers, want.columns != got.columns {
      differences.append(
        "\(file) columns differ: expected \(want.columns.joined(separator: ",").excerpt(limit: 200)), got \(got.columns.joined(separator: ","))"
      )
    }
    let wantKeys = want.rows.map(report.key)
    let gotKeys = got.rows.map(report.key)
    guard let steps = SequenceDiff.align(wantKeys, gotKeys) else {
      // Too far apart to align: say where they part and how much differs.
      let common = zip(wantKeys, gotKeys).prefix { $0 == $1 }.count
      return differences + [
        "the \(noun)s part after \(noun) #\(common) (\(noun) #\(common + 1) at \(clock(want.rows[safe: common]?[EventColumn.timeMs.name] ?? got.rows[safe: common]?[EventColumn.timeMs.name]))) and differ in more than 2000 places: \(want.rows.count) expected, \(got.rows.count) run"
      ]
    }
    return differences
      + words(
        for: steps, noun: noun, expected: { describe(want.rows[$0]) },
        actual: { describe(got.rows[$0]) },
        expectedTime: { clock(want.rows[$0][EventColumn.timeMs.name]) },
        actualTime: { clock(got.rows[$0][EventColumn.timeMs.name]) },
        kept: { w, g in
          guard numbers else { return nil }
          let (expectedRow, actualRow) = (want.rows[w], got.rows[g])
          let changed = report.numberColumns.filter { column in
            !(tolerance?.matches(expectedRow[column], actualRow[column], column: column)
              ?? (expectedRow[column] == actualRow[column]))
          }.map { column in
            let (want, got) = values(expectedRow[column], actualRow[column], column)
            return "\(column) expected \(want), got \(got)"
          }
          return changed.isEmpty
            ? nil
            : "\(noun) #\(w + 1) (\(clock(actualRow[EventColumn.timeMs.name]))), \(describe(actualRow)): \(changed.joined(separator: "; "))"
        })
  }

  /// The differences an alignment shows, in words: a deletion and an insertion side by side are
  /// one replaced element (`kill #3 (00:12:05.200): expected …, got …`), a lone deletion a missing
  /// one, a lone insertion an extra one; `kept` may say what differs between kept elements.
  package static func words(
    for steps: [SequenceDiff.Step], noun: String, expected: (Int) -> String,
    actual: (Int) -> String, expectedTime: (Int) -> String?, actualTime: (Int) -> String?,
    kept: (Int, Int) -> String? = { _, _ in nil }
  ) -> [String] {
    func at(_ time: String?) -> String { time.map { " (\($0))" } ?? "" }
    var differences: [String] = []
    var deleted: [Int] = []
    var inserted: [Int] = []
    var keptBefore = 0
    func flush() {
      let paired = min(deleted.count, inserted.count)
      for (w, g) in zip(deleted, inserted) {
        differences.append(
          "\(noun) #\(w + 1)\(at(actualTime(g))): expected \(expected(w)), got \(actual(g))")
      }
      for w in deleted.dropFirst(paired) {
        differences.append(
          "\(noun) #\(w + 1)\(at(expectedTime(w))): expected \(expected(w)), got no \(noun) there")
      }
      for g in inserted.dropFirst(paired) {
        differences.append(
          "an extra \(noun) after \(noun) #\(keptBefore)\(at(actualTime(g))): \(actual(g))")
      }
      deleted = []
      inserted = []
    }
    for step in steps {
      switch step {
      case .delete(let index): deleted.append(index)
      case .insert(let index): inserted.append(index)
      case .keep(let w, let g):
        flush()
        keptBefore = w + 1
        if let difference = kept(w, g) { differences.append(difference) }
      }
    }
    flush()
    return differences
  }

  /// `com.example.game (412.0 MB, suspended)`, with the reason when it is not a pressure kill.
  static func victim(_ row: [String: String]) -> String {
    let size = Int(row[KillColumn.footprintKB] ?? "").map(Units.megabytes) ?? "?"
    let reason = row[KillColumn.reason].flatMap { $0 == "vm-pageshortage" ? nil : ", \($0)" } ?? ""
    return
      "\((row[KillColumn.app] ?? "?").excerpt(limit: 60)) (\(size), \(row[KillColumn.state] ?? "?")\(reason))"
  }

  /// `com.example.maps enter-background inactive>background didEnterBackground`.
  static func summary(_ row: [String: String]) -> String {
    var parts = [
      row[EventColumn.app].flatMap { $0.isEmpty ? nil : $0.excerpt(limit: 60) },
      row[EventColumn.event],
    ]
    if let from = row[EventColumn.fromState], !from.isEmpty {
      parts.append("\(from)>\(row[EventColumn.toState] ?? "")")
    }
    parts.append(row[EventColumn.callback].flatMap { $0.isEmpty ? nil : $0 })
    parts.append(row[EventColumn.detail].flatMap { $0.isEmpty ? nil : "(\($0))" })
    return parts.compactMap { $0 }.joined(separator: " ")
  }

  /// Two values of `column` as a message shows them: sizes (columns in KB) in MB, with the KB when
  /// the MB read the same; other text as it is.
  static func values(_ expected: String?, _ actual: String?, _ column: String) -> (String, String) {
    let (want, got) = (expected ?? "", actual ?? "")
    guard column.hasSuffix("_kb"), let a = Int(want), let b = Int(got) else {
      return (want.excerpt(limit: 30), got.excerpt(limit: 30))
    }
    let (x, y) = (Units.megabytes(a), Units.megabytes(b))
    return x == y ? ("\(x) (\(a) KB)", "\(y) (\(b) KB)") : (x, y)
  }

  static func clock(_ milliseconds: String?) -> String {
    milliseconds.flatMap(Int.init).map(Units.clock) ?? "?"
  }
}

extension Array {
  /// The element at `index`, if there is one.
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension Dictionary where Key == String, Value == String {
  /// The value of a `kills.csv` column in a row read by name.
  subscript(_ column: KillColumn) -> String? { self[column.name] }
  /// The value of an `events.csv` column in a row read by name.
  subscript(_ column: EventColumn) -> String? { self[column.name] }
}
