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
  /// How long an idle daemon stays in the aging band, where its profile does not say: XNU's 2 s for
  /// daemons launchd rarely relaunches at once (`memorystatus_sysprocs_idle_time`, low relaunch
  /// likelihood: 10 s ÷ 5).
  public static let daemonAgingTimeMs = 2_000
  /// The seed of a scenario that names none.
  public static let seed: UInt64 = 1
  /// Where `jetsim run` writes, under the working directory.
  public static let reportsFolder = "Reports"

  /// XNU's memory-pressure tiers as shares of physical memory, in percent (docs/model.md §5):
  /// up to 3 GB: warning 15 %, critical 5 %; up to 6 GB: 15 % and 4 %; above: 12 % and 4 %.
  public static func thresholdPercents(memoryKB: Int) -> (warning: Int, critical: Int) {
    let gigabyte = 1_048_576
    if memoryKB <= 3 * gigabyte { return (15, 5) }
    if memoryKB <= 6 * gigabyte { return (15, 4) }
    return (12, 4)
  }

  /// XNU's idle critical level as a share of physical memory, in percent: while the IDLE band holds
  /// anyone, jetsam kills below it (10 % up to 3 GB, 9 % up to 6 GB, 8 % above; the "critical |
  /// idle" table of bsd/kern/kern_memorystatus.c).
  public static func idleCriticalPercent(memoryKB: Int) -> Int {
    let gigabyte = 1_048_576
    if memoryKB <= 3 * gigabyte { return 10 }
    if memoryKB <= 6 * gigabyte { return 9 }
    return 8
  }
}
