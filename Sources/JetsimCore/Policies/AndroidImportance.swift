/// Android's `oom_score_adj` for the processes in memory, as `lmkd` and `oom-badness` use it
/// (docs/policies.md; ActivityManager's ProcessList): foreground 0; perceptible (audio, location or
/// VoIP in use) 200; service (background work under way) 500; the previous app 700; cached 900 to
/// 999 by recency, the most recent 900. An active system daemon is persistent (-800: never a victim);
/// an idle daemon or an extension is cached like an app.
///
/// The previous app is one process, ActivityManager's `mPreviousProcess`: the app that was on screen
/// before the current one. It is set when an app leaves the screen, and cleared when that app comes
/// back to the screen (`updateTopResumedActivityIfNeeded`) or dies
/// (`cleanUpApplicationRecordLocked`); no older app inherits it.
///
/// The state is kept as processes change, so a decision allocates nothing.
package struct AndroidImportance: Sendable {
  package static let persistent = -800
  package static let foreground = 0
  package static let perceptible = 200
  package static let service = 500
  package static let previous = 700
  package static let cachedMin = 900
  package static let cachedMax = 999

  /// The previous app, if any.
  package private(set) var previousApp: Int?
  private var onScreen: [Bool] = []
  private var appCount = 0
  private var activeDaemons: [Bool] = []
  /// Cached processes, reused for each decision that needs their ranks.
  private var cached: [Int] = []

  package init() {}

  package mutating func start(_ device: DeviceView) {
    onScreen = Array(repeating: false, count: device.apps.count)
    appCount = device.appCount
    activeDaemons = device.apps.indices.map { device.systemProcess($0)?.kind == .activeDaemon }
    cached.reserveCapacity(device.apps.count)
    previousApp = nil
  }

  /// Follows process `app` into its new status.
  package mutating func appDidChange(_ app: Int, _ status: AppStatus) {
    let nowOnScreen = status.state.isForeground
    if onScreen[app], !nowOnScreen, status.state.isResident {
      previousApp = app
    } else if nowOnScreen, previousApp == app {
      previousApp = nil
    }
    if !status.state.isResident, previousApp == app { previousApp = nil }
    onScreen[app] = nowOnScreen
  }

  /// The adj of process `app` in `status`, if it is not cached (cached processes' adj depends on
  /// their rank: see `cachedRanks`); nil for a cached one.
  package func fixedAdj(_ app: Int, _ status: AppStatus) -> Int? {
    if activeDaemons[app] { return Self.persistent }
    if status.state.isForeground { return Self.foreground }
    if status.keepsRunning { return Self.perceptible }
    if status.hasBackgroundWork { return Self.service }
    if app == previousApp { return Self.previous }
    return nil
  }

  /// Calls `body` with each process of `resident` and its adj: first those whose adj is fixed, in
  /// `resident`'s order, then the cached ones, most recently used first (see `forEachCached`).
  ///
  /// - Complexity: O(*r* + *c* log *c*) for *r* processes in memory, *c* of them cached.
  package mutating func forEachResident(
    in resident: AppSet, _ apps: [AppStatus], _ body: (Int, Int) -> Void
  ) {
    for app in resident.members {
      if let adj = fixedAdj(app, apps[app]) { body(app, adj) }
    }
    forEachCached(in: resident, apps, body)
  }

  /// Calls `body` with each cached process of `resident` and its adj (900 for the most recently
  /// used, then 901, ..., at most 999).
  ///
  /// - Complexity: O(*c* log *c*) for *c* cached processes; no allocation once warmed up.
  package mutating func forEachCached(
    in resident: AppSet, _ apps: [AppStatus], _ body: (Int, Int) -> Void
  ) {
    cached.removeAll(keepingCapacity: true)
    for app in resident.members where fixedAdj(app, apps[app]) == nil { cached.append(app) }
    cached.sort {
      let (a, b) = (apps[$0], apps[$1])
      return a.lastUsedMs != b.lastUsedMs ? a.lastUsedMs > b.lastUsedMs : a.idRank < b.idRank
    }
    for (rank, app) in cached.enumerated() { body(app, min(Self.cachedMax, Self.cachedMin + rank)) }
  }
}
