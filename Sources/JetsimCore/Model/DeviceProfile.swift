/// A device: its memory, what the system keeps for itself, its limits and pressure thresholds.
///
/// All sizes are kilobytes and all durations milliseconds. In JSON (docs/profiles.md) sizes and
/// durations are written with units and every field but `name`, `memory` and `reserved` is optional.
public struct DeviceProfile: Sendable, Equatable {
  /// The device's name, as written in reports.
  public var name: String
  /// Physical memory as the OS reports it.
  public var memoryKB: Int
  /// Memory held by the kernel and wired memory (and by daemons the profile does not list as
  /// system processes), never available to processes.
  public var reservedKB: Int
  /// The footprint at which an app is killed (`per-process-limit`) unless its profile overrides it.
  public var foregroundLimitKB: Int
  /// Free memory below this is the `warning` level.
  public var warningThresholdKB: Int
  /// Free memory below this is the `critical` level: the policy kills until it is not.
  public var criticalThresholdKB: Int
  /// jetsam's critical level while its IDLE band holds anyone (XNU's idle level): never below
  /// `criticalThresholdKB`.
  public var idleThresholdKB: Int
  /// Below this, jetsam's long-idle reaper sweeps (XNU's reaper level).
  public var reaperThresholdKB: Int
  /// The long-idle reaper's settings (on by default, as on iOS).
  public var reaper = Reaper()
  /// App swap (M-series iPads, `memorystatus_swap_all_apps`): suspended apps' memory may go to
  /// swap, up to a budget; nil on devices without it.
  public var appSwap: AppSwap?
  /// How much suspended apps' memory is compressed: 1000 means none, 2000 means 2:1.
  public var compressionPermille: Int
  /// The time didEnterBackground may take before the watchdog kills the app.
  public var enterBackgroundTimeoutMs: Int
  /// The longest a background task or background wake may run before the app is killed.
  public var backgroundTaskLimitMs: Int
  /// Where the figures come from, for people reading the profile.
  public var source: String?
  /// Settings of the built-in policies on this device.
  public var policySettings = PolicySettings()
  /// The system's own processes (daemons, extensions, widgets), which share memory with the apps
  /// (docs/model.md §11). `reservedKB` is what the kernel and wired memory hold besides them.
  public var systemProcesses: [SystemProcess] = []
  /// The values given for the thresholds and foreground limit, kept so that `withMemory` recomputes
  /// only what was derived from the memory.
  private var given: (levels: MemoryLevels.Given, foregroundLimit: Int?) = (.init(), nil)

  /// The physical memory a footprint occupies in `state`: suspended memory is compressed by the
  /// device's ratio (policies still see the footprint).
  @inlinable public func physicalKB(footprintKB: Int, state: AppState) -> Int {
    Self.physicalKB(
      footprintKB: footprintKB, state: state, compressionPermille: compressionPermille)
  }

  /// `physicalKB(footprintKB:state:)` on a device whose ratio is `compressionPermille`: for code
  /// that keeps the ratio at hand rather than the whole profile (it runs on every change).
  @inlinable package static func physicalKB(
    footprintKB: Int, state: AppState, compressionPermille: Int
  ) -> Int {
    state == .suspended && compressionPermille > 1000
      ? footprintKB * 1000 / compressionPermille : footprintKB
  }

  /// Memory available to apps: `memoryKB - reservedKB`.
  @inlinable public var usableKB: Int { memoryKB - reservedKB }

  /// A device profile. Levels left out follow XNU's for `memoryKB` (`MemoryLevels`: by DRAM class,
  /// or by XNU's ratios from a critical level given alone); the foreground limit left out is the
  /// whole usable memory.
  public init(
    name: String, memoryKB: Int, reservedKB: Int, foregroundLimitKB: Int? = nil,
    warningThresholdKB: Int? = nil, criticalThresholdKB: Int? = nil,
    idleThresholdKB: Int? = nil, reaperThresholdKB: Int? = nil,
    compressionRatio: Double = 1, enterBackgroundTimeoutMs: Int = Defaults.enterBackgroundTimeoutMs,
    backgroundTaskLimitMs: Int = Defaults.backgroundTaskLimitMs, source: String? = nil
  ) {
    let given = MemoryLevels.Given(
      critical: criticalThresholdKB, idle: idleThresholdKB, pressure: warningThresholdKB,
      reaper: reaperThresholdKB)
    let levels = MemoryLevels(memoryKB: memoryKB, given: given)
    self.name = name
    self.memoryKB = memoryKB
    self.reservedKB = reservedKB
    self.foregroundLimitKB = foregroundLimitKB ?? (memoryKB - reservedKB)
    self.warningThresholdKB = levels.pressureKB
    self.criticalThresholdKB = levels.criticalKB
    self.idleThresholdKB = levels.idleKB
    self.reaperThresholdKB = levels.reaperKB
    self.compressionPermille = Int((compressionRatio * 1000).rounded())
    self.enterBackgroundTimeoutMs = enterBackgroundTimeoutMs
    self.backgroundTaskLimitMs = backgroundTaskLimitMs
    self.source = source
    self.given = (given, foregroundLimitKB)
  }

  /// The same device with `memoryKB` of memory: thresholds and the foreground limit that the profile
  /// did not give are derived again from the new memory; given ones, and the reserved memory, stay.
  public func withMemory(_ memoryKB: Int) -> DeviceProfile {
    var device = DeviceProfile(
      name: name, memoryKB: memoryKB, reservedKB: reservedKB,
      foregroundLimitKB: given.foregroundLimit,
      warningThresholdKB: given.levels.pressure, criticalThresholdKB: given.levels.critical,
      idleThresholdKB: given.levels.idle, reaperThresholdKB: given.levels.reaper,
      compressionRatio: Double(compressionPermille) / 1000,
      enterBackgroundTimeoutMs: enterBackgroundTimeoutMs,
      backgroundTaskLimitMs: backgroundTaskLimitMs, source: source)
    device.policySettings = policySettings
    device.systemProcesses = systemProcesses
    device.reaper = reaper
    device.appSwap = appSwap
    return device
  }

  public static func == (a: DeviceProfile, b: DeviceProfile) -> Bool {
    a.name == b.name && a.memoryKB == b.memoryKB && a.reservedKB == b.reservedKB
      && a.foregroundLimitKB == b.foregroundLimitKB && a.warningThresholdKB == b.warningThresholdKB
      && a.criticalThresholdKB == b.criticalThresholdKB
      && a.idleThresholdKB == b.idleThresholdKB && a.reaperThresholdKB == b.reaperThresholdKB
      && a.reaper == b.reaper && a.appSwap == b.appSwap
      && a.compressionPermille == b.compressionPermille
      && a.enterBackgroundTimeoutMs == b.enterBackgroundTimeoutMs
      && a.backgroundTaskLimitMs == b.backgroundTaskLimitMs
      && a.source == b.source && a.policySettings == b.policySettings
      && a.systemProcesses == b.systemProcesses
  }

  /// A copy whose strings share no storage with this one (for runs on other threads).
  package var unshared: DeviceProfile {
    var copy = self
    copy.name = name.unshared
    copy.source = source?.unshared
    copy.systemProcesses = systemProcesses.map(\.unshared)
    return copy
  }

  /// The pressure level at `freeKB` of free memory.
  @inlinable
  public func level(freeKB: Int) -> PressureLevel {
    if freeKB < criticalThresholdKB { return .critical }
    if freeKB < warningThresholdKB { return .warning }
    return .normal
  }

  /// Problems that make the profile unusable, as (key, value, expectation) triples.
  package func problems() -> [(key: String, value: String, expected: String)] {
    var found: [(String, String, String)] = []
    if memoryKB <= 0 { found.append(("memory", Units.formatSize(memoryKB), "more than 0KB")) }
    if reservedKB >= memoryKB {
      found.append(
        (
          "reserved", Units.formatSize(reservedKB),
          "less than memory (\(Units.formatSize(memoryKB)))"
        ))
    }
    if criticalThresholdKB > warningThresholdKB {
      found.append(
        (
          "criticalThreshold", Units.formatSize(criticalThresholdKB),
          "at most warningThreshold (\(Units.formatSize(warningThresholdKB)))"
        ))
    }
    if foregroundLimitKB <= 0 {
      found.append(("foregroundLimit", Units.formatSize(foregroundLimitKB), "more than 0KB"))
    }
    // The system processes must fit beside the reserved memory when they all run.
    let system = systemProcesses.reduce(0) {
      $0 + physicalKB(footprintKB: $1.footprintKB, state: $1.runningState)
    }
    if reservedKB < memoryKB, system > memoryKB - reservedKB {
      found.append(
        (
          "systemProcesses", "\(Units.megabytes(system)) in all",
          "at most the memory left beside the reserved memory (\(Units.megabytes(memoryKB - reservedKB)))"
        ))
    }
    return found
  }
}
