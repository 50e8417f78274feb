/// A device's memory levels as XNU sets them (xnu-11417 bsd/kern/kern_memorystatus.c: the fallback
/// table beside `memstat_critical_threshold`, `memstat_idle_threshold`, `memstat_soft_threshold`,
/// `memstat_reaper_threshold`; docs/model.md §5, §7): a level the device gives is kept; the others
/// are shares of memory by DRAM class, or, when the device gives its critical level, XNU's ratios
/// of it. The idle level is never below the critical one, and nothing caps it at the pressure
/// level.
public struct MemoryLevels: Sendable, Equatable {
  /// The levels a profile gives (nil: derived).
  public struct Given: Sendable, Equatable {
    /// The critical level given, in KB.
    public var critical: Int?
    /// The idle level given, in KB.
    public var idle: Int?
    /// The pressure (warning) level given, in KB.
    public var pressure: Int?
    /// The reaper level given, in KB.
    public var reaper: Int?

    /// The levels a profile gives; those left nil are derived.
    public init(critical: Int? = nil, idle: Int? = nil, pressure: Int? = nil, reaper: Int? = nil) {
      self.critical = critical
      self.idle = idle
      self.pressure = pressure
      self.reaper = reaper
    }
  }

  /// Below it, jetsam kills above the IDLE band (`critical`).
  public var criticalKB: Int
  /// Below it, jetsam kills in the IDLE band.
  public var idleKB: Int
  /// Below it, memory is under pressure (`warning`) and soft limits are enforced.
  public var pressureKB: Int
  /// Below it, the reaper sweeps long-idle processes.
  public var reaperKB: Int

  /// The levels of a device reporting `memoryKB`, with those it `given`.
  public init(memoryKB: Int, given: Given = Given()) {
    let memoryClass = Defaults.MemoryClass(memoryKB: memoryKB)
    let percents = memoryClass.percents
    let ratios = memoryClass.ratios
    let critical = given.critical ?? memoryKB * percents.critical / 100
    /// A level from its ratio to a given critical level, else its share of memory.
    func level(_ ratio: (Int, Int), _ percent: Int) -> Int {
      if let base = given.critical { return base * ratio.0 / ratio.1 }
      return memoryKB * percent / 100
    }
    criticalKB = critical
    idleKB = max(critical, given.idle ?? level(ratios.idle, percents.idle))
    pressureKB = given.pressure ?? level(ratios.pressure, percents.pressure)
    reaperKB = given.reaper ?? level(ratios.reaper, percents.reaper)
  }
}

extension DeviceProfile {
  /// XNU's long-idle reaper (xnu-11417 `memstat_reaper_*`, kern_memorystatus.c; on by default on
  /// iOS): while free memory is below the reaper level, a sweep kills the IDLE band's processes
  /// alive at least `minAgeMs`, at most one sweep every `periodMs` (`long-idle-exit`).
  public struct Reaper: Sendable, Equatable {
    /// Whether the reaper sweeps at all.
    public var enabled = true
    /// How long a process must have been alive to be reaped.
    public var minAgeMs = Defaults.reaperMinAgeMs
    /// The least time between the starts of two sweeps.
    public var periodMs = Defaults.reaperPeriodMs

    /// XNU's reaper on iOS (on, 300 s, 300 s); other settings change its fields.
    public init() {}
  }

  /// App swap on M-series iPads (xnu `memorystatus_swap_all_apps`): a suspended app's memory goes to
  /// swap while the swap in use stays within `budgetKB`; when swap runs short, jetsam kills
  /// swappable processes (`low-swap`, `MEMORYSTATUS_KILL_SWAPPABLE` and `_SUSPENDED_SWAPPABLE`).
  public struct AppSwap: Sendable, Equatable {
    /// The most memory swap holds.
    public var budgetKB: Int
    /// Whether jetsam kills swapped apps when swap runs short (xnu's `jetsam_kill_on_low_swap`,
    /// off in the source read for docs/policies.md; on here by default, as jetsim's design notes, outside this repository, ask).
    public var killsOnLowSwap: Bool

    /// App swap holding up to `budgetKB`.
    public init(budgetKB: Int, killsOnLowSwap: Bool = true) {
      self.budgetKB = budgetKB
      self.killsOnLowSwap = killsOnLowSwap
    }
  }
}
