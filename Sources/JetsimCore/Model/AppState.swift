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
  @inlinable @inline(__always) public var isForeground: Bool {
    // Inactive and active are raw values 1 and 2: one comparison on the hot path.
    rawValue &- AppState.inactive.rawValue < 2
  }
  /// Whether the app runs code (active, inactive or background): such apps get memory warnings.
  @inlinable @inline(__always) public var isRunning: Bool {
    // Inactive, active and background are raw values 1 to 3.
    rawValue &- AppState.inactive.rawValue < 3
  }
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
