/// lmkd's candidates kept in kill order as processes change, so that `find_and_kill_process`'s
/// choice (lmkd.cpp line 2539) needs no scan of the processes: the processes of each fixed adj in
/// their order inside it, and the two ladders of `assignCachedAdjIfNecessary` (cached apps; empty
/// processes and started services) in ActivityManager's LRU order (`CachedLadder`), whose last
/// slot holds the highest adj of each; the empty processes, which the trim counts, are kept apart
/// too.
///
/// Inside a slot lmkd kills the process registered at its adj longest ago (`proc_adj_tail`), and
/// ActivityManager registers a process again each time its update moves it to another slot
/// (`registerMoves`). Its update is taken to follow each instant's changes (and each death): a
/// process's slot is registered as the instant leaves it, not at each of jetsim's steps inside
/// one.
///
/// - Complexity: O(log *n*) per change of a fixed adj, O(log *c*) per change of a ladder of *c*
///   processes (and a move in memory: `CachedLadder`), and for ActivityManager's update after *k*
///   changes O(*k* log *c*), O(*c*) when the processes to a slot change; O(*f*) per choice, for *f*
///   processes to a slot. A choice where the process whose allocation waits is alone in the last
///   slot is left to the scan (`choice` answers nil).
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

  /// The least recently used first, then the name: expired previous apps.
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
  /// The cached apps (`CachedKind.cached`), from 900.
  private var cached = CachedLadder()
  /// The empty processes and the cached started services, which share the ladder from 905
  /// (`AndroidImportance.CachedKind.service`), the services first.
  private var emptyLadder = CachedLadder()
  /// The empty processes alone, which ActivityManager's trim counts.
  private var empty = CachedLadder()
  /// What lmkd has registered of the processes on the ladders.
  private(set) var registry = SlotRegistry(count: 0)
  /// Whether a ladder changed since the last `registerMoves`, and the processes that left one.
  private var laddersChanged = false
  private var leftLadders: [Int] = []
  /// Each ladder's processes to a slot at the last `registerMoves`.
  private var cachedFactor = 1
  private var emptyFactor = 1
  /// The ranks `registerMoves` looks at (kept to be reused).
  private var ranks: [Int] = []

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
    cached = CachedLadder(capacity: count)
    emptyLadder = CachedLadder(capacity: count)
    empty = CachedLadder(capacity: count)
    filed = Array(repeating: nil, count: count)
    registry = SlotRegistry(count: count)
    leftLadders.reserveCapacity(count)
  }

  /// Files `app` with `status` under `adj` (its fixed adj), or, when `adj` is nil, by its `kind`;
  /// out of every list when it is not resident or persistent.
  mutating func file(
    _ app: Int, _ status: AppStatus, adj: Int?, since: Int, kind: AndroidImportance.CachedKind
  ) {
    let wasOnLadder = isOnLadder(app)
    let recency = Recency(lastUsedMs: status.lastUsedMs, idRank: status.idRank)
    if status.state.isResident, adj == nil {
      fileOnLadder(app, recency, kind)
      return
    }
    removeFromHeaps(app)
    if wasOnLadder { leaveLadders(app) }
    guard status.state.isResident, let adj else { return }
    if let index = Self.heavierAdjs.firstIndex(of: adj) {
      heavier[index].set(
        app, key: Heavier(rssKB: LmkdPolicy.rssKB(status), since: since, idRank: status.idRank))
      filed[app] = .heavier(index)
    } else if let index = Self.earlierAdjs.firstIndex(of: adj) {
      earlier[index].set(app, key: Earlier(since: since, idRank: status.idRank))
      filed[app] = .earlier(index)
    } else if adj == AndroidImportance.cachedMin {
      expired.set(app, key: LeastRecentFirst(recency))
      filed[app] = .expired
    }
  }

  /// Puts `app` on its ladder for `kind` at `recency`, or leaves it where it is when it is there
  /// already.
  private mutating func fileOnLadder(
    _ app: Int, _ recency: Recency, _ kind: AndroidImportance.CachedKind
  ) {
    let list: List
    var key = recency
    switch kind {
    case .cached: list = .cached
    case .service:
      // Above every empty process in the LRU list (`CachedKind.service`).
      key.lastUsedMs += Self.activitySection
      list = .service
    case .empty: list = .empty
    }
    if filed[app] == list,
      list == .cached ? cached.holds(app, at: key) : emptyLadder.holds(app, at: key)
    {
      return
    }
    removeFromHeaps(app)
    if isOnLadder(app) { leaveLadders(app) }
    switch list {
    case .cached: cached.set(app, at: key)
    case .empty:
      empty.set(app, at: key)
      emptyLadder.set(app, at: key)
    default: emptyLadder.set(app, at: key)
    }
    filed[app] = list
    laddersChanged = true
  }

  /// Whether `app` is on a ladder.
  private func isOnLadder(_ app: Int) -> Bool {
    switch filed[app] {
    case .cached, .service, .empty: true
    default: false
    }
  }

  /// Takes `app` off the ladders.
  private mutating func leaveLadders(_ app: Int) {
    if filed[app] == .cached { cached.remove(app) } else { emptyLadder.remove(app) }
    empty.remove(app)
    filed[app] = nil
    leftLadders.append(app)
    laddersChanged = true
  }

  /// Takes `app` out of the heaps of fixed adjs.
  private mutating func removeFromHeaps(_ app: Int) {
    switch filed[app] {
    case .heavier(let index): heavier[index].remove(app)
    case .earlier(let index): earlier[index].remove(app)
    case .expired: expired.remove(app)
    default: return
    }
    filed[app] = nil
  }

  /// ActivityManager's update: walks the ladders most recent first, as `updateAndTrimProcessLSP`
  /// walks its LRU list (OomAdjuster.java line 1332 at frameworks/base 02978520) applying each
  /// process's adj (`applyOomAdjLSP`, which sends lmkd a process's adj only when it changed,
  /// `ProcessList.setOomAdj`), and registers anew each process whose slot changed since the last
  /// update, as lmkd puts it at the head of its new adj's list (lmkd.cpp `register_oom_adj_proc`,
  /// lines 1133–1226, the slot taken anew at 1224). Of the processes one walk moves into a slot,
  /// the most recently used is registered first, and so is the tail of the slot's list among
  /// them.
  ///
  /// The first update that finds processes on the ladders (the start's: a snapshot's, the device's
  /// daemons) registers them as if each had come down its ladder to its slot over time, as a
  /// ladder fed from the top holds them: the least recently used of a slot first, not in one walk.
  ///
  /// - Complexity: O(1) when no ladder changed; O(*k* log *c*) for *k* changes to a ladder of *c*
  ///   processes; O(*c*) when the processes to a slot change (ActivityManager then sends lmkd most
  ///   adjs anew).
  mutating func registerMoves() {
    guard laddersChanged else { return }
    laddersChanged = false
    for app in leftLadders where !isOnLadder(app) { registry.forget(app) }
    leftLadders.removeAll(keepingCapacity: true)
    settle()
    let (cachedNow, emptyNow) = (
      AndroidImportance.slotFactor(cached.count), AndroidImportance.slotFactor(empty.count)
    )
    let atStart = registry.movesAtStart
    if atStart, cached.count + emptyLadder.count > 0 { registry.noteStartRegistered() }
    cached.registerMoves(
      first: AndroidImportance.cachedMin, factor: cachedNow, since: cachedFactor,
      leastRecentFirst: atStart, in: &registry, ranks: &ranks)
    emptyLadder.registerMoves(
      first: Self.emptyLadderFirst, factor: emptyNow, since: emptyFactor,
      leastRecentFirst: atStart, in: &registry, ranks: &ranks)
    (cachedFactor, emptyFactor) = (cachedNow, emptyNow)
    empty.mark()  // (the trim's ladder: nothing to register)
  }

  /// The adj of the empty processes' first slot.
  private static let emptyLadderFirst =
    AndroidImportance.cachedMin + AndroidImportance.importanceLevels

  /// Where `app` stands in its slot's list, at `adj`; nil when it is on no ladder.
  func slotPlace(_ app: Int, adj: Int) -> SlotPlace? {
    guard isOnLadder(app) else { return nil }
    let rank = filed[app] == .cached ? cached.rank(of: app) : emptyLadder.rank(of: app)
    return registry.place(app, adj: adj, rank: rank)
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
    settle()
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
    guard
      let fromCached = cached.lastSlot(
        counted: cached.count, first: AndroidImportance.cachedMin, excluding: excluded, registry),
      let fromEmpty = emptyLadder.lastSlot(
        counted: empty.count, first: Self.emptyLadderFirst, excluding: excluded, registry)
    else { return .needsScan }
    // An expired previous app shares adj 900 with the cached apps of the first slot: of the two
    // lists' firsts, the least recently used goes first.
    var fromExpired = expired.first(excluding: excluded)
    if let app = fromExpired, let other = fromCached.app,
      fromCached.adj == AndroidImportance.cachedMin, let key = expired.key(of: app),
      LeastRecentFirst(cached.key(of: other)) < key
    {
      fromExpired = nil
    }
    offer(fromExpired, AndroidImportance.cachedMin)
    for found in [fromCached, fromEmpty] { offer(found.app, found.adj) }
    return best.map { .victim($0.app) } ?? .none
  }

  /// Of the empty (or cached) processes, the most recently used beyond the `keep` most recent:
  /// the first that ActivityManager's walk of its LRU list finds over a limit of `keep`.
  mutating func firstBeyond(_ keep: Int, empty isEmpty: Bool) -> Int? {
    settle()
    if isEmpty { return empty.count > keep ? empty.member(atRank: keep) : nil }
    return cached.count > keep ? cached.member(atRank: keep) : nil
  }

  /// The least recently used empty process.
  mutating func leastRecentEmpty() -> Int? {
    settle()
    return empty.count > 0 ? empty.member(atRank: empty.count - 1) : nil
  }

  /// Puts every ladder's processes in place (`CachedLadder.settle`): before `slotPlace` is read.
  mutating func settle() {
    cached.settle()
    emptyLadder.settle()
    empty.settle()
  }

  /// How many empty processes there are.
  var emptyCount: Int { empty.count }
  /// How many cached processes (apps with activities) there are.
  var cachedCount: Int { cached.count }
  /// Whether `app` is filed as an empty process.
  func isEmpty(_ app: Int) -> Bool { filed[app] == .empty }
}

extension LmkdCandidates.LeastRecentFirst {
  /// The key of a process at `recency`.
  init(_ recency: Recency) { self.init(lastUsedMs: recency.lastUsedMs, idRank: recency.idRank) }
}
