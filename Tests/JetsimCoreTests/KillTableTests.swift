import Testing

@testable import JetsimCore

/// The run's kill counts by process and reason, and the rows an app's statistics read out of the
/// run's tables in place.
@Suite struct KillTableTests {
  /// Rows are made at a process's first kill, in the order processes are first killed, and each
  /// count lands in its own process's row and reason, whatever the order of kills (checked
  /// against a dictionary over seeded random kills).
  @Test(arguments: 1...5)
  func countsLandInTheirProcessAndReason(seed: Int) {
    var random = RandomStream(seed: UInt64(seed), stream: 9)
    var table = KillTable()
    var rows = [Int32](repeating: -1, count: 30)
    var expected: [Int: [Int]] = [:]
    var firstKilled: [Int] = []
    for _ in 0..<500 {
      let process = random.below(30)
      let reason = KillReason.allCases[random.below(KillReason.allCases.count)]
      if rows[process] < 0 { firstKilled.append(process) }
      table.count(reason, row: &rows[process])
      expected[process, default: Array(repeating: 0, count: KillReason.allCases.count)][
        Int(reason.rawValue)] += 1
    }
    for process in 0..<30 {
      #expect(table.row(rows[process])?.values == expected[process])
    }
    #expect(firstKilled.map { rows[$0] } == Array(0..<Int32(firstKilled.count)))
    #expect(table.counts.count == firstKilled.count * KillReason.allCases.count)
  }

  /// A count stops at 2³² − 1 rather than wrapping to 0 or stopping the run.
  @Test func aCountStopsAtItsLargestValue() {
    var table = KillTable()
    var row: Int32 = -1
    table.count(.perProcessLimit, row: &row)
    table.counts[Int(KillReason.perProcessLimit.rawValue)] = .max - 1
    table.count(.perProcessLimit, row: &row)
    table.count(.perProcessLimit, row: &row)
    #expect(table.row(row)?[Int(KillReason.perProcessLimit.rawValue)] == Int(UInt32.max))
  }

  /// A row reads its own part of the table, equal to a row of another table with the same values,
  /// and a row of zeros equals a row of a table whose counts are all 0; the app's statistics keep
  /// the table as it was when they were read, whatever the run does next.
  @Test func rowsReadTheirPartOfTheTableInPlace() {
    let table: [UInt32] = [1, 2, 3, 0, 0, 0, 7, 8, 9]
    let row = TableRow(table, row: 2, width: 3)
    #expect(row.values == [7, 8, 9])
    #expect(row[1] == 8)
    #expect(row == TableRow([7, 8, 9], row: 0, width: 3))
    #expect(row != TableRow(table, row: 0, width: 3))
    #expect(TableRow<UInt32>(zeros: 3) == TableRow(table, row: 1, width: 3))
    #expect(TableRow<UInt32>(zeros: 3).values == [0, 0, 0])
    #expect(TableRow<UInt32>(zeros: 3) != TableRow<UInt32>(zeros: 4))
    var grown = table
    let kept = TableRow(grown, row: 0, width: 3)
    grown[0] = 100
    #expect(kept.values == [1, 2, 3])
  }
}
