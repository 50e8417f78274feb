/// Chooses which process dies when memory runs short (docs/model.md §6, §7).
///
/// The simulation tells the policy of every change to a process (`appDidChange`), so a policy can
/// keep its candidates ordered as it goes, and asks it for evictions (`nextEviction`) after every
/// event, one at a time, until it answers nil. A policy decides itself when to act: the default
/// policy acts only while free memory is below the critical threshold. If free memory is below
/// critical and the policy answers nil, the run records a shortfall.
///
/// When an allocation waits for room (a launch, a resume, growth), `DeviceView.freeKB` is the free
/// memory left once it lands, and `DeviceView.allocatingApp` the process allocating: the policy
/// should choose any victim but that one. If it names it anyway, the simulation takes it to mean
/// "no one else" and stops; it kills the allocating process only if its memory cannot fit at all.
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
///       .filter { device.apps[$0].state == .suspended && $0 != device.allocatingApp }
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
  /// Called after process `app` changed state, footprint, recency or background work, and after
  /// a system process's start whose memory did not land (the policy was asked with it pending).
  /// `status` is its new status.
  mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int)
  /// Called when the pressure level the simulation registers (`DeviceView.level`) changes, before
  /// the policy is asked for evictions at the new level: for a policy that acts on how long a
  /// level lasts (jetsam's sustained-pressure kills). The default does nothing.
  mutating func pressureDidChange(to level: PressureLevel, nowMs: Int)
  /// The next process to terminate now, or nil to stop.
  mutating func nextEviction(_ device: DeviceView) -> Eviction?
  /// The free memory below which this policy may act, asked once after `start`: the simulation does
  /// not ask for evictions while free memory is at or above it. The default, `Int.max`, means "ask
  /// after every change".
  func actsBelowFreeKB(_ device: DeviceProfile) -> Int
  /// The free memory below which this policy may act at `nowMs`, as things stand, when that is
  /// lower than `actsBelowFreeKB` (jetsam between its levels with nobody it could kill there):
  /// the simulation does not ask for evictions at or above it, and asks this again after every
  /// change. A policy that answers lower than it would act makes the simulation miss its
  /// evictions; the default, `Int.max`, narrows nothing.
  func actsNowBelowFreeKB(nowMs: Int) -> Int
  /// When to ask the policy again if no event happens before, after it answered nil while free
  /// memory was below `actsBelowFreeKB`: for a policy whose decisions change with time alone (a
  /// process leaving an aging band). The default, nil, means never.
  func reconsiderAtMs(_ device: DeviceView) -> Int?
  /// The priority band of process `app` at `nowMs` as this policy ranks it, written in kills.csv's
  /// `band` column for every kill the policy's run makes. The default, nil, is for policies
  /// without bands.
  func band(of app: Int, nowMs: Int) -> Int?
  /// Whether the policy ranks processes in priority bands (`band(of:nowMs:)` answers): its runs
  /// count kills per band in summary.csv. The default is false.
  var hasBands: Bool { get }
  /// Whether the policy has an action under way that goes on whatever the memory (jetsam's
  /// aggressive march and reaper sweep, and the kill that follows a purge that was not enough;
  /// ActivityManager's trim of processes over its limits): the simulation then asks it even above
  /// `actsBelowFreeKB`, until it answers nil. The default is false.
  var isActing: Bool { get }
}

extension EvictionPolicy {
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { Int.max }
  public func actsNowBelowFreeKB(nowMs: Int) -> Int { Int.max }

  public func reconsiderAtMs(_ device: DeviceView) -> Int? { nil }

  public func band(of app: Int, nowMs: Int) -> Int? { nil }

  public var hasBands: Bool { false }

  public var isActing: Bool { false }

  public mutating func start(_ device: DeviceView) {}
  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {}
  public mutating func pressureDidChange(to level: PressureLevel, nowMs: Int) {}
}

/// A policy's decision: kill `app` for `reason`, or first purge its purgeable memory.
public struct Eviction: Sendable, Equatable {
  /// The process concerned.
  public var app: Int
  /// The reason recorded in `kills.csv`.
  public var reason: KillReason
  /// Whether to purge the app's purgeable memory (its caches) instead of killing it. The simulation
  /// then asks the policy again, so a policy purges before it kills by answering `purge` while the
  /// app has `purgeableKB` left.
  public var purgeOnly: Bool
  /// lmkd's figures for this kill, written in kills.csv; nil for other policies.
  public var lmkd: LmkdKillInfo?

  /// Kill `app` for `reason`.
  public init(app: Int, reason: KillReason = .vmPageshortage) {
    self.app = app
    self.reason = reason
    self.purgeOnly = false
    self.lmkd = nil
  }

  /// Purge `app`'s purgeable memory without killing it.
  public static func purge(_ app: Int) -> Eviction {
    var eviction = Eviction(app: app)
    eviction.purgeOnly = true
    return eviction
  }
}
