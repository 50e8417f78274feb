/// An action compiled for the simulator: apps by index, arguments as one integer. Plain data, so a
/// workload of millions of steps costs no allocation per step.
public struct WorkloadStep: Sendable, Equatable {
  /// When it happens, in milliseconds.
  public var timeMs: Int
  /// What happens.
  public var kind: ActionKind
  /// The app's index in the scenario's app list, or -1.
  public var app: Int32
  /// Duration (ms), size (KB) or mode bit, by kind; 0 otherwise.
  public var value: Int

  /// A step: `kind` at `timeMs`, for app index `app` (-1 for none), with `value` (a duration or size).
  public init(timeMs: Int, kind: ActionKind, app: Int32 = -1, value: Int = 0) {
    self.timeMs = timeMs
    self.kind = kind
    self.app = app
    self.value = value
  }
}

/// A stream of workload steps in non-decreasing time order, read once by a simulation.
///
/// Conform to it to drive a simulation from your own generator without building an array first.
public protocol WorkloadSource {
  /// The next step, or nil when the workload is over.
  mutating func next() -> WorkloadStep?
}

/// A workload held in memory.
public struct ArrayWorkload: WorkloadSource, Sendable {
  private let steps: [WorkloadStep]
  private var position = 0

  /// A workload of `steps`, in time order.
  public init(_ steps: [WorkloadStep]) { self.steps = steps }

  public mutating func next() -> WorkloadStep? {
    guard position < steps.count else { return nil }
    defer { position += 1 }
    return steps[position]
  }
}
