/// A set of app indices `0..<capacity` with O(1) insert, remove and membership, whose elements sit in
/// one dense array (in an order that depends only on the history of inserts and removes).
package struct AppSet: Sendable {
  /// Each app's position among the members (-1: not a member), then the members, densely packed:
  /// one array, so that an insert or a remove checks one buffer for uniqueness, not two.
  private var slots: [Int]
  private let capacity: Int
  /// The number of members.
  package private(set) var count = 0

  /// An empty set for apps `0..<capacity`.
  package init(capacity: Int) {
    self.capacity = capacity
    slots = Array(repeating: -1, count: capacity * 2)
  }

  /// The members, densely packed.
  package var members: ArraySlice<Int> { slots[capacity..<(capacity + count)] }

  /// The member at `position` (from 0) in `members`.
  package func member(at position: Int) -> Int { slots[capacity + position] }

  /// Whether it has no member.
  package var isEmpty: Bool { count == 0 }

  /// The position of `app` in `members`, if it is a member.
  package func position(of app: Int) -> Int? {
    check(app)
    return slots[app] >= 0 ? slots[app] : nil
  }

  /// Whether `app` is a member.
  package func contains(_ app: Int) -> Bool {
    check(app)
    return slots[app] >= 0
  }

  // Insert and remove are inlined: the simulation calls them on most changes of state, where a
  // call cost more than their work.

  /// Adds `app` if it is not a member.
  @inline(__always)
  package mutating func insert(_ app: Int) {
    check(app)
    guard slots[app] < 0 else { return }
    slots[app] = count
    slots[capacity + count] = app
    count += 1
  }

  /// Removes `app` if it is a member.
  @inline(__always)
  package mutating func remove(_ app: Int) {
    check(app)
    let position = slots[app]
    guard position >= 0 else { return }
    count -= 1
    let last = slots[capacity + count]
    // When `app` was the last member, the writes of its position undo each other.
    slots[capacity + position] = last
    slots[last] = position
    slots[app] = -1
  }

  /// Inserts or removes `app`.
  @inline(__always)
  package mutating func update(_ app: Int, isMember: Bool) {
    if isMember { insert(app) } else { remove(app) }
  }

  /// Traps for an app outside `0..<capacity` (its slot would be a member's).
  @inline(__always)
  private func check(_ app: Int) {
    precondition(app >= 0 && app < capacity, "an app outside the set's range")
  }
}
