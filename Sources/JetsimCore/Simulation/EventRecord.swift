/// What a row of `events.csv` records (docs/reports.md).
public enum EventKind: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// A cold launch starts: the process is created.
  case launch
  /// The app finished launching (`didFinishLaunching`).
  case finishLaunching
  /// The app became active (`didBecomeActive`).
  case becomeActive
  /// The app resigned active (`willResignActive`).
  case resignActive
  /// The app entered the background (`didEnterBackground`).
  case enterBackground
  /// The system purged an app's caches and backing stores on entering the background.
  case purge
  /// The app was suspended.
  case suspend
  /// A suspended app was resumed (a warm resume).
  case resume
  /// The app is about to enter the foreground (`willEnterForeground`).
  case enterForeground
  /// A process was killed (kills.csv has the details).
  case kill
  /// A memory warning was delivered (`didReceiveMemoryWarning`).
  case memoryWarning
  /// The memory pressure level changed.
  case pressure
  /// An app's footprint grew by an `allocate` action.
  case allocate
  /// An app's footprint shrank by a `free` action.
  case free
  /// An app's footprint grew by its own growth while running.
  case grow
  /// A cold launch's transient peak of memory ended.
  case launchPeakEnd
  /// An app started using a background mode.
  case modeStart
  /// An app stopped using a background mode.
  case modeStop
  /// Memory ran out with nothing left to kill: an allocation waits (docs/model.md §7).
  case shortfall
  /// A step of a ramped cold launch: more of its memory arrives.
  case launchStep
  /// A system process starts with the device (time 0).
  case start
  /// launchd relaunches a system process it killed.
  case relaunch
  /// A process in the state a snapshot gives it, at time 0.
  case snapshot
  /// A suspended app's memory went to swap (app swap: `DeviceProfile.appSwap`).
  case swapOut
  /// A process's footprint crossed its non-fatal limit: it is notified, not killed
  /// (`memorystatus_on_ledger_footprint_exceeded`, kern_memorystatus.c:4935).
  case limitExceeded
  /// A process took a priority assertion (`assert`); jetsam's band follows.
  case assert
  /// A process gave its priority assertion up (`release`).
  case release
  /// A dirty-tracked daemon became dirty (`dirty`).
  case dirty
  /// A dirty-tracked daemon became clean (`clean`).
  case clean
  /// XNU's freezer wrote a suspended app's memory to swap and moved it to band 75
  /// (`memorystatus_freeze_process`, kern_memorystatus_freeze.c:1779).
  case freeze
  /// A frozen app was resumed (`memorystatus_on_resume`, kern_memorystatus.c:3771): its memory
  /// comes back, it stays frozen and may be frozen again.
  case thaw
  /// XNU's freezer sent a frozen app back to the ordinary bands
  /// (`memorystatus_demote_frozen_process`, kern_memorystatus_freeze.c:2302).
  case demote

  public var description: String {
    switch self {
    case .launch: "launch"
    case .finishLaunching: "finish-launching"
    case .becomeActive: "become-active"
    case .resignActive: "resign-active"
    case .enterBackground: "enter-background"
    case .purge: "purge"
    case .suspend: "suspend"
    case .resume: "resume"
    case .enterForeground: "enter-foreground"
    case .kill: "kill"
    case .memoryWarning: "memory-warning"
    case .pressure: "pressure"
    case .allocate: "allocate"
    case .free: "free"
    case .grow: "grow"
    case .launchPeakEnd: "launch-peak-end"
    case .modeStart: "mode-start"
    case .modeStop: "mode-stop"
    case .shortfall: "shortfall"
    case .launchStep: "launch-step"
    case .start: "start"
    case .relaunch: "relaunch"
    case .snapshot: "snapshot"
    case .swapOut: "swap-out"
    case .limitExceeded: "limit-exceeded"
    case .assert: "assert"
    case .release: "release"
    case .dirty: "dirty"
    case .clean: "clean"
    case .freeze: "freeze"
    case .thaw: "thaw"
    case .demote: "demote"
    }
  }
}

/// One event: a transition, a callback, a purge, a warning, a kill, a pressure change.
/// `footprintKB`, the memory figures and `pendingKB` are the values just after the event.
public struct EventRecord: Sendable, Equatable {
  /// Its position in the run, from 1.
  public var seq: Int
  /// When it happened, in milliseconds.
  public var timeMs: Int
  /// The process's index (apps first, then system processes), or -1 for device-wide events
  /// (pressure, shortfall).
  public var app: Int
  /// What happened.
  public var kind: EventKind
  /// The app's state before, if the event concerns an app.
  public var from: AppState?
  /// The app's state after, if the event concerns an app.
  public var to: AppState?
  /// The delegate callback delivered, if any.
  public var callback: Callback?
  /// For kills: why.
  public var reason: KillReason?
  /// For mode starts and stops: which mode.
  public var mode: BackgroundMode?
  /// For `assert`: the band asserted (-1: none; stored in what would be padding).
  var assertedBandStorage: Int16 = -1
  /// The app's footprint after the event (0 for device-wide events).
  public var footprintKB: Int
  /// Free memory after the event: pages nobody holds, not even the page cache (never negative:
  /// memory is physical).
  public var freeKB: Int
  /// The page cache after the event.
  public var fileBackedKB: Int
  /// Available memory after the event: free pages and the page cache (`DeviceMemory`), what the
  /// levels are compared with.
  public var availableKB: Int
  /// The allocation waiting for room while this event happened (a launch, a resume, growth...),
  /// 0 when none (docs/model.md §5).
  public var pendingKB: Int
  /// The process no policy could choose at this moment: the one whose allocation was waiting for
  /// room, or had just landed in this event (-1: none). Not written to the reports.
  public var allocatingApp: Int
  /// The pressure level the system has registered after the event: the level of the available
  /// memory left once the pending allocation lands.
  public var pressure: PressureLevel
  /// Whether the process is the app that was on screen when the device last locked, until the
  /// lock ends (`AppStatus.isBehindLock`). Not written to the reports.
  public var isBehindLock = false
  /// Whether this row ends the lock without an app coming on screen: the kill of an app whose open
  /// unlocked the device, on its way back to the screen. Not written to the reports.
  public var endsLock = false

  /// For `assert`: the band the process asserted; nil for other events.
  public var assertedBand: Int? {
    get { assertedBandStorage >= 0 ? Int(assertedBandStorage) : nil }
    set { assertedBandStorage = newValue.map { Int16(clamping: $0) } ?? -1 }
  }
}

extension EventRecord {
  /// An event with the memory figures of `memory`.
  init(
    seq: Int, timeMs: Int, app: Int, kind: EventKind, from: AppState?, to: AppState?,
    callback: Callback?, reason: KillReason?, mode: BackgroundMode?, footprintKB: Int,
    memory: DeviceMemory, allocatingApp: Int, pressure: PressureLevel
  ) {
    self.seq = seq
    self.timeMs = timeMs
    self.app = app
    self.kind = kind
    self.from = from
    self.to = to
    self.callback = callback
    self.reason = reason
    self.mode = mode
    self.footprintKB = footprintKB
    freeKB = memory.freeKB
    fileBackedKB = memory.fileBackedKB
    availableKB = memory.availableKB
    pendingKB = memory.pendingKB
    self.allocatingApp = allocatingApp
    self.pressure = pressure
  }
}

/// One termination, as a row of `kills.csv`.
public struct KillRecord: Sendable, Equatable {
  /// The `seq` of the kill's row in the event log.
  public var seq: Int
  /// When it happened, in milliseconds.
  public var timeMs: Int
  /// The process's index.
  public var app: Int
  /// Why.
  public var reason: KillReason
  /// Its rank in the pressure episode (1, 2, ...), or 0 for kills that no policy chose.
  public var rank: Int
  /// The app's state when it was killed.
  public var state: AppState
  /// Its footprint when it was killed.
  public var footprintKB: Int
  /// The physical memory the kill freed.
  public var freedKB: Int
  /// Available memory just before the kill (`DeviceMemory.availableKB`).
  public var availableBeforeKB: Int
  /// Available memory just after the kill.
  public var availableAfterKB: Int
  /// The allocation the kill made room for (0 when none).
  public var pendingKB: Int
  /// The process no policy could choose at the kill (-1: none; see `EventRecord.allocatingApp`).
  public var allocatingApp: Int
  /// The callback delivered before the kill: `willTerminate` for an app running in the background,
  /// nil (none) otherwise.
  public var callback: Callback?
  /// The victim's priority band when it was killed, for a policy with bands (`jetsam`); nil
  /// otherwise (`EvictionPolicy.band(of:nowMs:)`).
  public var band: Int? = nil
  /// lmkd's figures for the kill (`Eviction.lmkd`); nil for other policies' kills.
  public var lmkd: LmkdKillInfo? = nil
}
