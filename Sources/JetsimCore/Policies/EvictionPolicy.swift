/// Chooses which app dies when memory runs short (docs/model.md §6, §7).
///
/// The simulation tells the policy of every change to an app (`appDidChange`), so a policy can keep
/// its candidates ordered as it goes, and asks it for evictions (`nextEviction`) after every change
/// to memory, one at a time, until it answers nil. A policy decides itself when to act: the default
/// policy acts only while free memory is below the critical threshold. If free memory is below
/// critical and the policy answers nil, the run records a shortfall.
///
/// A policy never sends callbacks: the simulation delivers `willTerminate` to an app killed while
/// running in the background, and nothing to any other victim.
///
/// A minimal policy that kills the smallest suspended app:
///
/// ```swift
/// struct SmallestSuspendedFirst: EvictionPolicy {
///   let name = "smallest-suspended-first"
///   mutating func nextEviction(_ device: DeviceView) -> Eviction? {
///     guard device.isBelowCritical else { return nil }
///     return device.apps.indices
///       .filter { device.apps[$0].state == .suspended }
///       .min { device.apps[$0].footprintKB < device.apps[$1].footprintKB }
///       .map { Eviction(app: $0) }
///   }
/// }
/// ```
public protocol EvictionPolicy {
  /// The name written in reports.
  var name: String { get }
  /// Called once before the run starts.
  mutating func start(_ device: DeviceView)
  /// Called after app `app` changed state, footprint, recency or background work. `status` is its
  /// new status.
  mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int)
  /// The next app to terminate now, or nil to stop.
  mutating func nextEviction(_ device: DeviceView) -> Eviction?
  /// The free memory below which this policy may act, asked once after `start`: the simulation does
  /// not ask for evictions while free memory is at or above it. The default, `Int.max`, means "ask
  /// after every change".
  func actsBelowFreeKB(_ device: DeviceProfile) -> Int
}

extension EvictionPolicy {
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { Int.max }

  public mutating func start(_ device: DeviceView) {}
  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {}
}

/// A policy's decision: kill `app` for `reason`, or first purge its purgeable memory.
public struct Eviction: Sendable, Equatable {
  /// The app concerned.
  public var app: Int
  /// The reason recorded in `kills.csv`.
  public var reason: KillReason
  /// Whether to purge the app's purgeable memory (its caches) instead of killing it. The simulation
  /// then asks the policy again, so a policy purges before it kills by answering `purge` while the
  /// app has `purgeableKB` left.
  public var purgeOnly: Bool

  /// Kill `app` for `reason`.
  public init(app: Int, reason: KillReason = .vmPageshortage) {
    self.app = app
    self.reason = reason
    self.purgeOnly = false
  }

  /// Purge `app`'s purgeable memory without killing it.
  public static func purge(_ app: Int) -> Eviction {
    var eviction = Eviction(app: app)
    eviction.purgeOnly = true
    return eviction
  }
}

/// The device as a policy sees it when asked for a victim.
public struct DeviceView {
  /// The device profile.
  public let device: DeviceProfile
  /// The app profiles, by index.
  public let profiles: [AppProfile]
  /// Every app's status, by index.
  public let apps: [AppStatus]
  /// The current time, in milliseconds.
  public let nowMs: Int
  /// Free memory now.
  public let freeKB: Int
  /// The pressure level now.
  public let level: PressureLevel
  /// The app on screen, if any.
  public let foregroundApp: Int?
  /// The run's seed, for policies that draw random numbers (use `RandomStream(seed:source: .policy)`).
  public let seed: UInt64

  /// Whether free memory is below the device's critical threshold.
  public var isBelowCritical: Bool { freeKB < device.criticalThresholdKB }

  /// The per-app limit of `app`: its own `memoryLimit`, or the device's foreground limit.
  public func limitKB(of app: Int) -> Int {
    profiles[app].memoryLimitKB ?? device.foregroundLimitKB
  }
}
