/// The defaults jetsim applies where a profile is silent, in one place.
public enum Defaults {
  /// Profile format version written and read by this build.
  public static let profileVersion = 1
  /// Time didEnterBackground may take before the watchdog kills the app (docs/model.md §4).
  public static let enterBackgroundTimeoutMs = 5_000
  /// The longest a background task (or a background wake) may run (docs/model.md §4).
  public static let backgroundTaskLimitMs = 30_000
  /// How long an app keeps running after didEnterBackground before it is suspended, where its
  /// profile does not say (iOS gives an app about 5 s).
  public static let backgroundWorkMs = 5_000
  /// User-visible cold-launch time where the app profile does not say.
  public static let coldLaunchMs = 1_500
  /// User-visible warm-resume time where the app profile does not say.
  public static let warmResumeMs = 300
  /// Interval between growth steps of an app in use (its `growthPerMinute` is spread over these).
  public static let growthTickMs = 10_000
  /// The seed of a scenario that names none.
  public static let seed: UInt64 = 1
  /// Where `jetsim run` writes, under the working directory.
  public static let reportsFolder = "Reports"
  /// The free memory the kernel keeps before it takes file pages: XNU's `vm_page_free_target` on
  /// iOS, at most `VM_PAGE_FREE_TARGET_LIMIT` (2,000) pages (xnu-11417 osfmk/vm/vm_pageout.c,
  /// `vm_page_free_reserve`), 32 MB of 16 KB pages.
  public static let freeTargetKB = 32 * 1024
  /// How long some task waits for each megabyte of file pages read again: 64 pages of 16 KB read
  /// at random from flash at about 60 µs each (an estimate, docs/model.md).
  public static let refaultCostMs = 4

  /// XNU's memory levels (xnu-11417 bsd/kern/kern_memorystatus.c, the fallback table beside
  /// `memstat_critical_threshold`), by DRAM class: (0,3] / (3,6] / (6,∞) GB, a device reporting
  /// more than 3 GB being in (3,6] up to 6 GB (docs/model.md §5, §7).
  public enum MemoryClass: Sendable {
    /// Up to 3 GB.
    case small
    /// More than 3 GB, up to 6 GB.
    case medium
    /// More than 6 GB.
    case large

    /// The class of a device that reports `memoryKB`.
    public init(memoryKB: Int) {
      let gigabyte = 1_048_576
      self = memoryKB <= 3 * gigabyte ? .small : memoryKB <= 6 * gigabyte ? .medium : .large
    }

    /// critical, idle, pressure (warning) and reaper levels, in percent of memory.
    public var percents: (critical: Int, idle: Int, pressure: Int, reaper: Int) {
      switch self {
      case .small: (5, 10, 15, 20)
      case .medium: (4, 9, 15, 18)
      case .large: (4, 8, 12, 16)
      }
    }

    /// The idle, pressure and reaper levels as ratios of a critical level a device gives
    /// (numerator, denominator): 2, 3, 4; 9/4, 15/4, 18/4 in the medium class.
    public var ratios: (idle: (Int, Int), pressure: (Int, Int), reaper: (Int, Int)) {
      self == .medium ? ((9, 4), (15, 4), (18, 4)) : ((2, 1), (3, 1), (4, 1))
    }
  }

  /// The long-idle reaper (xnu-11417 `memstat_reaper_*`, on by default on iOS): the age an IDLE
  /// process must reach, and the time between sweeps.
  public static let reaperMinAgeMs = 300_000
  /// The least time between two reaper sweeps.
  public static let reaperPeriodMs = 300_000
}
