/// `oom-badness`: Linux's OOM killer (mm/oom_kill.c, `oom_badness`). While free memory is below
/// critical, kill the process with the highest badness, `footprint in pages + adj × total pages ÷
/// 1000`, with the adj of `AndroidImportance` (pages of 4 KB); ties by name.
///
/// - Complexity: O(log *n*) per change and O(log *n* + 99 log 99) per decision: the processes of
///   each fixed adj are kept by footprint, and the cached ones split by recency (`RecencySplit`): the
///   99 most recent have adj 900 to 998, every other 999, so only the best of those is looked at.
public struct OOMBadnessPolicy: EvictionPolicy {
  public var name: String { Self.registration.name }
  private var importance = AndroidImportance()
  /// The latest status of each process (the previous app's adj changes without a change of its
  /// own).
  private var statuses: [AppStatus] = []
  /// The processes of each fixed adj (`fixedAdjs`), heaviest first.
  private var fixed: [IndexedHeap<Heaviest>] = []
  private var fixedClass: [Int] = []
  private var cached = RecencySplit<Heaviest>(capacity: 0, headCapacity: 0)
  private var memoryKB = 0

  /// The adjs a process has whatever the others do, in `fixed`'s order.
  static let fixedAdjs = [
    AndroidImportance.persistent, AndroidImportance.foreground, AndroidImportance.perceptible,
    AndroidImportance.service, AndroidImportance.previous,
  ]
  /// The cached processes whose adj differ: 900 to 998.
  static let rankedCached = AndroidImportance.cachedMax - AndroidImportance.cachedMin

  /// The larger footprint in pages first, then the name: the order of equal adjs.
  struct Heaviest: Comparable, Sendable {
    var pages: Int
    var idRank: Int
    static func < (a: Heaviest, b: Heaviest) -> Bool {
      a.pages != b.pages ? a.pages > b.pages : a.idRank < b.idRank
    }
  }

  /// The Linux OOM killer's badness policy.
  public init() {}

  /// The badness of a process with `footprintKB` and `adj` on a device with `memoryKB`.
  public static func badness(footprintKB: Int, adj: Int, memoryKB: Int) -> Int {
    footprintKB / 4 + adj * (memoryKB / 4) / 1000
  }

  public mutating func start(_ device: DeviceView) {
    let count = device.apps.count
    importance.start(device)
    statuses = device.apps
    fixed = Self.fixedAdjs.map { _ in IndexedHeap(capacity: count) }
    fixedClass = Array(repeating: -1, count: count)
    cached = RecencySplit(capacity: count, headCapacity: Self.rankedCached)
    memoryKB = device.device.memoryKB
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    let previous = importance.previousApp
    importance.appDidChange(app, status)
    statuses[app] = status
    refile(app)
    if importance.previousApp != previous {
      for other in [previous, importance.previousApp] {
        if let other, other != app { refile(other) }
      }
    }
  }

  /// Files `app` by its adj: in the heap of its fixed adj, in the cached split, or nowhere.
  private mutating func refile(_ app: Int) {
    let status = statuses[app]
    let key = Heaviest(pages: status.footprintKB / 4, idRank: status.idRank)
    var newClass = -1
    if status.state.isResident {
      newClass =
        importance.fixedAdj(app, status).flatMap { Self.fixedAdjs.firstIndex(of: $0) }
        ?? Self.fixedAdjs.count
    }
    if fixedClass[app] >= 0, fixedClass[app] != newClass {
      if fixedClass[app] < fixed.count {
        fixed[fixedClass[app]].remove(app)
      } else {
        cached.remove(app)
      }
    }
    fixedClass[app] = newClass
    if newClass < 0 { return }
    if newClass < fixed.count {
      fixed[newClass].set(app, key: key)
    } else {
      cached.set(
        app, recency: .init(lastUsedMs: status.lastUsedMs, idRank: status.idRank), tailKey: key)
    }
  }

  /// It acts only below the critical threshold.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { device.criticalThresholdKB }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    guard device.isBelowCritical else { return nil }
    let excluded = device.allocatingApp ?? -1
    var best: (app: Int, score: Int)?
    func consider(_ app: Int, _ adj: Int) {
      let score = Self.badness(
        footprintKB: statuses[app].footprintKB, adj: adj, memoryKB: memoryKB)
      if let current = best,
        score < current.score
          || (score == current.score && statuses[app].idRank > statuses[current.app].idRank)
      {
        return
      }
      best = (app, score)
    }
    for (index, adj) in Self.fixedAdjs.enumerated() {
      if let app = fixed[index].first(excluding: excluded) { consider(app, adj) }
    }
    // The head's ranks count every cached process, the one allocating included.
    let head = cached.headMembers.sorted { cached.recency(of: $0) < cached.recency(of: $1) }
    for (rank, app) in head.enumerated() where app != excluded {
      consider(app, AndroidImportance.cachedMin + rank)
    }
    if let app = cached.tail.first(excluding: excluded) {
      consider(app, AndroidImportance.cachedMax)
    }
    return best.map { Eviction(app: $0.app) }
  }
}

extension OOMBadnessPolicy {
  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "oom-badness",
    summary:
      "Linux OOM killer: highest badness (footprint in pages + adj × total pages ÷ 1000) first",
    make: { OOMBadnessPolicy() })
}
