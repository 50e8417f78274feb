/// The numbers of a process's profile that the simulation reads on every event, as plain data:
/// reading them costs no reference counting, unlike copying an `AppProfile` (which holds strings
/// and arrays).
struct AppTraits: Sendable {
  var residentKB: Int
  var cachesKB: Int
  var backingStoresKB: Int
  var launchPeakKB: Int
  var growthPerTickKB: Int
  /// The most it grows in one lifetime (`Int.max`: unbounded).
  var maxGrowthKB: Int
  var limitKB: Int
  /// Its separate active and inactive limits, if its profile gives them (then `limitKB` is unused).
  var limits: MemoryLimits?
  var warningFreesPercent: Int
  var backgroundWorkMs: Int
  var backgroundTaskMs: Int
  var coldLaunchMs: Int
  var warmResumeMs: Int
  var launchSteps: Int
  var exitsOnSuspend: Bool
  /// For a system process: the state it runs in, and how long after a kill it is relaunched (-1:
  /// never).
  var systemState: AppState?
  var relaunchDelayMs: Int

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
    systemState = nil
    relaunchDelayMs = -1
  }

  init(_ process: SystemProcess) {
    residentKB = process.footprintKB
    cachesKB = 0
    backingStoresKB = 0
    launchPeakKB = 0
    growthPerTickKB = 0
    maxGrowthKB = 0
    limitKB = process.hardLimitKB ?? Int.max
    limits = process.memoryLimits
    warningFreesPercent = 0
    backgroundWorkMs = 0
    backgroundTaskMs = 0
    coldLaunchMs = 0
    warmResumeMs = 0
    launchSteps = 1
    exitsOnSuspend = false
    systemState = process.runningState
    // At least a millisecond after the kill (or a relaunch that found no room): a daemon killed
    // and relaunched in one instant, again and again, would hold the clock still for ever.
    relaunchDelayMs = process.relaunchDelayMs.map { max(1, $0) } ?? -1
  }
}
