/// Android's `oom_score_adj` for the processes in memory, as ActivityManager sets it and `lmkd` and
/// `oom-badness` read it (docs/policies.md; frameworks/base ProcessList and OomAdjuster): the top
/// app 0 (the foreground app, and with `.activityManager` the app behind the lock: `isTop`);
/// perceptible (audio, location or VoIP in use) 200; the previous app 700; service (background
/// work under way in a process that has not been on screen in its life: a started service) 500, or
/// 800 for those of them past the first third (`.activityManager`: see `ServiceRanks`); cached 900
/// to 999. An active system daemon is persistent (-800: never lmkd's victim,
/// `oom-badness`'s last resort).
///
/// The previous app is one process, ActivityManager's `mPreviousProcess`: the app that was the top
/// app before the current one. It is set when an app stops being the top app (leaves the screen,
/// or, behind the lock, when another app comes on screen), and cleared when that app comes back to
/// the screen (`updateTopResumedActivityIfNeeded`) or dies (`cleanUpApplicationRecordLocked`); no
/// older app inherits it.
///
/// Two ways to rank what is cached (`Ranking`):
/// - `.recency` (jetsim 0.3, kept for `oom-badness`): 900 for the most recently used, then 901, ...;
///   the previous app keeps 700 for as long as it is the previous app.
/// - `.activityManager` (`lmkd`), as OomAdjuster of Android 15/16 ranks them: the previous app
///   keeps 700 while it runs in the background and for `MAX_PREVIOUS_TIME` (60 s) after it is
///   suspended (or, if later, after it became the previous app), then is cached
///   (`computeOomAdjLSP`, adj type "previous-expired"); cached processes share slots
///   (`assignCachedAdjIfNecessary`): apps, which hold activities, at 900, 910, ... 990, 999, most
///   recent first, `ceil(n / 10)` to a slot; processes without activities (idle daemons and
///   extensions, and apps not on screen in their present life) are empty processes at the odd
///   fives 905, 915, ..., in their own slots, and with them, stepping the same ladder, an app that
///   has shown UI and works in the background (its process state is SERVICE, not a cached one:
///   `CachedKind.service`), before them.
///
/// The state is kept as processes change, so a decision allocates nothing once warmed up.
package struct AndroidImportance: Sendable {
  package static let persistent = -800
  package static let foreground = 0
  package static let perceptible = 200
  package static let service = 500
  /// `SERVICE_B_ADJ` (ProcessList): a started service past the first third of them.
  package static let serviceB = 800
  package static let previous = 700
  package static let cachedMin = 900
  package static let cachedMax = 999
  /// `CACHED_APP_IMPORTANCE_LEVELS` (ProcessList): slots step by twice this, empty processes sit
  /// this far above the cached ones.
  package static let importanceLevels = 5
  /// `mNumSlots` (OomAdjuster): `(CACHED_APP_MAX_ADJ - CACHED_APP_MIN_ADJ + 1) / 2 /
  /// CACHED_APP_IMPORTANCE_LEVELS`.
  package static let slotCount = (cachedMax - cachedMin + 1) / 2 / importanceLevels
  /// `DEFAULT_MAX_PREVIOUS_TIME` (ActivityManagerConstants): 60 s.
  package static let maxPreviousTimeMs = 60_000

  /// How cached processes are ranked.
  package enum Ranking: Sendable {
    /// 900, 901, ... by recency; the previous app never expires.
    case recency
    /// OomAdjuster's slots; the previous app expires after `maxPreviousTimeMs`.
    case activityManager
  }

  /// The ranking in use.
  package let ranking: Ranking
  /// The previous app, if any, and since when.
  package private(set) var previousApp: Int?
  private var previousSinceMs = 0
  /// Whether each process is the top app (`isTop`).
  private var isTopApp: [Bool] = []
  /// Whether each process has been on screen in its present life (`ProcessStateRecord`'s
  /// `mHasShownUi`, cleared when a process starts: OomAdjuster `setAttachingProcessStatesLSP`):
  /// in jetsim, whether it holds activities, which an app gets on screen and keeps (stopped) until
  /// it dies. A snapshot's suspended apps count as having shown UI.
  private var shownUI: [Bool] = []
  private var appCount = 0
  private var activeDaemons: [Bool] = []
  /// When each process got its present adj class (a fixed adj, or cached), by index: ActivityManager
  /// sends lmkd a process's adj when it changes, and lmkd puts it at the head of that adj's list
  /// (lmkd.cpp `register_oom_adj_proc`, `proc_slot`).
  package private(set) var adjSince: [Int] = []
  private var adjClass: [Int] = []
  /// The cached apps' ladder and the empty processes' (`CachedKind`), reused for each decision.
  private var cached: [Int] = []
  private var emptyLadder: [Int] = []
  /// The started services' A and B (`.activityManager`).
  private var services = ServiceRanks(count: 0)
  /// The processes other than the one that changed whose adj its change moved between 500 and
  /// 800, at the last `appDidChange`: their owner refiles them.
  package private(set) var servicesMoved: [Int] = []

  package init(ranking: Ranking = .recency) { self.ranking = ranking }

  package mutating func start(_ device: DeviceView) {
    isTopApp = Array(repeating: false, count: device.apps.count)
    shownUI = isTopApp
    appCount = device.appCount
    activeDaemons = device.apps.indices.map { device.systemProcess($0)?.kind == .activeDaemon }
    adjSince = Array(repeating: 0, count: device.apps.count)
    adjClass = Array(repeating: Int.min, count: device.apps.count)
    cached.reserveCapacity(device.apps.count)
    emptyLadder.reserveCapacity(device.apps.count)
    services = ServiceRanks(count: device.apps.count)
    servicesMoved.removeAll(keepingCapacity: true)
    servicesMoved.reserveCapacity(device.apps.count)
    previousApp = nil
    previousSinceMs = 0
  }

  /// Follows process `app` into its new status at `nowMs`.
  package mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int = 0) {
    let nowTop = Self.isTop(status, ranking)
    if isTopApp[app], !nowTop, status.state.isResident {
      previousApp = app
      previousSinceMs = nowMs
    } else if nowTop, previousApp == app {
      previousApp = nil
    }
    if !status.state.isResident, previousApp == app { previousApp = nil }
    isTopApp[app] = nowTop
    // A snapshot does not say what a process showed before time 0: an app it places suspended is
    // taken as one the user left, holding its activities.
    let leftByUser =
      status.leftForegroundMs != nil || (status.isFromSnapshot && status.state == .suspended)
    shownUI[app] = status.state.isResident && (shownUI[app] || nowTop || leftByUser)
    if !servicesMoved.isEmpty { servicesMoved.removeAll(keepingCapacity: true) }
    if ranking == .activityManager {
      // (Most changes are of processes with no background work: that is asked first.)
      let isService =
        status.hasBackgroundWork && status.state.isResident
        && adjBeforeB(app, status, nowMs: nowMs) == Self.service
      if isService || services.contains(app) {
        services.update(app, status, isService: isService)
        for other in services.moved where other != app {
          adjClass[other] = services.isB(other) ? Self.serviceB : Self.service
          adjSince[other] = nowMs
          servicesMoved.append(other)
        }
      }
    }
    let newClass =
      status.state.isResident ? fixedAdj(app, status, nowMs: nowMs) ?? Int.max : Int.min
    if newClass != adjClass[app] {
      adjClass[app] = newClass
      adjSince[app] = nowMs
    }
  }

  /// When the previous app stops being the previous app by time alone (`.activityManager`), if it is
  /// still the previous app at `nowMs`.
  package func previousExpiryMs(_ apps: [AppStatus], nowMs: Int) -> Int? {
    guard ranking == .activityManager, let app = previousApp,
      let expiry = Self.expiryMs(ofPrevious: apps[app], since: previousSinceMs)
    else { return nil }
    return expiry > nowMs ? expiry : nil
  }

  /// The first millisecond at which the previous app in `status` is "previous-expired": more than
  /// `MAX_PREVIOUS_TIME` after its process state last became `LAST_ACTIVITY` (`computeOomAdjLSP`
  /// lines 2163–2165 compare `lastStateTime + MAX_PREVIOUS_TIME < now`, strictly; `applyOomAdjLSP`
  /// sets `lastStateTime` at a change of memory state, lines 3482–3485), that is after it was
  /// suspended, its background work and modes over, and was the previous app (an app behind the
  /// lock is the top app until another opens, suspended or not). Never while it runs in the
  /// background: a started service keeps its state at `PROCESS_STATE_SERVICE`.
  @inline(__always)
  private static func expiryMs(ofPrevious status: AppStatus, since previousSinceMs: Int) -> Int? {
    guard status.state == .suspended else { return nil }
    return max(status.enteredStateMs, previousSinceMs) + maxPreviousTimeMs + 1
  }

  /// Whether the process in `status` is ActivityManager's top app: on screen, or
  /// (`.activityManager`) behind the lock, which keeps it at `FOREGROUND_APP_ADJ` ("top-sleeping",
  /// `computeOomAdjLSP` lines 1960–1965: the top app while the top process state is not
  /// `PROCESS_STATE_TOP`). jetsim 0.3's ranking, kept for `oom-badness`, does not know the lock.
  @inline(__always)
  private static func isTop(_ status: AppStatus, _ ranking: Ranking) -> Bool {
    status.state.isForeground
      || (ranking == .activityManager && status.isBehindLock && status.state.isResident)
  }

  /// The adj of process `app` in `status` at `nowMs`, if it is not cached (cached processes' adj
  /// depends on their rank: see `forEachCached`); nil for a cached one.
  @inline(__always)
  package func fixedAdj(_ app: Int, _ status: AppStatus, nowMs: Int = 0) -> Int? {
    let adj = adjBeforeB(app, status, nowMs: nowMs)
    return adj == Self.service && services.isB(app) ? Self.serviceB : adj
  }

  /// `fixedAdj` before service B (`ServiceRanks`) moves a started service to 800.
  @inline(__always)
  private func adjBeforeB(_ app: Int, _ status: AppStatus, nowMs: Int) -> Int? {
    if activeDaemons[app] { return Self.persistent }
    if Self.isTop(status, ranking) { return Self.foreground }
    if status.keepsRunning { return Self.perceptible }
    if app == previousApp {
      // OomAdjuster computeOomAdjLSP (line 2157, before services): "previous-expired" once
      // MAX_PREVIOUS_TIME has passed, at the fixed CACHED_APP_MIN_ADJ with the state
      // LAST_ACTIVITY: outside the cached slots (`assignCachedAdjIfNecessary` skips an adj already
      // set) and not counted as cached by the trim (`updateAndTrimProcessLSP` counts
      // CACHED_ACTIVITY only), until another app is the previous one.
      if ranking == .activityManager,
        let expiry = Self.expiryMs(ofPrevious: status, since: previousSinceMs),
        expiry <= nowMs
      {
        return Self.cachedMin
      }
      return Self.previous
    }
    // A started service (`computeOomAdjLSP`, lines 2244–2283, after the previous app):
    // SERVICE_ADJ in a process that has not shown UI; one that has goes to the LRU list
    // ("cch-started-ui-services"): `CachedKind.service`.
    if status.hasBackgroundWork, !shownUI[app] { return Self.service }
    return nil
  }

  /// Where a cached process stands in `assignCachedAdjIfNecessary` (OomAdjuster.java at
  /// frameworks/base 02978520).
  package enum CachedKind: Sendable {
    /// An app (it holds activities) cached with no work: the cached apps' ladder from 900, counted
    /// by the trim as cached.
    case cached
    /// An app that has shown UI with a started service under way (`.activityManager`): its
    /// process state stays PROCESS_STATE_SERVICE, so it gets the empty processes' ladder (the
    /// `default` branch, line 1262: "long-running services that have dropped down to the cached
    /// level will be treated as empty"); the trim counts it neither as cached nor as empty
    /// (`mNumNonCachedProcs`, line 1402), so the ladder's step (`numEmptyProcs`, line 1178)
    /// leaves it out. It holds activities, so in the LRU list it stands above every empty
    /// process (ProcessList `updateLruProcessLocked` keeps processes with activities above
    /// `mLruProcessActivityStart`), and the ladder, walked from the top, reaches it first.
    case service
    /// A process without activities (`.activityManager`): an idle daemon or extension, or an app
    /// that has not been on screen in its present life, such as one woken into the background
    /// whose work is over. `computeOomAdjLSP` leaves such a process "cch-empty" (its last branch
    /// before the activities are examined, lines 1970–1977, and they are examined only when it has
    /// some), with the process state `PROCESS_STATE_CACHED_EMPTY`: the empty processes' ladder
    /// from 905, counted by the trim as empty. (A recent task would make it `CACHED_RECENT`, but a
    /// task's root process is cleared when its process dies, so a new life holds none until an
    /// activity starts in it.)
    case empty
  }

  /// The kind of process `app` in `status`, when it is cached (`fixedAdj` nil).
  package func cachedKind(_ app: Int, _ status: AppStatus) -> CachedKind {
    guard ranking == .activityManager else { return .cached }
    if app >= appCount || !shownUI[app] { return .empty }
    return status.hasBackgroundWork ? .service : .cached
  }

  /// Calls `body` with each process of `resident` and its adj at `nowMs`: first those whose adj is
  /// fixed, in `resident`'s order, then the cached ones (see `forEachCached`).
  ///
  /// - Complexity: O(*r* + *c* log *c*) for *r* processes in memory, *c* of them cached.
  package mutating func forEachResident(
    in resident: AppSet, _ apps: [AppStatus], nowMs: Int = 0, _ body: (Int, Int) -> Void
  ) {
    for app in resident.members {
      if let adj = fixedAdj(app, apps[app], nowMs: nowMs) { body(app, adj) }
    }
    forEachCached(in: resident, apps, nowMs: nowMs, body)
  }

  /// Calls `body` with each cached process of `resident` and its adj at `nowMs`, most recently
  /// used first: by `ranking`.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cached processes; no allocation once warmed up.
  package mutating func forEachCached(
    in resident: AppSet, _ apps: [AppStatus], nowMs: Int = 0, _ body: (Int, Int) -> Void
  ) {
    cached.removeAll(keepingCapacity: true)
    emptyLadder.removeAll(keepingCapacity: true)
    var emptyProcesses = 0
    for app in resident.members where fixedAdj(app, apps[app], nowMs: nowMs) == nil {
      switch cachedKind(app, apps[app]) {
      case .cached: cached.append(app)
      case .service: emptyLadder.append(app)
      case .empty:
        emptyLadder.append(app)
        emptyProcesses += 1
      }
    }
    Self.sortByRecency(&cached, apps)
    guard ranking == .activityManager else {
      for (rank, app) in cached.enumerated() {
        body(app, min(Self.cachedMax, Self.cachedMin + rank))
      }
      return
    }
    // The started services (apps that have shown UI) first, then the empty processes.
    let (appCount, shownUI) = (appCount, shownUI)
    emptyLadder.sort { a, b in
      let (serviceA, serviceB) = (a < appCount && shownUI[a], b < appCount && shownUI[b])
      return serviceA != serviceB ? serviceA : Self.isMoreRecent(apps[a], apps[b])
    }
    Self.assignSlots(cached, first: Self.cachedMin, body)
    Self.assignSlots(
      emptyLadder, first: Self.cachedMin + Self.importanceLevels, counted: emptyProcesses, body)
  }

  /// How many processes share a slot when `count` are counted (`cachedFactor`, `emptyFactor`).
  package static func slotFactor(_ count: Int) -> Int {
    max(1, (count + slotCount - 1) / slotCount)
  }

  /// ActivityManager's LRU order: whether `a` was used more recently than `b` (ties by app id).
  package static func isMoreRecent(_ a: AppStatus, _ b: AppStatus) -> Bool {
    a.lastUsedMs != b.lastUsedMs ? a.lastUsedMs > b.lastUsedMs : a.idRank < b.idRank
  }

  private static func sortByRecency(_ list: inout [Int], _ apps: [AppStatus]) {
    list.sort { isMoreRecent(apps[$0], apps[$1]) }
  }

  /// OomAdjuster `assignCachedAdjIfNecessary` for one kind (cached activities from 900, empty
  /// processes from 905), `processes` most recent first: `ceil(n / mNumSlots)` processes share a
  /// slot for `n` of them `counted` (all unless said), slots step by `2 ×
  /// CACHED_APP_IMPORTANCE_LEVELS`, the last one is 999.
  package static func assignSlots(
    _ processes: [Int], first: Int, counted: Int? = nil, _ body: (Int, Int) -> Void
  ) {
    let factor = slotFactor(counted ?? processes.count)
    var current = first
    var next = first + importanceLevels * 2
    var step = -1
    for app in processes {
      if current != next {
        step += 1
        if step >= factor {
          step = 0
          current = next
          next = min(next + importanceLevels * 2, cachedMax)
        }
      }
      body(app, current)
    }
  }
}
