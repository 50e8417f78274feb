/// The kinds of action, as the simulator dispatches them.
public enum ActionKind: UInt8, CaseIterable, Sendable {
  case open, home, lock, unlock, interrupt, wake, startMode, stopMode, allocate, free, forceQuit,
    reboot

  /// The name in scenario scripts and traces.
  public var name: String {
    switch self {
    case .open: "open"
    case .home: "home"
    case .lock: "lock"
    case .unlock: "unlock"
    case .interrupt: "interrupt"
    case .wake: "wake"
    case .startMode: "mode-start"
    case .stopMode: "mode-stop"
    case .allocate: "allocate"
    case .free: "free"
    case .forceQuit: "force-quit"
    case .reboot: "reboot"
    }
  }

  /// Whether the action names an app.
  public var needsApp: Bool {
    switch self {
    case .home, .lock, .unlock, .interrupt, .reboot: false
    default: true
    }
  }

  /// What the action's value is, if it takes one.
  package enum Argument { case none, duration, size, mode }

  package var argument: Argument {
    switch self {
    case .interrupt, .wake: .duration
    case .allocate, .free: .size
    case .startMode, .stopMode: .mode
    default: .none
    }
  }

  /// The kind named `name`, if any.
  public init?(name: String) {
    guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = kind
  }
}
