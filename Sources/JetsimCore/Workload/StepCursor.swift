/// An action cursor that can also hand out its actions already compiled to steps, so a long trace
/// is run without building a `String` or an `Action` a line (a trace file's cursor does this).
package protocol StepCursor: ActionCursor {
  /// The next action, as a step with its app resolved through `apps` where the cursor could do
  /// that on its own, or as the action it read (for the workload to compile, and to report what
  /// is wrong with it); nil at the end. The entries and errors are those of `next()`, in the same
  /// order.
  mutating func nextEntry(apps: AppIndex) throws(JetsimError) -> StepEntry?
}

/// What a `StepCursor` reads: a step ready to run, or an action still to compile.
package enum StepEntry: Sendable, Equatable {
  /// An action compiled by the cursor: its app known, its value parsed.
  case step(WorkloadStep)
  /// An action the workload compiles (and checks) itself.
  case action(TimedAction)

  /// When it happens, in milliseconds.
  package var timeMs: Int {
    switch self {
    case .step(let step): step.timeMs
    case .action(let action): action.timeMs
    }
  }
}
