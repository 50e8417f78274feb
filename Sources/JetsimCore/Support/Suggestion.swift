/// "Did you mean" suggestions for misspelt keys, flags, app ids and policy names.
package enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo:
  /// at most a third of the longer one's length in edits, and never more than 3 (an insertion,
  /// deletion, substitution or swap of neighbours each count as one). The rule is the same both
  /// ways: `--policy` is suggested for `--policies` and `--policies` for `--policy`.
  ///
  /// - Complexity: O(*n* · *m*²) for *n* candidates of length about *m*.
  package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    // The distance is at least the difference in length: a word far longer than any key (a
    // corrupted field) is no typo of one, and is not compared.
    guard word.utf8.count <= 1_000 else { return nil }
    let lowered = Array(word.lowercased().unicodeScalars)
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let other = Array(candidate.lowercased().unicodeScalars)
      let allowed = max(1, min(3, max(lowered.count, other.count) / 3))
      guard abs(other.count - lowered.count) <= allowed else { continue }
      let distance = editDistance(lowered, other)
      if distance <= allowed, distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// Edit distance with swaps of neighbouring characters (optimal string alignment).
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
