/// Why a process was terminated, as recorded in `kills.csv` (docs/model.md §5, §7), with XNU's
/// names (`jetsam_kill_cause_name` in bsd/kern/kern_memorystatus.c).
public enum KillReason: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// Chosen by the eviction policy to make room: free memory below its kill threshold, or an
  /// allocation that could not fit.
  case vmPageshortage
  /// Its footprint went over its per-app limit.
  case perProcessLimit
  /// The user swiped it away in the app switcher.
  case userForceQuit
  /// It opts out of background execution (`exitsOnSuspend`) and left the screen.
  case exitOnSuspend
  /// didEnterBackground did not return within the device's timeout.
  case watchdog
  /// Its background task ran past the device's limit.
  case backgroundTaskExpired
  /// The device rebooted.
  case reboot
  /// Killed below the pressure level for being over its soft memory limit (XNU's high-watermark
  /// kills).
  case highwater
  /// Swept by XNU's long-idle reaper: in the IDLE band, alive past the reaper's age, with free
  /// memory below the reaper level (`kMemorystatusKilledLongIdleExit`).
  case longIdleExit
  /// Killed by aggressive jetsam: the IDLE band holds only daemons launchd relaunches at once, so
  /// kills climb above it (`kMemorystatusKilledProcThrashing`).
  case procThrashing
  /// Killed to free swap on a device with app swap, when suspended apps wait in memory for lack of
  /// it (`kMemorystatusKilledLowSwap`; `MEMORYSTATUS_KILL_SUSPENDED_SWAPPABLE`).
  case lowSwap
  /// Killed from the head of the IDLE band while available memory is below the idle level and the
  /// system is otherwise healthy (above the critical level): xnu-11417's `MEMORYSTATUS_KILL_IDLE`
  /// action (`memorystatus_pick_action`, `kMemorystatusKilledIdleExit`).
  case idleExit
  /// Killed from the IDLE band, one every half second, once the pressure level has stayed above
  /// normal for ten minutes (`kMemorystatusKilledSustainedPressure`, `sustained_pressure_handler`
  /// in bsd/kern/kern_memorystatus_notify.c).
  case sustainedPressure
  /// lmkd (Android), PSI mode: the min watermark still breached in the evaluation after a kill
  /// (`PRESSURE_AFTER_KILL`, system/memory/lmkd statslog.h `enum kill_reasons`).
  case lmkPressureAfterKill
  /// lmkd: a critical PSI event, the device stalled (`NOT_RESPONDING`).
  case lmkNotResponding
  /// lmkd: swap low and the page cache thrashing (`LOW_SWAP_AND_THRASHING`).
  case lmkLowSwapAndThrashing
  /// lmkd: a watermark breached and swap low (`LOW_MEM_AND_SWAP`).
  case lmkLowMemAndSwap
  /// lmkd: a watermark breached and the page cache thrashing (`LOW_MEM_AND_THRASHING`).
  case lmkLowMemAndThrashing
  /// lmkd: direct reclaim and the page cache thrashing (`DIRECT_RECL_AND_THRASHING`).
  case lmkDirectReclAndThrashing
  /// lmkd: a watermark breached and swap utilisation high (`LOW_MEM_AND_SWAP_UTIL`).
  case lmkLowMemAndSwapUtil
  /// lmkd: the page cache still low after thrashing (`LOW_FILECACHE_AFTER_THRASHING`).
  case lmkLowFilecacheAfterThrashing
  /// lmkd: a watermark breached, cached processes only (`LOW_MEM`).
  case lmkLowMem
  /// lmkd: direct reclaim under way for longer than `direct_reclaim_threshold_ms`
  /// (`DIRECT_RECL_STUCK`).
  case lmkDirectReclStuck
  /// lmkd in legacy minfree mode, which logs no kill reason (`NONE`).
  case lmkNone
  /// Android's ActivityManager: more cached apps than its limit, the least recently used beyond it
  /// (`updateAndTrimProcessLSP`, "too many cached", `SUBREASON_TOO_MANY_CACHED`).
  case amTooManyCached
  /// ActivityManager: more empty processes than its limit (`SUBREASON_TOO_MANY_EMPTY`).
  case amTooManyEmpty
  /// ActivityManager: an empty process unused for longer than `max_empty_time_millis`, beyond the
  /// most recent ones it keeps (`SUBREASON_TRIM_EMPTY`).
  case amTrimEmpty

  public var description: String {
    switch self {
    case .vmPageshortage: "vm-pageshortage"
    case .perProcessLimit: "per-process-limit"
    case .userForceQuit: "user-force-quit"
    case .exitOnSuspend: "exit-on-suspend"
    case .watchdog: "watchdog"
    case .backgroundTaskExpired: "background-task-expired"
    case .reboot: "reboot"
    case .highwater: "highwater"
    case .longIdleExit: "long-idle-exit"
    case .procThrashing: "proc-thrashing"
    case .lowSwap: "low-swap"
    case .idleExit: "idle-exit"
    case .sustainedPressure: "sustained-memory-pressure"
    case .lmkPressureAfterKill: "lmk-pressure-after-kill"
    case .lmkNotResponding: "lmk-not-responding"
    case .lmkLowSwapAndThrashing: "lmk-low-swap-and-thrashing"
    case .lmkLowMemAndSwap: "lmk-low-mem-and-swap"
    case .lmkLowMemAndThrashing: "lmk-low-mem-and-thrashing"
    case .lmkDirectReclAndThrashing: "lmk-direct-recl-and-thrashing"
    case .lmkLowMemAndSwapUtil: "lmk-low-mem-and-swap-util"
    case .lmkLowFilecacheAfterThrashing: "lmk-low-filecache-after-thrashing"
    case .lmkLowMem: "lmk-low-mem"
    case .lmkDirectReclStuck: "lmk-direct-recl-stuck"
    case .lmkNone: "lmk-none"
    case .amTooManyCached: "am-too-many-cached"
    case .amTooManyEmpty: "am-too-many-empty"
    case .amTrimEmpty: "am-trim-empty"
    }
  }

  /// Whether an app killed for this reason while running in the background gets willTerminate first.
  /// Kills by a policy, exit-on-suspend and force-quit do; the watchdog, expired tasks, the per-process
  /// limit and reboots end it with no callback. A suspended app never gets one.
  public var warnsBackgroundApp: Bool {
    switch self {
    case .vmPageshortage, .highwater, .longIdleExit, .procThrashing, .lowSwap, .idleExit,
      .sustainedPressure, .exitOnSuspend, .userForceQuit:
      true
    case .lmkPressureAfterKill, .lmkNotResponding, .lmkLowSwapAndThrashing, .lmkLowMemAndSwap,
      .lmkLowMemAndThrashing, .lmkDirectReclAndThrashing, .lmkLowMemAndSwapUtil,
      .lmkLowFilecacheAfterThrashing, .lmkLowMem, .lmkDirectReclStuck, .lmkNone:
      true
    case .perProcessLimit, .watchdog, .backgroundTaskExpired, .reboot: false
    case .amTooManyCached, .amTooManyEmpty, .amTrimEmpty: false
    }
  }

  /// Whether lmkd chose it, for one of its kill reasons (`lmk-…`).
  public var isLmk: Bool {
    (KillReason.lmkPressureAfterKill.rawValue...KillReason.lmkNone.rawValue).contains(rawValue)
  }

  /// Whether Android's ActivityManager chose it, by its process limits (`am-…`).
  public var isActivityManager: Bool { rawValue >= KillReason.amTooManyCached.rawValue }

  /// Whether the system (rather than the user or a reboot) chose to end the app.
  public var isSystemKill: Bool { self != .userForceQuit && self != .reboot }

  /// Whether the kill was made to free memory for the device as a whole: the policy's kills, the
  /// high-watermark kills below the pressure level, the long-idle reaper, aggressive jetsam and
  /// low swap. More memory makes these rarer. Not the per-process limit (the app's own footprint),
  /// nor exits, timeouts, force-quits and reboots, which no amount of memory prevents.
  public var isMemoryPressure: Bool {
    switch self {
    case .vmPageshortage, .highwater, .longIdleExit, .procThrashing, .lowSwap, .idleExit,
      .sustainedPressure:
      true
    case .lmkPressureAfterKill, .lmkNotResponding, .lmkLowSwapAndThrashing, .lmkLowMemAndSwap,
      .lmkLowMemAndThrashing, .lmkDirectReclAndThrashing, .lmkLowMemAndSwapUtil,
      .lmkLowFilecacheAfterThrashing, .lmkLowMem, .lmkDirectReclStuck, .lmkNone:
      true
    case .perProcessLimit, .userForceQuit, .exitOnSuspend, .watchdog, .backgroundTaskExpired,
      .reboot, .amTooManyCached, .amTooManyEmpty, .amTrimEmpty:
      false
    }
  }
}
