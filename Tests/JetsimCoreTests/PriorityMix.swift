import JetsimTestSupport

@testable import JetsimCore

/// A random workload with jetsam's priority actions mixed in: after about one step in eight, an
/// assertion (taken or given up) by an app or a managed system process, or a dirty-tracked daemon
/// going dirty or clean, at the same time. Seeded; the same seed gives the same steps.
struct PriorityMix<Base: WorkloadSource>: WorkloadSource {
  private var base: Base
  private var random: RandomStream
  /// The processes that may take assertions, and those that are dirty-tracked.
  private let managed: [Int32]
  private let tracked: [Int32]
  private var extra: WorkloadStep?

  init(_ base: Base, seed: UInt64, scenario: Scenario) {
    self.base = base
    random = RandomStream(seed: seed, stream: 7)
    let apps = scenario.apps.count
    let system = scenario.device.systemProcesses
    managed =
      (0..<apps).map(Int32.init)
      + system.indices.filter { system[$0].isManaged }.map {
        Int32(apps + $0)
      }
    tracked = system.indices.filter {
      system[$0].dirtyTracking == .noIdleExit
        || (system[$0].dirtyTracking == .idleExit && (system[$0].band ?? 0) > 0)
    }.map { Int32(apps + $0) }
  }

  mutating func next() -> WorkloadStep? {
    if let step = extra {
      extra = nil
      return step
    }
    guard let step = base.next() else { return nil }
    if random.below(8) == 0 { extra = priorityStep(at: step.timeMs) }
    return step
  }

  private mutating func priorityStep(at timeMs: Int) -> WorkloadStep {
    if !tracked.isEmpty, random.below(3) == 0 {
      let process = tracked[random.below(tracked.count)]
      return WorkloadStep(
        timeMs: timeMs, kind: random.below(2) == 0 ? .dirty : .clean, app: process)
    }
    let process = managed[random.below(managed.count)]
    guard random.below(3) != 0 else {
      return WorkloadStep(timeMs: timeMs, kind: .release, app: process)
    }
    let bands = [30, 40, 100, 120, 190, 210]
    return WorkloadStep(
      timeMs: timeMs, kind: .assert, app: process, value: bands[random.below(bands.count)])
  }
}
