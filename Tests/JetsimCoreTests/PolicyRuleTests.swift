import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// The fixture device has 1000 MB usable, warning below 200 MB free and critical below 100 MB.
@Suite struct PolicyRuleTests {
  /// 1000 − (150 + 250 + 250 + 300 + 100) = −50 MB free: 150 MB to recover.
  let mixed: [PolicyHarness.App] = [
    .init(id: "old-small", state: .suspended, footprintMB: 150, lastUsedMs: 1_000),
    .init(id: "tie-b", state: .suspended, footprintMB: 250, lastUsedMs: 5_000),
    .init(id: "tie-a", state: .suspended, footprintMB: 250, lastUsedMs: 5_000),
    .init(id: "music", state: .background, footprintMB: 300, lastUsedMs: 2_000, modes: [.audio]),
    .init(id: "screen", state: .active, footprintMB: 100),
  ]

  @Test func largestFirstTakesTheLargestSuspendedAppThenBreaksTiesByRecencyAndId() {
    var harness = PolicyHarness(mixed)
    #expect(harness.decisions(LargestFirstPolicy()) == ["kill tie-a (vm-pageshortage)"])
    var deeper = PolicyHarness(
      mixed + [.init(id: "hog", state: .background, footprintMB: 600, lastUsedMs: 9_000)])
    // Free −650 MB: tie-a (−400), tie-b (−150), old-small (0): suspended, largest first; then the
    // largest background app, hog (600 MB free, done).
    #expect(
      deeper.decisions(LargestFirstPolicy()) == [
        "kill tie-a (vm-pageshortage)", "kill tie-b (vm-pageshortage)",
        "kill old-small (vm-pageshortage)",
        "kill hog (vm-pageshortage)",
      ])
  }

  @Test func lruTakesTheLeastRecentlyUsedSuspendedAppFirst() {
    var harness = PolicyHarness(mixed)
    harness.apps[4].footprintKB = mb(200)
    // Free −150 MB: old-small (used at 1 s) → 0 MB; then the tie at 5 s goes to the id: tie-a → 250.
    #expect(
      harness.decisions(LRUPolicy()) == [
        "kill old-small (vm-pageshortage)", "kill tie-a (vm-pageshortage)",
      ])
  }

  @Test func lruFallsBackToBackgroundThenForeground() {
    var harness = PolicyHarness([
      .init(id: "bg-new", state: .background, footprintMB: 400, lastUsedMs: 9_000, working: true),
      .init(id: "bg-old", state: .background, footprintMB: 400, lastUsedMs: 1_000, working: true),
      .init(id: "screen", state: .active, footprintMB: 300),
    ])
    // Free −100 MB: bg-old, the less recently used, → 300 MB free: stop.
    #expect(harness.decisions(LRUPolicy()) == ["kill bg-old (vm-pageshortage)"])
    var lonely = PolicyHarness([.init(id: "screen", state: .active, footprintMB: 950)])
    #expect(lonely.decisions(LRUPolicy()) == ["kill screen (vm-pageshortage)"])
  }

  @Test func noPolicyActsAboveItsThresholds() {
    let calm: [PolicyHarness.App] = [
      .init(id: "a", state: .suspended, footprintMB: 100),
      .init(id: "b", state: .active, footprintMB: 100),
    ]
    for name in PolicyName.all {
      var harness = PolicyHarness(calm)
      #expect(harness.decisions(try! PolicyRegistry.make(name)).isEmpty, "\(name)")
    }
  }

  @Test func randomIsSeededAndKillsOffScreenAppsFirst() {
    var first = PolicyHarness(mixed)
    var second = PolicyHarness(mixed)
    let a = first.decisions(RandomPolicy(), seed: 5)
    #expect(a == second.decisions(RandomPolicy(), seed: 5))
    #expect(!a.isEmpty && !a.contains { $0.contains("screen") })
    var seeds: Set<[String]> = []
    for seed in 0..<30 {
      var harness = PolicyHarness(mixed)
      seeds.insert(harness.decisions(RandomPolicy(), seed: UInt64(seed)))
    }
    #expect(seeds.count > 2, "different seeds choose differently")
  }
}
