/// The cached processes of `oom-badness`, split by recency: the `headCapacity` most recently
/// used in one part (whose ranks a decision sorts, as their adj differ), every other in the tail
/// (which share one adj, so a decision needs only the tail's best by `TailKey`).
///
/// Recency is ActivityManager's order of the LRU list: the latest `lastUsedMs` first, ties by app
/// id (`AppStatus.idRank`). Every change is O(log *n*); nothing is scanned.
struct RecencySplit<TailKey: Comparable & Sendable>: Sendable {
  /// The reverse order, so that a min-heap's first is the least recent.
  struct LeastRecent: Comparable, Sendable {
    var recency: Recency
    static func < (a: LeastRecent, b: LeastRecent) -> Bool { b.recency < a.recency }
  }

  /// How many of the most recent the head holds.
  let headCapacity: Int
  /// The head, least recent first (the one to move to the tail when a more recent one comes).
  private(set) var head: IndexedHeap<LeastRecent>
  /// The tail, most recent first (the one to move up when the head has room), and by `TailKey`.
  private var tailByRecency: IndexedHeap<Recency>
  private(set) var tail: IndexedHeap<TailKey>
  private var recency: [Recency]
  private var tailKeys: [TailKey?]

  /// An empty split for processes `0..<capacity`.
  init(capacity: Int, headCapacity: Int) {
    self.headCapacity = headCapacity
    head = IndexedHeap(capacity: capacity)
    tailByRecency = IndexedHeap(capacity: capacity)
    tail = IndexedHeap(capacity: capacity)
    recency = Array(repeating: Recency(lastUsedMs: 0, idRank: 0), count: capacity)
    tailKeys = Array(repeating: nil, count: capacity)
  }

  /// How many processes the split holds.
  var count: Int { head.count + tail.count }

  /// Whether `app` is in the split.
  func contains(_ app: Int) -> Bool { head.contains(app) || tail.contains(app) }

  /// The members of the head, in no order.
  var headMembers: [Int] { head.elements }

  /// `app`'s recency.
  func recency(of app: Int) -> Recency { recency[app] }

  /// Puts `app` in the split with `recency` and `tailKey`, or moves it there.
  ///
  /// - Complexity: O(log *n*).
  mutating func set(_ app: Int, recency: Recency, tailKey: TailKey) {
    if contains(app) { remove(app) }
    self.recency[app] = recency
    tailKeys[app] = tailKey
    if head.count < headCapacity {
      head.set(app, key: LeastRecent(recency: recency))
      return
    }
    // The head is full: the newcomer goes in only if it is more recent than the head's last.
    if let last = head.first, recency < self.recency[last] {
      head.remove(last)
      putInTail(last)
      head.set(app, key: LeastRecent(recency: recency))
    } else {
      putInTail(app)
    }
  }

  /// Takes `app` out of the split, if it is in it; the tail's most recent moves up if the head
  /// has room.
  ///
  /// - Complexity: O(log *n*).
  mutating func remove(_ app: Int) {
    if head.contains(app) {
      head.remove(app)
      if let next = tailByRecency.first {
        tailByRecency.remove(next)
        tail.remove(next)
        head.set(next, key: LeastRecent(recency: recency[next]))
      }
    } else {
      tailByRecency.remove(app)
      tail.remove(app)
    }
    tailKeys[app] = nil
  }

  private mutating func putInTail(_ app: Int) {
    tailByRecency.set(app, key: recency[app])
    if let key = tailKeys[app] { tail.set(app, key: key) }
  }
}

/// Where a process stands in ActivityManager's LRU list: the more recent compares smaller (the
/// latest `lastUsedMs` first, ties by app id).
struct Recency: Comparable, Sendable {
  var lastUsedMs: Int
  var idRank: Int

  static func < (a: Recency, b: Recency) -> Bool {
    a.lastUsedMs != b.lastUsedMs ? a.lastUsedMs > b.lastUsedMs : a.idRank < b.idRank
  }
}
