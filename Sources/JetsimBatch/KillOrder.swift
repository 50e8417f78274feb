import JetsimCore
import JetsimIO

/// The differences between a golden report and a run's, in words: kill sequences (and event logs)
/// aligned by their order of who, why and in which state, numbers compared only when asked.
package enum KillOrder {
  /// A report's rows, read by column name. The cells lie in one array, row after row (a long
  /// run's event log has millions: no dictionary, nor array, a row).
  struct Table {
    private(set) var columns: [String]
    /// Where each column is in a row (the first, if a header names it twice).
    private var position: [String: Int] = [:]
    /// The header's cells, then each row's.
    private var cells: [String]
    /// The number of rows.
    private(set) var count: Int

    /// One row of a table.
    struct Row {
      fileprivate let table: Table
      fileprivate let start: Int

      /// The row's value in `column`, if the table has that column.
      subscript(_ column: String) -> String? {
        table.position[column].map { table.cells[start + $0] }
      }
      /// The value of a `kills.csv` column.
      subscript(_ column: KillColumn) -> String? { self[column.name] }
      /// The value of an `events.csv` column.
      subscript(_ column: EventColumn) -> String? { self[column.name] }
    }

    /// Row `index` (from 0).
    func row(_ index: Int) -> Row { Row(table: self, start: (index + 1) * columns.count) }
    /// Row `index`'s value in `column`, if there is such a row and column.
    func cell(_ index: Int, _ column: String) -> String? {
      index < count ? row(index)[column] : nil
    }
    /// Every row, in order.
    var rows: [Row] { (0..<count).map(row) }

    /// The table of `text`, nil if it is not CSV, is empty, or has a row of another width than
    /// its header.
    init?(_ text: String) {
      guard let records = try? CSVReader.flatRecords(text), let table = Table(records) else {
        return nil
      }
      self = table
    }

    /// The table of `records` (the first is the header), nil if there is none or a record is of
    /// another width.
    init?(_ records: CSVReader.Flat) {
      guard records.count > 0 else { return nil }
      let header = Array(records.fields(of: 0))
      guard Self.raggedRecord(records) == nil else { return nil }
      self.init(columns: header, cells: records.fields)
    }

    /// The first record of `records` of another width than the first (the header), if any.
    private static func raggedRecord(_ records: CSVReader.Flat) -> Int? {
      let width = records.fields(of: 0).count
      return (1..<records.count).first { records.fields(of: $0).count != width }
    }

    /// The table of `columns` whose `cells` are the header's, then each row's.
    private init(columns: [String], cells: [String]) {
      self.columns = columns
      self.cells = cells
      count = columns.isEmpty ? 0 : cells.count / columns.count - 1
      for (index, column) in columns.enumerated() where position[column] == nil {
        position[column] = index
      }
    }

    /// The golden copy of `report` at `path`, or why it cannot be compared: empty, not CSV, a row
    /// of another width, or a header that is not this jetsim's. With `otherColumns` (a golden
    /// another jetsim version recorded) any header with an app and a time will do: rows are then
    /// matched by the columns both copies have.
    init(golden text: String, of report: Rows, at path: String, otherColumns: Bool)
      throws(JetsimError)
    {
      let records: CSVReader.Flat
      do {
        records = try CSVReader.flatRecords(text)
      } catch {
        let (line, fault) =
          switch error {
          case .unterminatedQuote(let line): (line, "a quote is not closed")
          case .textAfterQuote(let line): (line, "text follows a closing quote")
          }
        throw .badGolden(path: path, line: line, problem: "it is not CSV (\(fault))")
      }
      let expected =
        "jetsim's \(report.file.name) header (\(report.columns.joined(separator: ",")))"
      guard records.count > 0 else {
        throw .badGolden(path: path, line: nil, problem: "the file is empty; expected \(expected)")
      }
      let header = (fields: Array(records.fields(of: 0)), line: records.lines[0])
      let named = [EventColumn.app.name, EventColumn.timeMs.name]
      guard
        header.fields == report.columns
          || (otherColumns && named.allSatisfy(header.fields.contains))
      else {
        throw .badGolden(
          path: path, line: header.line,
          problem:
            "the header \(header.fields.joined(separator: ",").excerpt(limit: 60)) is not \(expected)"
        )
      }
      if let row = Self.raggedRecord(records) {
        throw .badGolden(
          path: path, line: records.lines[row],
          problem:
            "\(records.fields(of: row).count) fields where the header has \(header.fields.count)")
      }
      self.init(columns: header.fields, cells: records.fields)
    }

    /// The table with only the columns in `kept`, in its order.
    func keeping(_ kept: Set<String>) -> Table {
      let indices = columns.indices.filter { kept.contains(columns[$0]) }
      var cells: [String] = []
      cells.reserveCapacity(indices.count * (count + 1))
      for row in 0...count {
        let start = row * columns.count
        for index in indices { cells.append(self.cells[start + index]) }
      }
      return Table(columns: indices.map { columns[$0] }, cells: cells)
    }
  }

  /// A report compared row by row: its file, what a row is called, how rows are matched and
  /// described, and which columns hold numbers.
  package struct Rows {
    let file: ReportFile
    let noun: String
    /// This jetsim's header of the file.
    let columns: [String]
    let key: (Table.Row) -> String
    let describe: (Table.Row) -> String
    /// A row's short name, for a move.
    let name: (Table.Row) -> String
    let numberColumns: [String]

    /// `kills.csv`: kills matched by who, why and in which state.
    package static var kills: Rows {
      let identity = KillColumn.names(comparedAs: .identity)
      return Rows(
        file: .kills, noun: "kill", columns: ReportTables.killColumns,
        key: { row in identity.map { row[$0] ?? "" }.joined(separator: "|") },
        describe: victim, name: { ($0[KillColumn.app] ?? "?").excerpt(limit: 60) },
        numberColumns: KillColumn.names(comparedAs: .value))
    }

    /// `events.csv`: events matched by what happened to whom.
    package static var events: Rows {
      Rows(
        file: .events, noun: "event", columns: ReportTables.eventColumns, key: summary,
        describe: { "'\(summary($0))'" },
        name: { "'\(summary($0))'" }, numberColumns: EventColumn.names(comparedAs: .value))
    }
  }

  /// The differences between two copies of `report` (`kills.csv` or `events.csv`), one a line.
  package static func differences(
    in report: Rows, expected: String, actual: String, numbers: Bool,
    tolerance: NumberTolerance? = nil
  ) -> [String] {
    compare(report, expected: expected, actual: actual, numbers: numbers, tolerance: tolerance)
      .lines
  }

  /// The differences between two copies of `report` (`kills.csv` or `events.csv`): its rows
  /// aligned, moves named, and with `numbers` their numbers compared within `tolerance`.
  package static func compare(
    _ report: Rows, expected: String, actual: String, numbers: Bool,
    tolerance: NumberTolerance? = nil
  ) -> Words {
    let file = report.file.name
    guard let want = Table(expected) else {
      return Words(lines: ["the golden \(file) is not CSV of the header's width"])
    }
    return compare(
      report, expected: want, actual: actual, numbers: numbers, tolerance: tolerance)
  }

  /// The differences between the golden `expected` table of `report` and a run's copy, compared
  /// on the columns both have (a golden an older jetsim recorded may have others).
  static func compare(
    _ report: Rows, expected golden: Table, actual: String, numbers: Bool,
    tolerance: NumberTolerance?
  ) -> Words {
    let (file, noun, describe) = (report.file.name, report.noun, report.describe)
    guard var got = Table(actual) else {
      return Words(lines: ["the run's \(file) is not CSV of the header's width"])
    }
    var want = golden
    var columns: [String] = []
    if want.columns != got.columns {
      if numbers {
        columns.append(
          "\(file) columns differ: expected \(want.columns.joined(separator: ",").excerpt(limit: 200)), got \(got.columns.joined(separator: ","))"
        )
      }
      let shared = Set(want.columns).intersection(got.columns)
      guard !shared.isEmpty else {
        return Words(lines: columns + ["the golden \(file) and the run's have no column in common"])
      }
      (want, got) = (want.keeping(shared), got.keeping(shared))
    }
    // Each row's key as a number, one a distinct key: a long event log has millions of rows and a
    // few thousand keys.
    var keys = KeyNumbers()
    let wantKeys = (0..<want.count).map { keys.number(report.key(want.row($0))) }
    let gotKeys = (0..<got.count).map { keys.number(report.key(got.row($0))) }
    guard let steps = SequenceDiff.align(wantKeys, gotKeys) else {
      // Too far apart to align: say where they part and how much differs.
      let common = zip(wantKeys, gotKeys).prefix { $0 == $1 }.count
      return Words(
        lines: columns + [
          "the \(noun)s part after \(noun) #\(common) (\(noun) #\(common + 1) at \(clock(want.cell(common, EventColumn.timeMs.name) ?? got.cell(common, EventColumn.timeMs.name)))) and differ in more than 2000 places: \(want.count) expected, \(got.count) run"
        ])
    }
    let elements = Elements(
      noun: noun, expectedKey: { [keys] in keys.names[wantKeys[$0]] },
      actualKey: { [keys] in keys.names[gotKeys[$0]] },
      name: { report.name(got.row($0)) }, expected: { describe(want.row($0)) },
      actual: { describe(got.row($0)) },
      expectedTime: { clock(want.row($0)[EventColumn.timeMs]) },
      actualTime: { clock(got.row($0)[EventColumn.timeMs]) })
    var words = Self.words(for: steps, elements) { w, g in
      guard numbers else { return nil }
      return numberChanges(report, want.row(w), got.row(g), position: w + 1, tolerance)
    }
    words.lines = columns + words.lines
    return words
  }

  /// Distinct keys, numbered in the order they are met.
  struct KeyNumbers {
    private(set) var names: [String] = []
    private var numbers: [String: Int] = [:]

    /// The number of `key`, given it if it is new.
    mutating func number(_ key: String) -> Int {
      if let number = numbers[key] { return number }
      names.append(key)
      numbers[key] = names.count - 1
      return names.count - 1
    }
  }

  /// `kill #1 (00:22:30.000), com.example.photofeed (242.0 MB, suspended): footprint_kb expected
  /// …, got …`: the numbers of a kept row that differ from the golden's beyond `tolerance`; nil if
  /// none does.
  static func numberChanges(
    _ report: Rows, _ expectedRow: Table.Row, _ actualRow: Table.Row, position: Int,
    _ tolerance: NumberTolerance?
  ) -> String? {
    let changed = report.numberColumns.filter { column in
      !(tolerance?.matches(expectedRow[column], actualRow[column], column: column)
        ?? (expectedRow[column] == actualRow[column]))
    }.map { column in
      let (want, got) = values(expectedRow[column], actualRow[column], column)
      return "\(column) expected \(want), got \(got)"
    }
    return changed.isEmpty
      ? nil
      : "\(report.noun) #\(position) (\(clock(actualRow[EventColumn.timeMs.name]))), \(report.describe(actualRow)): \(changed.joined(separator: "; "))"
  }

  /// How the elements of two aligned sequences are matched and worded: what one is called, the
  /// key that tells a moved element (the same key in both, at other positions), a short name for a
  /// move, a full description and a time for each side.
  package struct Elements {
    /// What one element is called (`kill`).
    let noun: String
    /// The keys of the expected and the actual elements: equal keys are the same element.
    let expectedKey: (Int) -> String
    let actualKey: (Int) -> String
    /// An actual element's short name, for a move (`com.example.browser`).
    let name: (Int) -> String
    /// Full descriptions (`com.example.game (412.0 MB, suspended)`).
    let expected: (Int) -> String
    let actual: (Int) -> String
    /// Times (`00:57:00.000`), where the sequence has them.
    let expectedTime: (Int) -> String?
    let actualTime: (Int) -> String?

    /// Elements matched by `expectedKey` and `actualKey`, shown by `name`, `expected` and `actual`
    /// with their times.
    package init(
      noun: String, expectedKey: @escaping (Int) -> String, actualKey: @escaping (Int) -> String,
      name: @escaping (Int) -> String, expected: @escaping (Int) -> String,
      actual: @escaping (Int) -> String, expectedTime: @escaping (Int) -> String?,
      actualTime: @escaping (Int) -> String?
    ) {
      self.noun = noun
      self.expectedKey = expectedKey
      self.actualKey = actualKey
      self.name = name
      self.expected = expected
      self.actual = actual
      self.expectedTime = expectedTime
      self.actualTime = actualTime
    }
  }

  /// An alignment in words, one difference a line, and the edits counted.
  package struct Words: Equatable, Sendable {
    /// The differences, in the order of the sequences.
    package var lines: [String] = []
    /// The moves, insertions, deletions and changes the lines show.
    package var edits = OrderEdits()
  }

  /// The differences an alignment shows, in words (a longest-common-subsequence diff with moves, as
  /// `git diff --color-moved` shows them): an element deleted from one place and inserted at
  /// another is one move (`com.example.browser moved from #6 to #10 (00:57:00.000)`); of the rest,
  /// a deletion and an insertion side by side are one replaced element (`kill #3 (00:12:05.200):
  /// expected …, got …`), a lone deletion a missing one, a lone insertion an extra one; `kept` may
  /// say what differs between kept elements.
  ///
  /// - Complexity: O(*s*) for *s* steps, plus the cost of the closures.
  package static func words(
    for steps: [SequenceDiff.Step], _ elements: Elements,
    kept: (Int, Int) -> String? = { _, _ in nil }
  ) -> Words {
    let moved = moves(in: steps, elements)
    let movedFrom = Dictionary(moved.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
    var words = Words()
    var hunk = Hunk()
    var shown = Set<Int>()
    func move(_ w: Int, _ g: Int) {
      guard shown.insert(w).inserted else { return }
      words.lines.append(moveLine(w, g, elements))
      words.edits.moves += 1
    }
    for step in steps {
      switch step {
      case .delete(let w):
        if let g = moved[w] { move(w, g) } else { hunk.deleted.append(w) }
      case .insert(let g):
        if let w = movedFrom[g] { move(w, g) } else { hunk.inserted.append(g) }
      case .keep(let w, let g):
        hunk.flush(into: &words, elements)
        hunk.keptBefore = w + 1
        if let difference = kept(w, g) {
          words.lines.append(difference)
          words.edits.changes += 1
        }
      }
    }
    hunk.flush(into: &words, elements)
    return words
  }

  /// The moves in an alignment: each deleted element paired with the first unpaired inserted element
  /// of the same key, in order (expected index to actual index).
  ///
  /// - Complexity: O(*s*) for *s* steps.
  static func moves(in steps: [SequenceDiff.Step], _ elements: Elements) -> [Int: Int] {
    var inserted: [String: [Int]] = [:]
    for case .insert(let g) in steps { inserted[elements.actualKey(g), default: []].append(g) }
    var used: [String: Int] = [:]
    var moves: [Int: Int] = [:]
    for case .delete(let w) in steps {
      let key = elements.expectedKey(w)
      let next = used[key, default: 0]
      guard let candidates = inserted[key], next < candidates.count else { continue }
      moves[w] = candidates[next]
      used[key] = next + 1
    }
    return moves
  }

  /// `com.example.browser moved from #6 to #10 (00:57:00.000)`, with both times when they differ.
  static func moveLine(_ w: Int, _ g: Int, _ elements: Elements) -> String {
    let (from, to) = (elements.expectedTime(w), elements.actualTime(g))
    let at = { (time: String?) in time.map { " (\($0))" } ?? "" }
    let positions =
      from == nil || from == to
      ? "#\(w + 1) to #\(g + 1)\(at(to))" : "#\(w + 1)\(at(from)) to #\(g + 1)\(at(to))"
    return "\(elements.name(g)) moved from \(positions)"
  }

  /// The deletions and insertions between two kept elements that are not moves.
  struct Hunk {
    var deleted: [Int] = []
    var inserted: [Int] = []
    /// The number of expected elements before the hunk.
    var keptBefore = 0

    /// Words the hunk (replaced, missing, then extra elements) and empties it.
    mutating func flush(into words: inout Words, _ elements: Elements) {
      let noun = elements.noun
      let at = { (time: String?) in time.map { " (\($0))" } ?? "" }
      for (w, g) in zip(deleted, inserted) {
        words.lines.append(
          "\(noun) #\(w + 1)\(at(elements.actualTime(g))): expected \(elements.expected(w)), got \(elements.actual(g))"
        )
      }
      let paired = min(deleted.count, inserted.count)
      for w in deleted.dropFirst(paired) {
        words.lines.append(
          "\(noun) #\(w + 1)\(at(elements.expectedTime(w))): expected \(elements.expected(w)), got no \(noun) there"
        )
      }
      // Extra elements come after the last replaced one, else after the last kept one.
      let after = paired > 0 ? deleted[paired - 1] + 1 : keptBefore
      let place = after == 0 ? "before \(noun) #1" : "after \(noun) #\(after)"
      for g in inserted.dropFirst(paired) {
        words.lines.append(
          "an extra \(noun) \(place)\(at(elements.actualTime(g))): \(elements.actual(g))")
      }
      words.edits.deletions += deleted.count
      words.edits.insertions += inserted.count
      deleted = []
      inserted = []
    }
  }

  /// `com.example.game (412.0 MB, suspended)`, with the reason when it is not a pressure kill.
  static func victim(_ row: Table.Row) -> String {
    let size = Int(row[KillColumn.footprintKB] ?? "").map(Units.megabytes) ?? "?"
    let reason = row[KillColumn.reason].flatMap { $0 == "vm-pageshortage" ? nil : ", \($0)" } ?? ""
    return
      "\((row[KillColumn.app] ?? "?").excerpt(limit: 60)) (\(size), \(row[KillColumn.state] ?? "?")\(reason))"
  }

  /// `com.example.maps enter-background inactive>background didEnterBackground`.
  static func summary(_ row: Table.Row) -> String {
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
