/// How two orders (of kills, or of events) differ, counted as `jetsim check` words them: an element
/// in both at other positions is one move; the rest are insertions (in the run, not the golden) and
/// deletions (in the golden, not the run), a replaced element one of each; kept elements whose
/// numbers differ are changes.
public struct OrderEdits: Sendable, Equatable {
  /// Elements in both at other positions.
  public var moves = 0
  /// Elements of the run that the golden does not have.
  public var insertions = 0
  /// Elements of the golden that the run does not have.
  public var deletions = 0
  /// Elements kept in order whose numbers differ (only when numbers are compared).
  public var changes = 0

  /// Counts: `moves`, `insertions`, `deletions` and `changes`.
  public init(moves: Int = 0, insertions: Int = 0, deletions: Int = 0, changes: Int = 0) {
    self.moves = moves
    self.insertions = insertions
    self.deletions = deletions
    self.changes = changes
  }

  /// Whether the orders and numbers are the same.
  public var isEmpty: Bool { moves + insertions + deletions + changes == 0 }

  /// `2 moves, 1 insertion, 3 deletions`: the counts that are not zero, "no edits" when none is.
  public var summary: String {
    let parts = [
      (moves, "move", "moves"), (insertions, "insertion", "insertions"),
      (deletions, "deletion", "deletions"), (changes, "number change", "number changes"),
    ].filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
    return parts.isEmpty ? "no edits" : parts.joined(separator: ", ")
  }
}
