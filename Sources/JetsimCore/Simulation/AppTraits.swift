/// The numbers of a process's profile that the simulation reads on every event, as plain data:
/// reading them costs no reference counting, unlike copying an `AppProfile` (which holds strings
/// and arrays). The defaults are what a system process has of them: no caches, launch, growth or
/// background time, and no limit unless its profile gives one.
struct AppTraits: Sendable {
  var residentKB = 0
  var cachesKB = 0
  var backingStoresKB = 0
  var launchPeakKB = 0
  var growthPerTickKB = 0
  /// The most it grows in one lifetime (`Int.max`: unbounded).
  var maxGrowthKB = 0
  var limitKB = Int.max
  /// Its separate active and inactive limits, if its profile gives them (then `limitKB` is unused).
  var limits: MemoryLimits?
  var warningFreesPercent = 0
  var backgroundWorkMs = 0
  var backgroundTaskMs = 0
  var coldLaunchMs = 0
  var warmResumeMs = 0
  var launchSteps = 1
  var exitsOnSuspend = false
  /// For a system process: the state it runs in, and how long after a kill it is relaunched (-1:
  /// never).
  var systemState: AppState?
  var relaunchDelayMs = -1
  /// How it takes part in dirty tracking (an app: not), and whether it starts each life dirty.
  var dirtyTracking = DirtyTracking.none
  var startsDirty = false

  /// An app's, from its profile on `device`.
  init(_ profile: AppProfile, device: DeviceProfile) {
    residentKB = profile.residentKB
    cachesKB = profile.cachesKB
    backingStoresKB = profile.backingStoresKB
    launchPeakKB = profile.launchPeakKB
    growthPerTickKB = profile.growthPerMinuteKB * Defaults.growthTickMs / 60_000
    maxGrowthKB = profile.maxGrowthKB ?? Int.max
    limitKB = profile.memoryLimitKB ?? device.foregroundLimitKB
    limits = profile.memoryLimits(on: device)
    warningFreesPercent = profile.memoryWarningFreesPercent
    backgroundWorkMs = profile.backgroundWorkMs
    backgroundTaskMs = profile.backgroundTaskMs
    coldLaunchMs = profile.coldLaunchMs
    warmResumeMs = profile.warmResumeMs
    launchSteps = max(1, profile.launchSteps)
    exitsOnSuspend = profile.exitsOnSuspend
  }

  /// A system process's: its footprint, limits, state and relaunch; the rest as by default.
  init(_ process: SystemProcess) {
    residentKB = process.footprintKB
    limitKB = process.hardLimitKB ?? Int.max
    limits = process.memoryLimits
    systemState = process.runningState
    // At least a millisecond after the kill (or a relaunch that found no room): a daemon killed
    // and relaunched in one instant, again and again, would hold the clock still for ever.
    relaunchDelayMs = process.relaunchDelayMs.map { max(1, $0) } ?? -1
    dirtyTracking = process.dirtyTracking
    startsDirty = process.startsDirty
  }
}
