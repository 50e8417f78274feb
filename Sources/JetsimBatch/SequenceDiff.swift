/// The shortest edit between two sequences (Myers' O((n + m)·d) algorithm, "An O(ND) Difference
/// Algorithm and Its Variations", 1986): which elements of each are kept, and which inserted or
/// deleted. `jetsim check` aligns kill and event sequences with it, so one kill too many is one
/// difference, not every row after it.
package enum SequenceDiff {
  /// One step of the alignment, in order.
  package enum Step: Equatable, Sendable {
    /// `expected[i]` and `actual[j]` are equal.
    case keep(Int, Int)
    /// `expected[i]` is missing from `actual`.
    case delete(Int)
    /// `actual[j]` is not in `expected`.
    case insert(Int)
  }

  /// The steps turning `expected` into `actual`, deletions before insertions where they meet; nil
  /// when they differ in more than `limit` places (the memory the search needs grows with that).
  ///
  /// - Complexity: O((*n* + *m*) · *d*) time and memory for *d* differences.
  package static func align<T: Equatable>(_ expected: [T], _ actual: [T], limit: Int = 2_000)
    -> [Step]?
  {
    guard !expected.isEmpty || !actual.isEmpty else { return [] }
    guard let trace = frontiers(expected, actual, limit: limit) else { return nil }
    return path(through: trace, n: expected.count, m: actual.count)
  }

  /// The frontier of every round of the search, until one reaches the end of both sequences; nil
  /// past `limit` rounds. Frontier `d` holds, for each diagonal `k` (at `offset + k`, offset
  /// `n + m`), the furthest `x` reachable with `d` differences.
  private static func frontiers<T: Equatable>(_ expected: [T], _ actual: [T], limit: Int)
    -> [[Int]]?
  {
    let (n, m) = (expected.count, actual.count)
    let offset = n + m
    var frontier = [Int](repeating: 0, count: 2 * offset + 2)
    var trace: [[Int]] = []
    for d in 0...offset {
      guard d <= limit else { return nil }
      trace.append(frontier)
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) {
          x = frontier[offset + k + 1]  // down: an insertion
        } else {
          x = frontier[offset + k - 1] + 1  // right: a deletion
        }
        var y = x - k
        while x < n, y < m, expected[x] == actual[y] {
          x += 1
          y += 1
        }
        frontier[offset + k] = x
        if x >= n, y >= m { return trace }
      }
    }
    return trace
  }

  /// Walks back through the frontiers from the end of both sequences to recover the steps.
  private static func path(through trace: [[Int]], n: Int, m: Int) -> [Step] {
    let offset = n + m
    var steps: [Step] = []
    var x = n
    var y = m
    for d in stride(from: trace.count - 1, through: 0, by: -1) {
      let frontier = trace[d]
      let k = x - y
      let previousK =
        (k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1])) ? k + 1 : k - 1
      let previousX = d == 0 ? 0 : frontier[offset + previousK]
      let previousY = previousX - previousK
      while x > previousX, y > previousY {
        x -= 1
        y -= 1
        steps.append(.keep(x, y))
      }
      if d > 0 {
        if x == previousX {
          y -= 1
          steps.append(.insert(y))
        } else {
          x -= 1
          steps.append(.delete(x))
        }
      }
    }
    return steps.reversed()
  }
}
