/// A set of app indices `0..<capacity` with O(1) insert, remove and membership, whose elements sit in
/// one dense array (in an order that depends only on the history of inserts and removes).
package struct AppSet: Sendable {
  /// The members, densely packed.
  package private(set) var members: [Int] = []
  private var positions: [Int]

  /// An empty set for apps `0..<capacity`.
  package init(capacity: Int) {
    positions = Array(repeating: -1, count: capacity)
    members.reserveCapacity(capacity)
  }

  /// The number of members.
  package var count: Int { members.count }

  /// Whether it has no member.
  package var isEmpty: Bool { members.isEmpty }

  /// The position of `app` in `members`, if it is a member.
  package func position(of app: Int) -> Int? { positions[app] >= 0 ? positions[app] : nil }

  /// Whether `app` is a member.
  package func contains(_ app: Int) -> Bool { positions[app] >= 0 }

  // Insert and remove are inlined: the simulation calls them on most changes of state, where a
  // call cost more than their work.

  /// Adds `app` if it is not a member.
  @inline(__always)
  package mutating func insert(_ app: Int) {
    guard positions[app] < 0 else { return }
    positions[app] = members.count
    members.append(app)
  }

  /// Removes `app` if it is a member.
  @inline(__always)
  package mutating func remove(_ app: Int) {
    let position = positions[app]
    guard position >= 0 else { return }
    let last = members.removeLast()
    if last != app { members[position] = last }
    // Both positions written one after the other, so that they share one uniqueness check; when
    // `app` was the last member, the second write undoes the first.
    positions[last] = position
    positions[app] = -1
  }

  /// Inserts or removes `app`.
  @inline(__always)
  package mutating func update(_ app: Int, isMember: Bool) {
    if isMember { insert(app) } else { remove(app) }
  }
}
