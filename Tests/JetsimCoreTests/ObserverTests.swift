import JetsimTestSupport
import Testing

@testable import JetsimCore

/// A library user's observer of any size: the simulation holds it as an existential, inline when
/// it is three words or less and in a box of its own when larger; either way it sees every event
/// and kill, in order.
@Suite struct ObserverTests {
  /// An event log with eight words of its own beside it: too large to be held inline.
  struct LargeObserver: SimulationObserver {
    var log = EventLog()
    var padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7, 8)
    var events = 0

    mutating func record(_ event: EventRecord) {
      log.record(event)
      events += 1
      padding.0 &+= event.timeMs
    }
    mutating func record(_ kill: KillRecord) { log.record(kill) }
  }

  @Test(arguments: 0..<6)
  func aLargeObserverSeesWhatTheLogSees(seed: Int) throws {
    let scenario = InvariantTests.scenario(seed: seed, policy: "jetsam")
    func workload() -> PriorityMix<RandomWorkload> {
      PriorityMix(
        RandomWorkload(seed: UInt64(seed), apps: InvariantTests.apps, count: 300),
        seed: UInt64(seed), scenario: scenario)
    }
    var log = EventLog()
    var small = workload()
    _ = try Simulator.run(
      scenario, policy: scenario.makePolicy(), workload: &small, observer: &log)
    var large = LargeObserver()
    var same = workload()
    _ = try Simulator.run(
      scenario, policy: scenario.makePolicy(), workload: &same, observer: &large)
    #expect(!log.kills.isEmpty)
    #expect(large.log.events == log.events)
    #expect(large.log.kills == log.kills)
    #expect(large.events == log.events.count)
  }
}
