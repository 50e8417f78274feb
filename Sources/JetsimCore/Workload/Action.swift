/// One thing the user (or the system, for wakes) does to the device (docs/model.md §8).
///
/// Apps are named by profile id. Durations are milliseconds and sizes kilobytes.
public enum Action: Sendable, Equatable, CustomStringConvertible {
  /// Open an app: cold launch, warm resume, or nothing if it is already on screen.
  case open(String)
  /// Go to the home screen: the foreground app leaves the screen.
  case home
  /// Lock the device: like home, remembering the app to bring back.
  case lock
  /// Unlock the device: the app that was on screen when it locked comes back.
  case unlock
  /// An interruption (call, alert) makes the foreground app inactive for a while.
  case interrupt(durationMs: Int)
  /// The system runs an app in the background for a while (push, fetch, location).
  case wake(String, durationMs: Int)
  /// A background mode (audio, location, voip) starts being used.
  case startMode(String, BackgroundMode)
  /// A background mode stops being used.
  case stopMode(String, BackgroundMode)
  /// The app allocates dirty memory.
  case allocate(String, kilobytes: Int)
  /// The app frees dirty memory it allocated.
  case free(String, kilobytes: Int)
  /// The user swipes the app away in the app switcher.
  case forceQuit(String)
  /// The device restarts: every app stops, with no callbacks.
  case reboot
  /// A process takes a RunningBoard priority assertion for a band (`assert`): an app, an extension
  /// or a managed daemon.
  case assert(String, band: Int)
  /// A process gives its priority assertion up (`release`).
  case release(String)
  /// A dirty-tracked daemon becomes dirty (`dirty`): it has work it must not lose.
  case dirty(String)
  /// A dirty-tracked daemon becomes clean (`clean`).
  case clean(String)

  /// The action's name in scenario scripts and traces.
  public var name: String { kind.name }

  /// The app the action names, if any.
  public var app: String? {
    switch self {
    case .open(let app), .wake(let app, _), .startMode(let app, _), .stopMode(let app, _),
      .allocate(let app, _), .free(let app, _), .forceQuit(let app), .assert(let app, _),
      .release(let app), .dirty(let app), .clean(let app):
      app
    case .home, .lock, .unlock, .interrupt, .reboot:
      nil
    }
  }

  package var kind: ActionKind {
    switch self {
    case .open: .open
    case .home: .home
    case .lock: .lock
    case .unlock: .unlock
    case .interrupt: .interrupt
    case .wake: .wake
    case .startMode: .startMode
    case .stopMode: .stopMode
    case .allocate: .allocate
    case .free: .free
    case .forceQuit: .forceQuit
    case .reboot: .reboot
    case .assert: .assert
    case .release: .release
    case .dirty: .dirty
    case .clean: .clean
    }
  }

  /// The action's number argument (duration or size), or its mode's bit, or 0.
  package var value: Int {
    switch self {
    case .interrupt(let duration), .wake(_, let duration): duration
    case .allocate(_, let size), .free(_, let size): size
    case .startMode(_, let mode), .stopMode(_, let mode): Int(mode.bit)
    case .assert(_, let band): band
    default: 0
    }
  }

  public var description: String {
    switch self {
    case .interrupt(let duration): "interrupt \(duration)ms"
    case .wake(let app, let duration): "wake \(app) \(duration)ms"
    case .startMode(let app, let mode), .stopMode(let app, let mode): "\(name) \(app) \(mode)"
    case .allocate(let app, let size), .free(let app, let size): "\(name) \(app) \(size)KB"
    case .assert(let app, let band): "assert \(app) \(band)"
    default: app.map { "\(name) \($0)" } ?? name
    }
  }
}

extension Action {
  /// The same action, with its app id in storage of its own.
  package var unshared: Action {
    switch self {
    case .open(let app): .open(app.unshared)
    case .wake(let app, let duration): .wake(app.unshared, durationMs: duration)
    case .startMode(let app, let mode): .startMode(app.unshared, mode)
    case .stopMode(let app, let mode): .stopMode(app.unshared, mode)
    case .allocate(let app, let size): .allocate(app.unshared, kilobytes: size)
    case .free(let app, let size): .free(app.unshared, kilobytes: size)
    case .forceQuit(let app): .forceQuit(app.unshared)
    case .assert(let app, let band): .assert(app.unshared, band: band)
    case .release(let app): .release(app.unshared)
    case .dirty(let app): .dirty(app.unshared)
    case .clean(let app): .clean(app.unshared)
    case .home, .lock, .unlock, .interrupt, .reboot: self
    }
  }
}
