/// One of the ladders of OomAdjuster's `assignCachedAdjIfNecessary` (the cached apps' from 900;
/// the empty processes' from 905): its processes in the order of ActivityManager's LRU list, each
/// known by its rank, 0 for the most recent. A process's slot is its rank ÷ the processes to a slot
/// (`slotAdj`).
///
/// The ladder also counts its changes since the last `mark`, and which processes were set, so that
/// its owner can find the processes whose slot a change may have moved without walking them all
/// (`LmkdCandidates.registerMoves`).
///
/// - Complexity: setting a process is O(1) until the next read, which puts the processes set since
///   in place: O(log *c*) for one, O(*c* + *k* log *k*) for *k*. Taking one off is O(log *c*) plus
///   the move in memory of the more recent ones after it: the layout keeps the most recent at the
///   end, where a process used again goes and where ActivityManager's trim takes its victims.
struct CachedLadder: Sendable {
  /// The processes in place, the least recently used first.
  private var order: [Int] = []
  private var keys: [Recency] = []
  private var isMember: [Bool] = []
  /// Processes set and not yet in place, and whether each still is (one taken off again stays
  /// in the list, skipped).
  private var pending: [Int] = []
  private var isPending: [Bool] = []
  /// How many processes the ladder holds.
  private(set) var count = 0
  /// The changes since the last `mark`: each process taken off or set counts one.
  private(set) var changes = 0
  /// The processes set since the last `mark` (some may have left again).
  private(set) var touched: [Int] = []

  /// An empty ladder for processes `0..<capacity`.
  init(capacity: Int = 0) {
    order.reserveCapacity(capacity)
    keys = Array(repeating: Recency(lastUsedMs: 0, idRank: 0), count: capacity)
    isMember = Array(repeating: false, count: capacity)
    isPending = isMember
  }

  /// `app`'s place in the LRU order, as last set.
  func key(of app: Int) -> Recency { keys[app] }

  /// Whether `app` is on the ladder at `key` already.
  func holds(_ app: Int, at key: Recency) -> Bool { isMember[app] && keys[app] == key }

  /// The process at `rank` (0: the most recent). The ladder must be in place (`settle`).
  func member(atRank rank: Int) -> Int {
    assert(pending.isEmpty, "a read of a ladder not in place")
    return order[count - 1 - rank]
  }

  /// The rank of `app`, on the ladder (0: the most recent). The ladder must be in place.
  ///
  /// - Complexity: O(log *c*).
  func rank(of app: Int) -> Int {
    assert(pending.isEmpty, "a read of a ladder not in place")
    return count - 1 - index(of: keys[app])
  }

  /// Puts `app` on the ladder at `key`, or moves it there.
  mutating func set(_ app: Int, at key: Recency) {
    guard !holds(app, at: key) else { return }
    remove(app)
    keys[app] = key
    isMember[app] = true
    isPending[app] = true
    pending.append(app)
    touched.append(app)
    count += 1
    changes += 1
  }

  /// Takes `app` off the ladder, if it is on it.
  mutating func remove(_ app: Int) {
    guard isMember[app] else { return }
    isMember[app] = false
    count -= 1
    changes += 1
    if isPending[app] {
      isPending[app] = false
    } else {
      order.remove(at: index(of: keys[app]))
    }
  }

  /// Puts the processes set since the last read in place.
  mutating func settle() {
    guard !pending.isEmpty else { return }
    defer { pending.removeAll(keepingCapacity: true) }
    // (A process set twice is listed twice: the flag takes it once.)
    if pending.count < 8 {
      for app in pending where isPending[app] {
        isPending[app] = false
        order.insert(app, at: index(of: keys[app]))
      }
      return
    }
    var arriving: [Int] = []
    for app in pending where isPending[app] {
      isPending[app] = false
      arriving.append(app)
    }
    let keys = keys
    arriving.sort { keys[$1] < keys[$0] }
    var merged: [Int] = []
    merged.reserveCapacity(order.count + arriving.count)
    var (old, new) = (0, 0)
    while old < order.count || new < arriving.count {
      let takeNew =
        old == order.count || (new < arriving.count && keys[order[old]] < keys[arriving[new]])
      merged.append(takeNew ? arriving[new] : order[old])
      if takeNew { new += 1 } else { old += 1 }
    }
    order = merged
  }

  /// Starts counting changes anew.
  mutating func mark() {
    changes = 0
    touched.removeAll(keepingCapacity: true)
  }

  /// ActivityManager's update of this ladder, from `first` with `factor` processes to a slot
  /// (`oldFactor` at the last update): registers in `registry`, most recent first, each process
  /// whose slot changed (`LmkdCandidates.registerMoves`). With *k* changes since the last update and
  /// the same factor, a process not set itself has moved at most *k* ranks, so its slot changed
  /// only if it stands within *k* of a slot's edge: only those, and the processes set, are looked
  /// at (in `ranks`, reused). With `leastRecentFirst`, every process is looked at, and registered
  /// the least recent first. The ladder must be in place.
  ///
  /// - Complexity: O(*k* log *c*) for *k* changes; O(*c*) when the factor changed.
  mutating func registerMoves(
    first: Int, factor: Int, since oldFactor: Int, leastRecentFirst: Bool,
    in registry: inout SlotRegistry, ranks: inout [Int]
  ) {
    defer { mark() }
    if leastRecentFirst {
      for (index, app) in order.enumerated() {
        registry.register(
          app, at: Self.slotAdj(rank: count - 1 - index, factor: factor, first: first))
      }
      return
    }
    if factor != oldFactor || 2 * changes >= factor {
      // Every process, its slot's adj stepped as `AndroidImportance.assignSlots` steps it.
      var (adj, inSlot) = (first, 0)
      for app in order.reversed() {
        registry.register(app, at: adj)
        inSlot += 1
        if inSlot == factor {
          inSlot = 0
          adj = min(adj + AndroidImportance.importanceLevels * 2, AndroidImportance.cachedMax)
        }
      }
      return
    }
    guard changes > 0 else { return }
    ranks.removeAll(keepingCapacity: true)
    for app in touched where isMember[app] { ranks.append(rank(of: app)) }
    var edge = factor
    while edge - changes < count, edge <= factor * AndroidImportance.slotCount {
      ranks.append(contentsOf: max(0, edge - changes)..<min(count, edge + changes))
      edge += factor
    }
    ranks.sort()
    var previous = -1
    for rank in ranks where rank != previous {
      previous = rank
      registry.register(
        member(atRank: rank), at: Self.slotAdj(rank: rank, factor: factor, first: first))
    }
  }

  /// The process lmkd kills first in the last slot of this ladder (from `first`, `counted` of its
  /// processes counted for the processes to a slot), other than `excluded`, and that slot's adj
  /// (`app` nil when the ladder is empty); nil when `excluded` is alone in it. The ladder must be
  /// in place.
  ///
  /// - Complexity: O(*f*) for *f* processes to a slot.
  func lastSlot(counted: Int, first: Int, excluding excluded: Int, _ registry: SlotRegistry)
    -> (app: Int?, adj: Int)?
  {
    guard count > 0 else { return (nil, Int.min) }
    let slot = LmkdCandidates.lastSlot(count: count, counted: counted, first: first)
    var best: (app: Int, place: SlotPlace)?
    for rank in slot.before..<count {
      let app = member(atRank: rank)
      guard app != excluded else { continue }
      let place = registry.place(app, adj: slot.adj, rank: rank)
      if best.map({ place < $0.place }) ?? true { best = (app, place) }
    }
    if best == nil, count - slot.before == 1 { return nil }
    return (best?.app, slot.adj)
  }

  /// The adj of the slot of the process at `rank` (0: the most recent) on a ladder from `first`
  /// with `factor` processes to a slot (`AndroidImportance.assignSlots`): from 999 on, the ladder
  /// steps no more.
  static func slotAdj(rank: Int, factor: Int, first: Int) -> Int {
    let step = AndroidImportance.importanceLevels * 2
    return min(
      first + step * min(rank / factor, AndroidImportance.slotCount), AndroidImportance.cachedMax)
  }

  /// The first place in `order` whose process is not less recent than `key`.
  private func index(of key: Recency) -> Int {
    var (low, high) = (0, order.count)
    while low < high {
      let middle = (low + high) / 2
      if key < keys[order[middle]] { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

/// What lmkd has registered of the processes on ActivityManager's ladders: each one's slot adj
/// (`Int.min`: on none), and the order of the registrations, the earlier smaller.
struct SlotRegistry: Sendable {
  private(set) var slotAdj: [Int]
  private(set) var registered: [Int]
  private var registrations = 0
  /// Whether no process has been registered yet: the next update registers the processes of the
  /// start, the least recent first (`LmkdCandidates.registerMoves`).
  private(set) var movesAtStart = true

  /// Nothing registered, for processes `0..<count`.
  init(count: Int) {
    slotAdj = Array(repeating: Int.min, count: count)
    registered = Array(repeating: 0, count: count)
  }

  /// Notes that the processes of the start are registered.
  mutating func noteStartRegistered() { movesAtStart = false }

  /// Registers `app` at `adj`, unless lmkd has it there already.
  @inline(__always)
  mutating func register(_ app: Int, at adj: Int) {
    guard slotAdj[app] != adj else { return }
    slotAdj[app] = adj
    registered[app] = registrations
    registrations += 1
  }

  /// Forgets `app`, off the ladders: it will be registered anew when it comes back.
  mutating func forget(_ app: Int) { slotAdj[app] = Int.min }

  /// Where `app`, at `rank` on its ladder in the slot of `adj`, stands in that slot's list.
  func place(_ app: Int, adj: Int, rank: Int) -> SlotPlace {
    slotAdj[app] == adj
      ? SlotPlace(movedSince: false, order: registered[app])
      : SlotPlace(movedSince: true, order: movesAtStart ? -rank : rank)
  }
}

/// Where a process stands in its slot's list at lmkd, the tail (the next to die) first: those
/// registered there before the last update by the order of registration, then those moved there
/// since, by their place on the ladder (as the next update will register them: the most recent
/// first, or at the start the least recent first).
struct SlotPlace: Comparable, Sendable {
  var movedSince: Bool
  var order: Int
  static func < (a: SlotPlace, b: SlotPlace) -> Bool {
    a.movedSince != b.movedSince ? b.movedSince : a.order < b.order
  }
}
