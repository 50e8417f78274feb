import JetsimCore

/// Builds an `Action` from its name, app and textual value: shared by scripts and traces.
package enum ActionParser {
  /// Why an action cannot be built, and which of its fields is wrong (`action`, `app`, `value`).
  package struct Failure: Error {
    package var message: String
    package var field: String
  }

  package static func action(name: String, app: String, value: String) throws(Failure) -> Action {
    guard let kind = ActionKind(name: name) else {
      let names = ActionKind.allCases.map(\.name)
      let hint = Suggestion.closest(to: name, in: names).map { "did you mean '\($0)'? " } ?? ""
      throw Failure(
        message:
          "unknown action '\(name.excerpt(limit: 40))'; \(hint)actions: \(names.joined(separator: ", "))",
        field: "action")
    }
    if kind.needsApp, app.isEmpty {
      throw Failure(message: "'\(name)' needs an app id", field: "app")
    }
    if !kind.needsApp, !app.isEmpty {
      throw Failure(message: "'\(name)' takes no app; leave the app empty", field: "app")
    }
    switch kind.argument {
    case .none:
      guard value.isEmpty else {
        throw Failure(message: "'\(name)' takes no value; leave it empty", field: "value")
      }
    case .duration:
      guard let duration = Units.milliseconds(value), duration > 0 else {
        throw Failure(
          message:
            "'\(name)' needs a positive duration of at most 139 years, such as \"30s\"; found '\(value.excerpt())'",
          field: "value")
      }
      return kind == .interrupt
        ? .interrupt(durationMs: duration) : .wake(app, durationMs: duration)
    case .size:
      guard let size = Units.kilobytes(value) else {
        throw Failure(
          message:
            "'\(name)' needs a size of at most 1 PB, such as \"50MB\"; found '\(value.excerpt())'",
          field: "value")
      }
      return kind == .allocate ? .allocate(app, kilobytes: size) : .free(app, kilobytes: size)
    case .mode:
      guard let mode = BackgroundMode(rawValue: value), mode.keepsRunning else {
        throw Failure(
          message: "'\(name)' needs a mode: audio, location or voip; found '\(value.excerpt())'",
          field: "value")
      }
      return kind == .startMode ? .startMode(app, mode) : .stopMode(app, mode)
    case .band:
      return .assert(app, band: try band(value, name))
    }
    switch kind {
    case .open: return .open(app)
    case .home: return .home
    case .lock: return .lock
    case .unlock: return .unlock
    case .forceQuit: return .forceQuit(app)
    case .release: return .release(app)
    case .dirty: return .dirty(app)
    case .clean: return .clean(app)
    default: return .reboot
    }
  }

  /// The band of an `assert`: 0 (give the assertion up) or 21 to 210. The kernel keeps bands 1–20
  /// for its aging bands and turns a request for one into IDLE without aging
  /// (`memorystatus_set_priority`, xnu-11417 kern_memorystatus.c:3054–3064); 210 is
  /// `JETSAM_PRIORITY_MAX`.
  private static func band(_ value: String, _ name: String) throws(Failure) -> Int {
    guard let band = Int(value), band == 0 || (21...JetsamPriority.max).contains(band) else {
      throw Failure(
        message:
          "'\(name)' needs a band: 0 to give the assertion up, or 21 to 210 (1–20 are the kernel's aging bands); found '\(value.excerpt())'",
        field: "value")
    }
    return band
  }
}
