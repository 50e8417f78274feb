/// `oom-badness`: Linux's OOM killer (mm/oom_kill.c of Linux 6.12, `oom_badness`,
/// `select_bad_process`). While free memory is below critical, kill the process with the highest
/// badness, `footprint in pages + adj × (total pages ÷ 1000)`, total pages counting RAM and swap
/// (`constrained_alloc`), with the adj of `AndroidImportance` (pages of 4 KB); of equal scores the
/// most recently started process (the last `for_each_process` finds, `oom_evaluate_task` keeping
/// an equal score).
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
  private var totalPages = 0
  /// When each process started, in the order the kernel's task list keeps: those in memory when
  /// the run starts (system processes, then apps, in the device's order), then each app at its
  /// launch. A tie goes to the larger.
  private var started: [Int] = []
  private var starts = 0

  /// The adjs a process has whatever the others do, in `fixed`'s order.
  static let fixedAdjs = [
    AndroidImportance.persistent, AndroidImportance.foreground, AndroidImportance.perceptible,
    AndroidImportance.service, AndroidImportance.previous,
  ]
  /// The cached processes whose adj differ: 900 to 998.
  static let rankedCached = AndroidImportance.cachedMax - AndroidImportance.cachedMin

  /// The larger footprint in pages first, then the later start: the order of equal adjs.
  struct Heaviest: Comparable, Sendable {
    var pages: Int
    var started: Int
    static func < (a: Heaviest, b: Heaviest) -> Bool {
      a.pages != b.pages ? a.pages > b.pages : a.started > b.started
    }
  }

  /// The Linux OOM killer's badness policy.
  public init() {}

  /// The badness of a process with `footprintKB` and `adj` where the kernel counts `totalPages`
  /// (`oom_badness`: `adj *= totalpages / 1000`, the division first).
  public static func badness(footprintKB: Int, adj: Int, totalPages: Int) -> Int {
    footprintKB / 4 + adj * (totalPages / 1000)
  }

  /// `totalpages` of a global OOM (`constrained_alloc`: `totalram_pages() + total_swap_pages`):
  /// memory and swap, in 4 KB pages.
  public static func totalPages(memoryKB: Int, swapKB: Int) -> Int { (memoryKB + swapKB) / 4 }

  public mutating func start(_ device: DeviceView) {
    let count = device.apps.count
    importance.start(device)
    statuses = device.apps
    fixed = Self.fixedAdjs.map { _ in IndexedHeap(capacity: count) }
    fixedClass = Array(repeating: -1, count: count)
    cached = RecencySplit(capacity: count, headCapacity: Self.rankedCached)
    totalPages = Self.totalPages(memoryKB: device.device.memoryKB, swapKB: device.memory.swapKB)
    started = Array(repeating: 0, count: count)
    starts = 0
    // Those in memory at the start: the system's processes first (they started at boot).
    for app in Array(device.appCount..<count) + Array(0..<device.appCount)
    where device.apps[app].state.isResident {
      starts += 1
      started[app] = starts
    }
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    let previous = importance.previousApp
    importance.appDidChange(app, status)
    if !statuses[app].state.isResident, status.state.isResident {
      starts += 1
      started[app] = starts
    }
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
    let key = Heaviest(pages: status.footprintKB / 4, started: started[app])
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
        footprintKB: statuses[app].footprintKB, adj: adj, totalPages: totalPages)
      if let current = best,
        score < current.score || (score == current.score && started[app] < started[current.app])
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
      "Linux OOM killer: highest badness (footprint in pages + adj × (total pages ÷ 1000)) first",
    make: { OOMBadnessPolicy() })
}
