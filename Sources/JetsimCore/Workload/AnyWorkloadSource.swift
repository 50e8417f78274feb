/// Any workload, behind one indirect call a step: what a simulation compiled for its policy reads.
package struct AnyWorkloadSource: WorkloadSource {
  /// The workload.
  package var base: any WorkloadSource

  package init(_ base: any WorkloadSource) { self.base = base }

  package mutating func next() -> WorkloadStep? { base.next() }
}
