/// lmkd's candidates kept in kill order as processes change, so that `find_and_kill_process`'s
/// choice (lmkd.cpp line 2539) needs no scan of the processes: the processes of each fixed adj in
/// their order inside it, and the two ladders of `assignCachedAdjIfNecessary` (cached apps; empty
/// processes and started services) split by ActivityManager's LRU order (`RecencySplit`) so that
/// the last slot, the highest adj of a ladder, is the tail; the empty processes, which the trim
/// counts, are kept apart too.
///
/// - Complexity: O(log *n*) per change and per choice; a choice where the process whose allocation
///   waits is alone in the last slot is left to the scan (`choice` answers nil).
struct LmkdCandidates: Sendable {
  /// The larger RSS first (`proc_get_heaviest`), then the one that got its adj last, then the name.
  struct Heavier: Comparable, Sendable {
    var rssKB: Int
    var since: Int
    var idRank: Int
    static func < (a: Heavier, b: Heavier) -> Bool {
      (b.rssKB, b.since, a.idRank) < (a.rssKB, a.since, b.idRank)
    }
  }

  /// The one that got its adj first (`proc_adj_tail`), then the name.
  struct Earlier: Comparable, Sendable {
    var since: Int
    var idRank: Int
    static func < (a: Earlier, b: Earlier) -> Bool { (a.since, a.idRank) < (b.since, b.idRank) }
  }

  /// Inside a cached slot: the least recently used first, then the name.
  struct LeastRecentFirst: Comparable, Sendable {
    var lastUsedMs: Int
    var idRank: Int
    static func < (a: LeastRecentFirst, b: LeastRecentFirst) -> Bool {
      (a.lastUsedMs, a.idRank) < (b.lastUsedMs, b.idRank)
    }
  }

  /// The fixed adjs a victim may have, and the heaps that hold their processes.
  static let heavierAdjs = [AndroidImportance.foreground, AndroidImportance.perceptible]
  static let earlierAdjs = [
    AndroidImportance.service, AndroidImportance.previous, AndroidImportance.serviceB,
  ]
  private var heavier: [IndexedHeap<Heavier>] = []
  private var earlier: [IndexedHeap<Earlier>] = []
  /// Expired previous apps, at the fixed adj 900 outside the cached slots ("previous-expired"),
  /// least recently used first.
  private var expired = IndexedHeap<LeastRecentFirst>(capacity: 0)
  private var cached = RecencySplit<LeastRecentFirst>(capacity: 0, headCapacity: 0)
  /// The empty processes, which ActivityManager's trim counts.
  private var empty = RecencySplit<LeastRecentFirst>(capacity: 0, headCapacity: 0)
  /// The empty processes and the cached started services, which share the ladder from 905
  /// (`AndroidImportance.CachedKind.service`).
  private var emptyLadder = RecencySplit<LeastRecentFirst>(capacity: 0, headCapacity: 0)

  /// The list a candidate is filed in.
  enum List: Equatable, Sendable {
    /// `heavier[index]`: adj `heavierAdjs[index]`.
    case heavier(Int)
    /// `earlier[index]`: adj `earlierAdjs[index]`.
    case earlier(Int)
    /// An expired previous app, at 900 outside the slots.
    case expired
    /// A cached app, in a slot from 900.
    case cached
    /// An empty process, in a slot from 905.
    case empty
    /// A cached app with a started service, in a slot from 905 among the empty processes but
    /// counted in neither of the trim's limits.
    case service
  }

  /// Added to a started service's time of last use on the empty processes' ladder, so that it
  /// ranks above every empty process (about 35 years of milliseconds: more than any run).
  static let activitySection = 1 << 40

  /// The list of the previous app (adj 700, the second of `earlierAdjs`: service B's 800 was put
  /// after it, so that this stays the second).
  static let previousList = List.earlier(1)

  /// Where each process is filed, or nil (not a candidate).
  private(set) var filed: [List?] = []

  /// No candidate yet, for processes `0..<count`.
  init(count: Int) {
    heavier = Self.heavierAdjs.map { _ in IndexedHeap(capacity: count) }
    earlier = Self.earlierAdjs.map { _ in IndexedHeap(capacity: count) }
    expired = IndexedHeap(capacity: count)
    cached = RecencySplit(capacity: count, headCapacity: 0)
    empty = RecencySplit(capacity: count, headCapacity: 0)
    emptyLadder = RecencySplit(capacity: count, headCapacity: 0)
    filed = Array(repeating: nil, count: count)
  }

  /// Files `app` with `status` under `adj` (its fixed adj), or, when `adj` is nil, by its `kind`;
  /// out of every list when it is not resident or persistent.
  mutating func file(
    _ app: Int, _ status: AppStatus, adj: Int?, since: Int, kind: AndroidImportance.CachedKind
  ) {
    remove(app)
    guard status.state.isResident else { return }
    let recency = RecencySplit<LeastRecentFirst>.Recency(
      lastUsedMs: status.lastUsedMs, idRank: status.idRank)
    let inSlot = LeastRecentFirst(lastUsedMs: status.lastUsedMs, idRank: status.idRank)
    if let adj {
      if let index = Self.heavierAdjs.firstIndex(of: adj) {
        heavier[index].set(
          app,
          key: Heavier(rssKB: LmkdPolicy.rssKB(status), since: since, idRank: status.idRank))
        filed[app] = .heavier(index)
      } else if let index = Self.earlierAdjs.firstIndex(of: adj) {
        earlier[index].set(app, key: Earlier(since: since, idRank: status.idRank))
        filed[app] = .earlier(index)
      } else if adj == AndroidImportance.cachedMin {
        expired.set(app, key: inSlot)
        filed[app] = .expired
      }
    } else {
      switch kind {
      case .cached:
        cached.set(app, recency: recency, tailKey: inSlot)
        filed[app] = .cached
      case .service:
        // Above every empty process in the LRU list (`CachedKind.service`).
        var lifted = recency
        lifted.lastUsedMs += Self.activitySection
        emptyLadder.set(app, recency: lifted, tailKey: inSlot)
        filed[app] = .service
      case .empty:
        empty.set(app, recency: recency, tailKey: inSlot)
        emptyLadder.set(app, recency: recency, tailKey: inSlot)
        filed[app] = .empty
      }
    }
  }

  /// Takes `app` out of every list.
  mutating func remove(_ app: Int) {
    switch filed[app] {
    case .heavier(let index): heavier[index].remove(app)
    case .earlier(let index): earlier[index].remove(app)
    case .expired: expired.remove(app)
    case .cached: cached.remove(app)
    case .empty:
      empty.remove(app)
      emptyLadder.remove(app)
    case .service: emptyLadder.remove(app)
    case nil: return
    }
    filed[app] = nil
  }

  /// The adj of the last slot of `count` cached (or empty) processes whose first slot is `first`,
  /// `counted` of them counted for the processes a slot holds, and how many come before it
  /// (`OomAdjuster.assignCachedAdjIfNecessary`, as `AndroidImportance.assignSlots` gives them).
  /// From the slot at 999 on, the ladder steps no more.
  static func lastSlot(count: Int, counted: Int, first: Int) -> (adj: Int, before: Int) {
    let factor = AndroidImportance.slotFactor(counted)
    let slot = min((count - 1) / factor, AndroidImportance.slotCount)
    return (
      min(first + slot * AndroidImportance.importanceLevels * 2, AndroidImportance.cachedMax),
      slot * factor
    )
  }

  /// What `choice` finds.
  enum Choice: Equatable {
    /// The victim.
    case victim(Int)
    /// No process at the floor or above.
    case none
    /// The lists cannot tell: the process whose allocation waits is alone in a last slot.
    case needsScan
  }

  /// The victim at `floor` or above, never `excluded`: the highest adj, inside it the order of its
  /// list.
  mutating func choice(floor: Int, excluded: Int) -> Choice {
    var best: (app: Int, adj: Int)?
    func offer(_ app: Int?, _ adj: Int) {
      guard let app, adj >= floor, adj > (best?.adj ?? Int.min) else { return }
      best = (app, adj)
    }
    for (index, adj) in Self.heavierAdjs.enumerated() {
      offer(heavier[index].first(excluding: excluded), adj)
    }
    for (index, adj) in Self.earlierAdjs.enumerated() {
      offer(earlier[index].first(excluding: excluded), adj)
    }
    let emptyFirst = AndroidImportance.cachedMin + AndroidImportance.importanceLevels
    guard
      let fromCached = Self.lastSlot(
        &cached, counted: cached.count, first: AndroidImportance.cachedMin, excluded),
      let fromEmpty = Self.lastSlot(&emptyLadder, counted: empty.count, first: emptyFirst, excluded)
    else { return .needsScan }
    // An expired previous app shares adj 900 with the cached apps of the first slot: of the two
    // lists' firsts, the least recently used goes first.
    var fromExpired = expired.first(excluding: excluded)
    if let app = fromExpired, let other = fromCached.app,
      fromCached.adj == AndroidImportance.cachedMin,
      let key = expired.key(of: app), let otherKey = cached.tail.key(of: other), otherKey < key
    {
      fromExpired = nil
    }
    offer(fromExpired, AndroidImportance.cachedMin)
    for found in [fromCached, fromEmpty] { offer(found.app, found.adj) }
    return best.map { .victim($0.app) } ?? .none
  }

  /// Of the empty (or cached) processes, the most recently used beyond the `keep` most recent:
  /// the first that ActivityManager's walk of its LRU list finds over a limit of `keep`.
  ///
  /// - Complexity: O(*d* log *n*), *d* the change of the split's head.
  mutating func firstBeyond(_ keep: Int, empty isEmpty: Bool) -> Int? {
    func first(_ split: inout RecencySplit<LeastRecentFirst>) -> Int? {
      guard split.count > keep else { return nil }
      split.setHeadCapacity(keep)
      return split.firstOfTail
    }
    return isEmpty ? first(&empty) : first(&cached)
  }

  /// The least recently used empty process.
  var leastRecentEmpty: Int? { empty.leastRecent }
  /// How many empty processes there are.
  var emptyCount: Int { empty.count }
  /// How many cached processes (apps with activities) there are.
  var cachedCount: Int { cached.count }
  /// Whether `app` is filed as an empty process.
  func isEmpty(_ app: Int) -> Bool { filed[app] == .empty }

  /// The best of `split`'s last slot other than `excluded`, and that slot's adj (`app` nil when
  /// the split is empty); nil when `excluded` is alone in it.
  private static func lastSlot(
    _ split: inout RecencySplit<LeastRecentFirst>, counted: Int, first: Int, _ excluded: Int
  ) -> (app: Int?, adj: Int)? {
    guard split.count > 0 else { return (nil, Int.min) }
    let slot = lastSlot(count: split.count, counted: counted, first: first)
    split.setHeadCapacity(slot.before)
    let app = split.tail.first(excluding: excluded)
    if app == nil, split.tail.contains(excluded) { return nil }
    return (app, slot.adj)
  }
}
