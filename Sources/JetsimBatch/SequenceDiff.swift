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
    let n = expected.count
    let m = actual.count
    let maximum = n + m
    guard maximum > 0 else { return [] }
    let offset = maximum
    var frontier = [Int](repeating: 0, count: 2 * maximum + 2)
    var trace: [[Int]] = []
    var found = false
    for d in 0...maximum where !found {
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
        if x >= n, y >= m {
          found = true
          break
        }
      }
    }
    // Walk back through the frontiers to recover the path.
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
