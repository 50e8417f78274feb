/// The five iOS app states (docs/model.md §2).
public enum AppState: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// Not launched, or terminated.
  case notRunning
  /// On screen but not receiving events: launching, interrupted, or passing to/from the background.
  case inactive
  /// On screen and receiving events.
  case active
  /// Off screen and running code.
  case background
  /// Off screen, in memory, running no code.
  case suspended

  /// The name used in reports and profiles.
  public var description: String {
    switch self {
    case .notRunning: "notRunning"
    case .inactive: "inactive"
    case .active: "active"
    case .background: "background"
    case .suspended: "suspended"
    }
  }

  /// Whether the app is on screen (active or inactive).
  @inlinable public var isForeground: Bool { self == .active || self == .inactive }
  /// Whether the app runs code (active, inactive or background): such apps get memory warnings.
  @inlinable public var isRunning: Bool { self != .notRunning && self != .suspended }
  /// Whether the app holds memory (any state but notRunning).
  @inlinable public var isResident: Bool { self != .notRunning }

  /// Whether docs/model.md §2 allows a direct move from `self` to `next`.
  public func canMove(to next: AppState) -> Bool {
    switch (self, next) {
    case (.notRunning, .inactive), (.notRunning, .background),
      (.inactive, .active), (.inactive, .background),
      (.active, .inactive),
      (.background, .inactive), (.background, .suspended), (.background, .notRunning),
      (.suspended, .background), (.suspended, .notRunning):
      true
    // Kills: the per-process limit and the last-resort pressure kill reach a foreground app.
    case (.active, .notRunning), (.inactive, .notRunning):
      true
    default:
      false
    }
  }
}
