/// An action at a time (milliseconds from the start of the run).
public struct TimedAction: Sendable, Equatable {
  /// When the action happens, in milliseconds.
  public var timeMs: Int
  /// What happens.
  public var action: Action

  /// `action` at `timeMs` milliseconds.
  public init(_ timeMs: Int, _ action: Action) {
    self.timeMs = timeMs
    self.action = action
  }
}
