/// The kinds of action, as the simulator dispatches them.
public enum ActionKind: UInt8, CaseIterable, Sendable {
  /// Bring an app to the foreground, launching it if it is not running (`open`).
  case open
  /// Go to the home screen: the app on screen resigns and enters the background (`home`).
  case home
  /// Lock the screen: the app on screen resigns active and stays in front (`lock`).
  case lock
  /// Unlock the screen: the app in front becomes active again (`unlock`).
  case unlock
  /// A call or alert covers the app on screen for a duration (`interrupt`).
  case interrupt
  /// The system wakes a background app for a duration, as a push or fetch does (`wake`).
  case wake
  /// An app starts using a background mode such as audio (`mode-start`).
  case startMode
  /// An app stops using a background mode (`mode-stop`).
  case stopMode
  /// An app's footprint grows (`allocate`).
  case allocate
  /// An app's footprint shrinks (`free`).
  case free
  /// The user swipes an app away in the switcher (`force-quit`).
  case forceQuit
  /// The device restarts: every process ends (`reboot`).
  case reboot
  /// A process takes a priority assertion for a band (`assert`).
  case assert
  /// A process gives its priority assertion up (`release`).
  case release
  /// A dirty-tracked daemon becomes dirty (`dirty`).
  case dirty
  /// A dirty-tracked daemon becomes clean (`clean`).
  case clean

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
    case .assert: "assert"
    case .release: "release"
    case .dirty: "dirty"
    case .clean: "clean"
    }
  }

  /// Whether the action names an app.
  public var needsApp: Bool {
    switch self {
    case .home, .lock, .unlock, .interrupt, .reboot: false
    default: true
    }
  }

  /// Whether the action may name a system process as well as an app: the jetsam priority actions.
  public var namesAnyProcess: Bool {
    switch self {
    case .assert, .release, .dirty, .clean: true
    default: false
    }
  }

  /// Whether the action starts or stops a background mode.
  package var isModeChange: Bool { self == .startMode || self == .stopMode }

  /// What the action's value is, if it takes one.
  package enum Argument { case none, duration, size, mode, band }

  package var argument: Argument {
    switch self {
    case .interrupt, .wake: .duration
    case .allocate, .free: .size
    case .startMode, .stopMode: .mode
    case .assert: .band
    default: .none
    }
  }

  /// The kind named `name`, if any.
  public init?(name: String) {
    guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = kind
  }
}
