/// Background execution modes an app may declare (Info.plist `UIBackgroundModes`).
///
/// `audio`, `location` and `voip` keep an app running in the background while the workload says the
/// mode is in use; `fetch` and `remote-notification` let the system wake it (docs/model.md §4).
public enum BackgroundMode: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Playing audio: keeps the app running while in use.
  case audio
  /// Tracking location: keeps the app running while in use.
  case location
  /// Voice over IP: keeps the app running while in use.
  case voip
  /// Background fetch: the system may wake the app.
  case fetch
  /// Remote notifications: a push may wake the app.
  case remoteNotification = "remote-notification"

  public var description: String { rawValue }

  /// Whether the mode keeps the app running while in use (rather than only allowing wakes).
  public var keepsRunning: Bool { self == .audio || self == .location || self == .voip }

  /// The bit of this mode in a mode set.
  @inlinable public var bit: UInt8 {
    switch self {
    case .audio: 1
    case .location: 2
    case .voip: 4
    case .fetch: 8
    case .remoteNotification: 16
    }
  }
}
