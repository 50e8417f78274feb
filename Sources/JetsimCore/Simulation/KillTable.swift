/// The kills of each process killed so far, by reason: a row of `KillReason.allCases.count` counts
/// for each process killed at least once, made at its first kill, so the table grows with the
/// processes killed, not with the kills. Counts are 32-bit and stop at 2³² − 1 (a run would need
/// that many kills of one process for one reason).
struct KillTable {
  var counts: [UInt32] = []
  private static let width = KillReason.allCases.count

  /// Adds a kill for `reason` to row `row`; a row of -1 is made first, at the end.
  mutating func count(_ reason: KillReason, row: inout Int32) {
    if row < 0 {
      row = Int32(counts.count / Self.width)
      counts.append(contentsOf: repeatElement(0, count: Self.width))
    }
    let cell = Int(row) * Self.width + Int(reason.rawValue)
    if counts[cell] < .max { counts[cell] += 1 }
  }

  /// Row `row`, or nil for a row of -1 (no kill yet).
  func row(_ row: Int32) -> TableRow<UInt32>? {
    row < 0 ? nil : TableRow(counts, row: Int(row), width: Self.width)
  }
}
