/// Why an app was terminated, as recorded in `kills.csv` (docs/model.md §5, §7).
public enum KillReason: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// Chosen by the eviction policy while free memory was below the critical threshold.
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
  /// A jetsam policy killed it for exceeding its soft (background) limit.
  case highwater
  /// A jetsam policy killed an idle app below the idle threshold.
  case idleExit

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
    case .idleExit: "idle-exit"
    }
  }

  /// Whether an app killed for this reason while running in the background gets willTerminate first.
  /// Kills by a policy, exit-on-suspend and force-quit do; the watchdog, expired tasks, the per-process
  /// limit and reboots end it with no callback. A suspended app never gets one.
  public var warnsBackgroundApp: Bool {
    switch self {
    case .vmPageshortage, .highwater, .idleExit, .exitOnSuspend, .userForceQuit: true
    case .perProcessLimit, .watchdog, .backgroundTaskExpired, .reboot: false
    }
  }

  /// Whether the system (rather than the user or a reboot) chose to end the app.
  public var isSystemKill: Bool { self != .userForceQuit && self != .reboot }
}
