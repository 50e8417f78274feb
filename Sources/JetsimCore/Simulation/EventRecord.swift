/// What a row of `events.csv` records (docs/reports.md).
public enum EventKind: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case launch, finishLaunching, becomeActive, resignActive, enterBackground, purge, suspend, resume
  case enterForeground, kill, memoryWarning, pressure, allocate, free, grow, launchPeakEnd
  case modeStart, modeStop, shortfall

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
    }
  }
}

/// One event: a transition, a callback, a purge, a warning, a kill, a pressure change.
/// `footprintKB` and `freeKB` are the values just after the event.
public struct EventRecord: Sendable, Equatable {
  /// Its position in the run, from 1.
  public var seq: Int
  /// When it happened, in milliseconds.
  public var timeMs: Int
  /// The app's index, or -1 for device-wide events (pressure, shortfall).
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
  /// The app's footprint after the event (0 for device-wide events).
  public var footprintKB: Int
  /// Free memory after the event (negative while demand exceeds memory, before kills resolve it).
  public var freeKB: Int
  /// The pressure level after the event.
  public var pressure: PressureLevel
}

/// One termination, as a row of `kills.csv`.
public struct KillRecord: Sendable, Equatable {
  /// The `seq` of the kill's row in the event log.
  public var seq: Int
  /// When it happened, in milliseconds.
  public var timeMs: Int
  /// The app's index.
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
  /// Free memory just before the kill.
  public var freeBeforeKB: Int
  /// Free memory just after the kill.
  public var freeAfterKB: Int
  /// The callback delivered before the kill: `willTerminate` for an app running in the background,
  /// nil (none) otherwise.
  public var callback: Callback?
}
