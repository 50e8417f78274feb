/// Any workload, behind one indirect call a step: what a simulation compiled for its policy reads.
///
/// The workload lives in a class of its own type rather than in an existential: calling a mutating
/// method through an existential that boxes a large value (a scenario's workload) first checked the
/// box for uniqueness and projected it, 50 instructions a step. Copies of the wrapper share the
/// workload, which the simulation never copies.
package struct AnyWorkloadSource: WorkloadSource {
  private let box: AnyWorkloadBox

  /// `base`, read through one indirect call a step.
  package init<Workload: WorkloadSource>(_ base: Workload) { box = WorkloadBox(base) }

  /// The workload, as it is now.
  package var base: any WorkloadSource { box.base }

  package mutating func next() -> WorkloadStep? { box.next() }
}

/// The class `AnyWorkloadSource` calls: a `WorkloadBox` of the workload's type overrides both.
private class AnyWorkloadBox {
  var base: any WorkloadSource { ArrayWorkload([]) }
  func next() -> WorkloadStep? { nil }
}

/// A workload of type `Workload`, read in place.
private final class WorkloadBox<Workload: WorkloadSource>: AnyWorkloadBox {
  // One simulation reads it, one step at a time, so the dynamic exclusivity check of every step
  // is left out.
  @exclusivity(unchecked) private var workload: Workload

  init(_ workload: Workload) { self.workload = workload }

  override var base: any WorkloadSource { workload }
  override func next() -> WorkloadStep? { workload.next() }
}
