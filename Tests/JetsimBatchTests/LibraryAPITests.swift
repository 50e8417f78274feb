import Foundation
import Jetsim
import JetsimTestSupport
import Testing

/// The examples of docs/library.md and docs/policies.md, compiled and checked.
@Suite struct LibraryAPITests {
  struct OldestSuspendedFirst: EvictionPolicy {
    let name = "oldest-suspended-first"

    mutating func nextEviction(_ device: DeviceView) -> Eviction? {
      guard device.isBelowCritical else { return nil }
      let suspended = device.apps.indices.filter { device.apps[$0].state == .suspended }
      let victim =
        suspended.min { device.apps[$0].lastUsedMs < device.apps[$1].lastUsedMs }
        ?? device.apps.indices.first { device.apps[$0].state.isResident }
      return victim.map { Eviction(app: $0) }
    }
  }

  struct KillCounter: SimulationObserver {
    var kills = 0
    mutating func record(_ event: EventRecord) {}
    mutating func record(_ kill: KillRecord) { kills += 1 }
  }

  @Test func aScenarioBuiltInCode() throws {
    let device = DeviceProfile(
      name: "Test phone", memoryKB: 2_048 * 1024, reservedKB: 450 * 1024,
      foregroundLimitKB: 1_396 * 1024)
    let apps = [
      AppProfile(
        id: "game", residentKB: 700 * 1024, cachesKB: 150 * 1024, backingStoresKB: 80 * 1024),
      AppProfile(id: "music", residentKB: 90 * 1024, backgroundModes: [.audio]),
    ]
    let scenario = Scenario(
      name: "mine", device: device, apps: apps,
      actions: [
        TimedAction(0, .open("music")), TimedAction(1_000, .startMode("music", .audio)),
        TimedAction(60_000, .open("game")),
      ])
    let result = try Simulator.run(scenario)
    #expect(result.summary.metrics.coldLaunches == 2)
    #expect(result.events.last?.app == 0)  // the game's launch comes last
    #expect(result.kills.isEmpty)
  }

  @Test func aCustomPolicyRunsThroughTheSameReports() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    let custom = try Simulator.run(scenario, policy: OldestSuspendedFirst())
    let standard = try Simulator.run(scenario)
    #expect(custom.summary.policy == "oldest-suspended-first")
    #expect(custom.csv.kills.contains(",oldest-suspended-first,"))
    // Every pressure kill took the suspended app that entered the background first.
    var lastUsed: [Int: Int] = [:]
    var state: [Int: AppState] = [:]
    for event in custom.events where event.app >= 0 {
      if event.kind == .kill, event.reason == .vmPageshortage, event.from == .suspended {
        let oldest = state.filter { $0.value == .suspended }.min {
          (lastUsed[$0.key] ?? 0) < (lastUsed[$1.key] ?? 0)
        }
        #expect(lastUsed[event.app] == oldest.flatMap { lastUsed[$0.key] })
      }
      if event.to == .background, event.from != .background { lastUsed[event.app] = event.timeMs }
      state[event.app] = event.to
    }
    #expect(custom.killOrder.map(\.app) != standard.killOrder.map(\.app))
  }

  @Test func anObserverOfYourOwn() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/lifecycle-tour.json")
    var counter = KillCounter()
    let summary = try Simulator.run(scenario, observer: &counter)
    #expect(counter.kills == summary.metrics.totalKills)
    #expect(counter.kills == 11)
  }

  @Test func aStreamedWorkloadGivesTheSameSummaryWithOrWithoutALog() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    var quiet = DiscardingObserver()
    var workload = RandomWorkload(seed: 7, apps: scenario.apps, count: 20_000)
    let summary = try Simulator.run(
      scenario, policy: LargestFirstPolicy(), workload: &workload, observer: &quiet)
    var log = EventLog()
    var again = RandomWorkload(seed: 7, apps: scenario.apps, count: 20_000)
    let logged = try Simulator.run(
      scenario, policy: LargestFirstPolicy(), workload: &again, observer: &log)
    #expect(summary == logged)
    #expect(log.events.count == summary.metrics.events)
    #expect(summary.metrics.totalKills > 0)
  }

  @Test func aWorkloadOutOfOrderIsAnErrorNotATrap() {
    let scenario = Scenario(
      name: "s", device: Fixture.device, apps: [Fixture.app("a", resident: 10)], actions: [])
    var workload = ArrayWorkload([
      WorkloadStep(timeMs: 10, kind: .open, app: 0), WorkloadStep(timeMs: 5, kind: .home),
    ])
    var log = EventLog()
    #expect(throws: JetsimError.self) {
      try Simulator.run(scenario, policy: LargestFirstPolicy(), workload: &workload, observer: &log)
    }
    var badApp = ArrayWorkload([WorkloadStep(timeMs: 0, kind: .open, app: 9)])
    #expect(throws: JetsimError.self) {
      try Simulator.run(scenario, policy: LargestFirstPolicy(), workload: &badApp, observer: &log)
    }
  }

  /// docs/library.md, "What MetricKit would report".
  @Test func whatMetricKitWouldReport() throws {
    let commute = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    let summary = try Simulator.run(commute).summary
    let app = summary.appIDs.firstIndex(of: "com.example.photofeed") ?? 0
    let payload = MetricKitPayload(app: app, of: summary)
    #expect(payload.count(.backgroundMemoryPressure) == 2)
    #expect((payload.averageSuspendedKB ?? 0) > 0)
    let day = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/photofeed-day.json")
    let points = try WhatIf.run(
      day, app: "com.example.photofeed", residentsKB: [300 * 1024, 150 * 1024], devices: [],
      seeds: Array(1...10), jobs: 2)
    #expect(points.map(\.residentKB) == [300 * 1024, 150 * 1024])
    #expect(points.allSatisfy { $0.summary(.backgroundMemoryPressure) != nil })
    // A smaller resident size leaves a smaller suspended footprint.
    #expect(
      (points[0].payload.averageSuspendedKB ?? 0) > (points[1].payload.averageSuspendedKB ?? 0))
  }
}
