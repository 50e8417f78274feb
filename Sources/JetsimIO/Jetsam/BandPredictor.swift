import JetsimCore

/// A process's jetsam priority band predicted from what a JetsamEvent report says of it besides its
/// priority, by the meaning XNU gives its bands and the snapshot's state bits (xnu-11417.101.15,
/// commit e3723e1; docs/validation.md gives each rule's source and its score). It never reads the
/// priority, nor the process's place in the list (which is in band order, so reading it would hand
/// the kernel's order back to a replay), nor its name (except the kernel's own two, for reports
/// without pids); `jetsim replay` scores it against the real bands of reports that give them
/// (`bands.csv`), and `import-jetsam` uses it for reports that do not.
///
/// What the states mean: the report's writer turns the kernel's snapshot state
/// (`_memstat_build_state`, bsd/kern/kern_memorystatus.c:3846) into words: `suspended` is
/// `kMemorystatusSuspended`, `active` is `kMemorystatusActive` (written by iOS 15 and later; the
/// kernel's `memstat_proc_is_active_locked`, line 5034: a dirty process, a clean one above IDLE, a
/// managed one holding an assertion), `frontmost` and `background` come from RunningBoard, and a
/// process with none of these is a `daemon`, `idle` when it can exit when idle and is clean
/// (`kMemorystatusSupportsIdleExit` without `kMemorystatusDirty`). So in a report that writes
/// `active`, a `daemon` is a process the kernel counts inactive.
///
/// Kernel-inactive and passed over by the freezer (`JetsamReport.Process.wasPassedOverByFreezer`):
/// the freezer takes its candidates from IDLE (or from userspace's list, marking one above band 40
/// `elevated`), and above IDLE the kernel counts active a clean process that exits when idle, an
/// elevated one and an unmanaged one (`memstat_proc_is_active_locked`), so such a `daemon` is
/// predicted in IDLE; it is wrong for a daemon that cannot exit when idle and sits at a low
/// launchd band, which the report cannot tell.
public enum BandPredictor {
  /// The freezer's band in XNU's first numbering, in the current numbering: xnu-7195 sets
  /// `memorystatus_freeze_jetsam_band` to `JETSAM_PRIORITY_UI_SUPPORT` (8; kern_memorystatus.c:1398
  /// at tag xnu-7195.141.2), and xnu-8792 multiplied the bands by ten.
  public static let firstNumberingFreezer = JetsamPriority.uiSupport
  /// The band launchd gives most daemons that are neither idle nor aging. No kernel source names
  /// it (launchd sets it from each job's plist, which a report does not carry): it is the commonest
  /// band of such daemons in the reports the rules were written on (docs/validation.md).
  public static let launchdDaemon = 140

  /// The states RunningBoard writes for a process it manages (its `user_data` bits).
  static let managedStates: Set<String> = [
    "background", "audio", "accessory", "location", "bluetooth", "resume", "suspending",
    "periodic", "continuous",
  ]

  /// What the whole report tells about each of its processes.
  public struct Context: Sendable, Equatable {
    /// Whether the report's writer records `active` (iOS 15 and later): then a process without it
    /// is inactive, and `daemon` means an inactive one.
    public var writesActive = false
    /// The jetsam coalitions of the processes on screen.
    public var foregroundCoalitions: Set<Int> = []
    /// Whether the kernel that wrote it numbers its bands 0 to 21 (before xnu-8792).
    public var firstNumbering = false

    /// A context that knows nothing of the report: the current numbering, no `active` state.
    public init() {}

    /// The context of a report's `processes`, written by `kernel` (the report's `kernel` field).
    public init(processes: [JetsamReport.Process], kernel: String?) {
      writesActive = processes.contains { $0.isActive }
      foregroundCoalitions = Set(processes.filter(\.isFrontmost).compactMap(\.coalition))
      firstNumbering = (JetsamReport.xnuVersion(of: kernel) ?? Int.max) < 8792
    }
  }

  /// Everything a prediction reads of one process, and nothing else: two processes of one report
  /// with the same evidence get the same band (`BandPredictorTests`). `jetsim replay` groups a
  /// report's processes by it to bound what any rule reading these fields could score.
  public struct Evidence: Hashable, Sendable {
    /// Its states as the report writes them.
    public var states: Set<String>
    /// Whether it left the IDLE band once (it has an idle delta).
    public var leftIdle: Bool
    /// Whether the freezer holds some of its pages.
    public var isFrozen: Bool
    /// Whether it shares a jetsam coalition with a process on screen.
    public var inForegroundCoalition: Bool
    /// Whether it is kernel_task or launchd.
    public var isKernelInternal: Bool
    /// Whether the freezer looked at it and passed it over.
    public var wasPassedOverByFreezer: Bool
  }

  /// What a prediction reads of `process` in a report whose `context` is given.
  public static func evidence(of process: JetsamReport.Process, in context: Context) -> Evidence {
    Evidence(
      states: Set(process.states), leftIdle: process.idleDelta != nil,
      isFrozen: process.isFrozen,
      inForegroundCoalition: process.coalition.map(context.foregroundCoalitions.contains) ?? false,
      isKernelInternal: process.isKernelInternal,
      wasPassedOverByFreezer: process.wasPassedOverByFreezer)
  }

  /// Each process's predicted band, the report read as a whole.
  public static func bands(of processes: [JetsamReport.Process], kernel: String? = nil) -> [Int] {
    let context = Context(processes: processes, kernel: kernel)
    return processes.map { band(of: $0, in: context) }
  }

  /// The band `process` is predicted to be in, with nothing known of the rest of its report.
  public static func band(of process: JetsamReport.Process) -> Int {
    band(of: process, in: Context())
  }

  /// The band `process` is predicted to be in, `context` telling what its report says as a whole.
  public static func band(of process: JetsamReport.Process, in context: Context) -> Int {
    if process.isKernelInternal { return JetsamPriority.internal }
    // The report's writer leaves only the home screen without a state (the iOS 10 to 12 reports).
    if process.states.isEmpty { return JetsamPriority.home }
    if process.isFrozen, !process.isActive {
      return context.firstNumbering ? firstNumberingFreezer : JetsamPriority.freezer
    }
    if process.isFrontmost { return JetsamPriority.foreground }
    if process.isSuspended || (process.isDaemon && process.isIdle) { return JetsamPriority.idle }
    if let coalition = process.coalition, context.foregroundCoalitions.contains(coalition) {
      return JetsamPriority.foreground
    }
    if !managedStates.isDisjoint(with: process.states) {
      return managedBand(process, in: context)
    }
    if process.isActive {
      return process.idleDelta != nil ? JetsamPriority.agingBand1 : JetsamPriority.elevatedInactive
    }
    if process.isDaemon, context.writesActive, process.wasPassedOverByFreezer {
      return JetsamPriority.idle
    }
    return process.isDaemon ? launchdDaemon : JetsamPriority.background
  }

  /// The band of a process RunningBoard manages, by the states it writes for it.
  static func managedBand(_ process: JetsamReport.Process, in context: Context) -> Int {
    // Without an assertion a managed process is inactive, and heads for IDLE.
    if context.writesActive, !process.isActive { return JetsamPriority.idle }
    if process.states.contains("audio") || process.states.contains("accessory") {
      return JetsamPriority.audioAndAccessory
    }
    return JetsamPriority.background
  }

  /// The class a band belongs to, for a coarser score: `idle` (below BACKGROUND: IDLE and the
  /// aging bands), `background` (up to FOREGROUND), `foreground` (FOREGROUND up to HOME) and
  /// `system` (HOME and above).
  public static func bandClass(_ band: Int) -> String {
    switch band {
    case ..<JetsamPriority.background: "idle"
    case ..<JetsamPriority.foreground: "background"
    case ..<JetsamPriority.home: "foreground"
    default: "system"
    }
  }
}
