/// One row of a table of counters that a simulation keeps for all its processes (a process's row
/// `width` values long), read where it lies, as `Int`s. Each app's statistics at the end of a run
/// share the run's tables (copied only if the run changes them afterwards) instead of holding
/// arrays of their own, so the statistics of 10,000 apps take no allocation each.
struct TableRow<Element: FixedWidthInteger & Sendable>: Sendable, Equatable {
  /// The whole table; empty for a row of zeros.
  private let table: [Element]
  private let start: Int
  /// The number of values in the row.
  let count: Int

  /// A row of `count` zeros.
  init(zeros count: Int) {
    table = []
    start = 0
    self.count = count
  }

  /// Row `row` of `table`, rows `width` long.
  init(_ table: [Element], row: Int, width: Int) {
    self.table = table
    start = row * width
    count = width
  }

  /// The row's value at `index` (0 ..< `count`).
  subscript(index: Int) -> Int { table.isEmpty ? 0 : Int(table[start + index]) }

  /// The row as an array of its own.
  var values: [Int] {
    table.isEmpty
      ? Array(repeating: 0, count: count) : table[start..<(start + count)].map { Int($0) }
  }

  /// Rows are equal when their values are, wherever they lie.
  static func == (a: TableRow, b: TableRow) -> Bool {
    a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
  }
}
