/// Seed lists, written the same way everywhere (sweep files, `--seeds` of every command):
/// `N` for seeds 1 to N, `A..B` for a range, `A,B,C` for a list, or a mix (`1..5,9`).
package enum SeedList {
  /// The most seeds one list may name.
  package static let maxCount = 1_000_000

  /// Why a seed list cannot be used, in words that follow the list: "'5..1' is an empty ...".
  package struct Problem: Error, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
  }

  /// The seeds, in the order given.
  package static func parse(_ text: String) throws(Problem) -> [UInt64] {
    let form =
      "'\(text.excerpt(limit: 40))' is not seeds such as 10 (seeds 1 to 10), 1..20 or 1,4,9"
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    if parts.count == 1, let count = UInt64(text.trimmingSpaces()) {
      guard count >= 1, count <= UInt64(maxCount) else {
        throw Problem(
          message:
            "'\(text.excerpt(limit: 40))' asks for \(count) seeds; give from 1 to \(maxCount)")
      }
      return Array(1...count)
    }
    var seeds: [UInt64] = []
    for part in parts {
      let trimmed = part.trimmingSpaces()
      let bounds = trimmed.split(separator: ".", omittingEmptySubsequences: false)
      if bounds.count == 1, let seed = UInt64(trimmed) {
        seeds.append(seed)
      } else if bounds.count == 3, bounds[1].isEmpty, let low = UInt64(bounds[0]),
        let high = UInt64(bounds[2])
      {
        guard low <= high else {
          throw Problem(
            message:
              "'\(trimmed.excerpt(limit: 40))' is an empty range; write low..high with low <= high")
        }
        guard high - low < UInt64(maxCount) - UInt64(seeds.count) else {
          throw Problem(message: "'\(text.excerpt(limit: 40))' names more than \(maxCount) seeds")
        }
        seeds.append(contentsOf: low...high)
      } else {
        throw Problem(message: form)
      }
      guard seeds.count <= maxCount else {
        throw Problem(message: "'\(text.excerpt(limit: 40))' names more than \(maxCount) seeds")
      }
    }
    guard Set(seeds).count == seeds.count else {
      throw Problem(message: "'\(text.excerpt(limit: 40))' repeats a seed")
    }
    return seeds
  }
}
