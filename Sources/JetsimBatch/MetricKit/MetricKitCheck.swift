import JetsimCore
import JetsimIO

/// Real MetricKit payloads of an app beside its jetsim profile: the memory the payloads measured
/// against the profile's, and what a profile holds that no payload can give.
public struct MetricKitCheck: Sendable {
  /// The app's payloads, added together.
  public var real: MetricKitPayload
  /// The app's profile.
  public var profile: AppProfile

  /// The profile fields a payload says nothing about: they stay the profile's.
  public static let fieldsPayloadsCannotGive = [
    "caches", "backingStores", "growthPerMinute", "maxGrowth", "launchPeak", "backgroundModes",
    "backgroundWork", "backgroundTask", "exitsOnSuspend", "coldLaunch", "warmResume",
    "memoryWarningFrees",
  ]

  /// The real payloads `real` of the app `profile` describes.
  public init(real: MetricKitPayload, profile: AppProfile) {
    self.real = real
    self.profile = profile
  }

  /// The profile's largest footprint on screen: resident memory, its launch peak, caches, backing
  /// stores and all the growth it may have (`peakMemoryUsage`'s counterpart).
  public var profilePeakKB: Int {
    profile.residentKB + profile.launchPeakKB + profile.cachesKB + profile.backingStoresKB
      + (profile.maxGrowthKB ?? 0)
  }

  /// How far `measured` is from `modelled`, as a share of `measured` (nil if either is missing or
  /// `measured` is 0).
  public static func difference(modelled: Int, measured: Int?) -> Double? {
    guard let measured, measured > 0 else { return nil }
    return Double(modelled - measured) / Double(measured)
  }
}
