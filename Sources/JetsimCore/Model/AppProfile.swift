/// An app: its memory footprint parts and its lifecycle behaviour (docs/model.md §3, §4).
///
/// All sizes are kilobytes and all durations milliseconds. In JSON (docs/profiles.md) sizes and
/// durations are written with units; only `id` and `resident` are required.
public struct AppProfile: Sendable, Equatable {
  /// The app's identifier, used by scenarios and reports (for example `com.example.maps`).
  public var id: String
  /// A human-readable name.
  public var name: String
  /// What kind of app it is (game, camera, utility...), for people.
  public var category: String
  /// Dirty memory kept whenever the app is running or suspended.
  public var residentKB: Int
  /// Purgeable caches: dropped in didEnterBackground, rebuilt on return to the foreground.
  public var cachesKB: Int
  /// UI backing stores: exist only while the app is on screen.
  public var backingStoresKB: Int
  /// Extra memory held while launching, for `coldLaunchMs`.
  public var launchPeakKB: Int
  /// Growth of dirty memory per minute while the app is active.
  public var growthPerMinuteKB: Int
  /// The most it grows in one lifetime (nil: unbounded).
  public var maxGrowthKB: Int?
  /// Its own per-app limit, overriding the device's foreground limit.
  public var memoryLimitKB: Int?
  /// The share of its current caches it frees on a memory warning, in percent.
  public var memoryWarningFreesPercent: Int
  /// Background modes it declares.
  public var backgroundModes: [BackgroundMode]
  /// How long it runs after didEnterBackground (or how long didEnterBackground takes) before it can
  /// be suspended. Longer than the device's timeout, without a background task, is a watchdog kill.
  public var backgroundWorkMs: Int
  /// Extra time it asks for with a background task after didEnterBackground (0: none).
  public var backgroundTaskMs: Int
  /// Whether it opts out of background execution (`UIApplicationExitsOnSuspend`).
  public var exitsOnSuspend: Bool
  /// User-visible time of a cold launch.
  public var coldLaunchMs: Int
  /// User-visible time of a warm resume.
  public var warmResumeMs: Int
  /// In how many equal steps a cold launch's memory arrives over `coldLaunchMs` (1: all at once).
  /// With more, kills can interleave with a long launch, as on a device.
  public var launchSteps = 1
  /// Its limit while active (on screen or running in the background), if it has separate active
  /// and inactive limits (`MemoryLimits`); nil: the task limit.
  public var activeLimitKB: Int?
  /// Its limit while inactive (suspended); nil: the task limit.
  public var inactiveLimitKB: Int?
  /// Whether crossing `activeLimitKB` kills (nil: as the kernel defaults, not fatal).
  public var activeLimitFatal: Bool?
  /// Whether crossing `inactiveLimitKB` kills (nil: as the kernel defaults, not fatal).
  public var inactiveLimitFatal: Bool?

  /// An app profile; everything but the id and resident memory has a default.
  public init(
    id: String, name: String? = nil, category: String = "app", residentKB: Int, cachesKB: Int = 0,
    backingStoresKB: Int = 0, launchPeakKB: Int = 0, growthPerMinuteKB: Int = 0,
    maxGrowthKB: Int? = nil, memoryLimitKB: Int? = nil, memoryWarningFreesPercent: Int = 0,
    backgroundModes: [BackgroundMode] = [], backgroundWorkMs: Int = Defaults.backgroundWorkMs,
    backgroundTaskMs: Int = 0, exitsOnSuspend: Bool = false,
    coldLaunchMs: Int = Defaults.coldLaunchMs,
    warmResumeMs: Int = Defaults.warmResumeMs
  ) {
    self.id = id
    self.name = name ?? id
    self.category = category
    self.residentKB = residentKB
    self.cachesKB = cachesKB
    self.backingStoresKB = backingStoresKB
    self.launchPeakKB = launchPeakKB
    self.growthPerMinuteKB = growthPerMinuteKB
    self.maxGrowthKB = maxGrowthKB
    self.memoryLimitKB = memoryLimitKB
    self.memoryWarningFreesPercent = memoryWarningFreesPercent
    self.backgroundModes = backgroundModes
    self.backgroundWorkMs = backgroundWorkMs
    self.backgroundTaskMs = backgroundTaskMs
    self.exitsOnSuspend = exitsOnSuspend
    self.coldLaunchMs = coldLaunchMs
    self.warmResumeMs = warmResumeMs
  }

  /// A copy whose strings and arrays share no storage with this one (for runs on other threads).
  package var unshared: AppProfile {
    var copy = self
    copy.id = id.unshared
    copy.name = name.unshared
    copy.category = category.unshared
    copy.backgroundModes = backgroundModes.map { $0 }
    return copy
  }

  /// Its active and inactive limits on `device`, when it gives either (the task limit being its
  /// `memoryLimitKB`, or the device's foreground limit); nil when it gives neither.
  public func memoryLimits(on device: DeviceProfile) -> MemoryLimits? {
    MemoryLimits.resolved(
      activeKB: activeLimitKB, activeFatal: activeLimitFatal, inactiveKB: inactiveLimitKB,
      inactiveFatal: inactiveLimitFatal, taskLimitKB: memoryLimitKB ?? device.foregroundLimitKB)
  }

  /// The declared background modes as a bit set (`BackgroundMode.bit`).
  public var backgroundModeBits: UInt8 { backgroundModes.reduce(0) { $0 | $1.bit } }

  /// Whether the app declares `mode`.
  public func declares(_ mode: BackgroundMode) -> Bool { backgroundModes.contains(mode) }
}
