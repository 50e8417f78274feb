/// The numbers of an app profile that the simulation reads on every event, as plain data: reading
/// them costs no reference counting, unlike copying an `AppProfile` (which holds strings and arrays).
struct AppTraits: Sendable {
  var residentKB: Int
  var cachesKB: Int
  var backingStoresKB: Int
  var launchPeakKB: Int
  var growthPerTickKB: Int
  /// The most it grows in one lifetime (`Int.max`: unbounded).
  var maxGrowthKB: Int
  var limitKB: Int
  var warningFreesPercent: Int
  var backgroundWorkMs: Int
  var backgroundTaskMs: Int
  var coldLaunchMs: Int
  var warmResumeMs: Int
  var exitsOnSuspend: Bool

  init(_ profile: AppProfile, device: DeviceProfile) {
    residentKB = profile.residentKB
    cachesKB = profile.cachesKB
    backingStoresKB = profile.backingStoresKB
    launchPeakKB = profile.launchPeakKB
    growthPerTickKB = profile.growthPerMinuteKB * Defaults.growthTickMs / 60_000
    maxGrowthKB = profile.maxGrowthKB ?? Int.max
    limitKB = profile.memoryLimitKB ?? device.foregroundLimitKB
    warningFreesPercent = profile.memoryWarningFreesPercent
    backgroundWorkMs = profile.backgroundWorkMs
    backgroundTaskMs = profile.backgroundTaskMs
    coldLaunchMs = profile.coldLaunchMs
    warmResumeMs = profile.warmResumeMs
    exitsOnSuspend = profile.exitsOnSuspend
  }
}
