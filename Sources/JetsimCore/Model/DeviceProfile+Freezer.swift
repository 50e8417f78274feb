extension DeviceProfile {
  /// XNU's freezer (bsd/kern/kern_memorystatus_freeze.c, `CONFIG_FREEZE`; xnu-11417.101.15): a
  /// device capability that the `jetsam` policy uses (docs/policies.md, "The freezer"). Under memory
  /// pressure well above any kill level it writes a suspended app's memory to swap on storage and
  /// keeps the app in band 75, above the idle and background bands.
  ///
  /// The keys are the kernel's tunables that differ between devices; the rest are its constants
  /// (`Freezer.suspendedThreshold` and the others below). F is kern_memorystatus_freeze.c.
  public struct Freezer: Sendable, Equatable {
    /// Whether it freezes (`memorystatus_freeze_enabled`: on for iOS, F:124–129).
    public var enabled = true
    /// Available memory at or below which it runs (`memorystatus_freeze_threshold`); nil: half of
    /// the memory (`MEMSTAT_PERCENT_TOTAL_PAGES(50)`, kern_memorystatus.c:354).
    public var thresholdKB: Int?
    /// How many apps may be frozen at once (`memorystatus_frozen_processes_max`,
    /// kern_memorystatus_freeze.h:47).
    public var slots = 20
    /// The smallest footprint it freezes (`memorystatus_freeze_pages_min`, 512 pages of 16 KB,
    /// kern_memorystatus_freeze.h:73–77).
    public var minFootprintKB = 8_192
    /// The most of one app's memory one freeze writes (`memorystatus_freeze_pages_max`); nil: the
    /// device's foreground limit (the kernel's `max_task_footprint_mb`, kern_memorystatus.c:1983).
    public var maxFreezeKB: Int?
    /// What it may write in a day, counted compressed (`memorystatus_freeze_daily_mb_max`, the
    /// kernel's fallback 2048 MB, `FREEZE_DAILY_MB_MAX_DEFAULT`, kern_memorystatus_freeze.h:88).
    public var dailyBudgetKB = 2_048 * 1_024

    /// The kernel's defaults for iOS.
    public init() {}

    /// Processes frozen but not thawed that leave it no reason to run: it needs more than this
    /// many suspended processes beyond the frozen ones (`memorystatus_freeze_suspended_threshold`,
    /// kern_memorystatus_freeze.h:82–86; `memorystatus_can_freeze_processes`, F:2231).
    public static let suspendedThreshold = 4
    /// Thawed frozen apps needed before it refreezes (`memorystatus_min_thaw_refreeze_threshold`,
    /// kern_memorystatus_freeze.h:96–100).
    public static let refreezeThreshold = 3
    /// The frozen apps the end of each interval demotes at most
    /// (`memorystatus_max_frozen_demotions_daily`, kern_memorystatus_freeze.h:92–93).
    public static let demotionsPerInterval = 2
    /// Lifetime thaws from which an app is kept in band 75 at the end of an interval
    /// (`memorystatus_thaw_count_demotion_threshold`, kern_memorystatus_freeze.h:94).
    public static let demotionThawThreshold = 5
    /// The least time between two of its passes (`memorystatus_apps_idle_delay_time` × 1,
    /// kern_memorystatus_freeze.c:2954).
    public static let periodMs = 10_000
    /// The length of a budget interval (`NORMAL_WINDOW_MINS`, kern_memorystatus_freeze.c:169).
    public static let intervalMs = 86_400_000
    /// The XPC services of a coalition frozen after its leader at most (`MAX_XPC_SERVICE_PIDS`,
    /// kern_memorystatus_freeze.c:133).
    public static let xpcServicesPerLeader = 10
    /// The page size its budget counts in (16 KB on iOS arm64).
    public static let pageKB = 16

    /// The available memory at or below which it runs on `device`.
    public func thresholdKB(on device: DeviceProfile) -> Int { thresholdKB ?? device.memoryKB / 2 }

    /// The most one freeze writes on `device`.
    public func maxFreezeKB(on device: DeviceProfile) -> Int {
      maxFreezeKB ?? device.foregroundLimitKB
    }

    /// The daily budget in pages.
    public var dailyBudgetPages: Int { dailyBudgetKB / Self.pageKB }
  }
}
