/// The workload's actions a run did not play because they fall after its end (the scenario's
/// `duration`, or `jetsim run --duration`), counted by source: no input is dropped without a word.
/// A user model draws no action past the end, so only the script and the trace are counted.
public struct UnplayedActions: Sendable, Equatable {
  /// Actions of the scenario's script.
  public var script = 0
  /// Lines of the trace.
  public var trace = 0
  /// The time of the first, in milliseconds (nil when there is none).
  public var firstMs: Int?

  /// No action left unplayed.
  public init() {}

  /// `script` script actions and `trace` trace lines, the first at `firstMs`.
  public init(script: Int, trace: Int, firstMs: Int?) {
    self.script = script
    self.trace = trace
    self.firstMs = firstMs
  }

  /// All of them.
  public var total: Int { script + trace }

  /// `4 trace lines after the run's end (00:10:00.000), the first at 00:12:30.000`: the counts that
  /// are not zero, for a run that ended at `endMs`.
  public func summary(endMs: Int) -> String {
    let parts = [
      trace > 0 ? trace.counted("trace line") : nil,
      script > 0 ? script.counted("script action") : nil,
    ].compactMap { $0 }
    let first = firstMs.map { ", the first at \(Units.clock($0))" } ?? ""
    return "\(parts.joined(separator: " and ")) after the run's end (\(Units.clock(endMs)))\(first)"
  }

  /// Counts `step`, read from `source` (0 the script, 1 the trace).
  mutating func add(_ step: WorkloadStep, source: Int) {
    if source == 0 { script += 1 } else if source == 1 { trace += 1 }
    firstMs = min(firstMs ?? step.timeMs, step.timeMs)
  }
}
