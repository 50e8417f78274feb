import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct JetsamPolicyTests {
  /// Apps in every band, on the fixture device (1200 MB memory: idle threshold 10 % = 120 MB).
  func everyBand(screenFootprint: Int = 100, screenCaches: Int = 0) -> [PolicyHarness.App] {
    [
      .init(id: "audio", state: .background, footprintMB: 100, lastUsedMs: 1_000, modes: [.audio]),
      .init(id: "screen", state: .active, footprintMB: screenFootprint, cachesMB: screenCaches),
      .init(
        id: "location", state: .background, footprintMB: 100, lastUsedMs: 2_000, modes: [.location]),
      .init(id: "working", state: .background, footprintMB: 100, lastUsedMs: 3_000, working: true),
      .init(
        id: "aging", state: .suspended, footprintMB: 100, lastUsedMs: 99_000,
        leftForegroundMs: 99_000),
      .init(id: "idle-new", state: .suspended, footprintMB: 100, lastUsedMs: 50_000),
      .init(id: "idle-old", state: .suspended, footprintMB: 100, lastUsedMs: 10_000),
    ]
  }

  @Test func bandsOfEachKindOfApp() {
    let harness = PolicyHarness(everyBand())
    let policy = JetsamPolicy()
    let bands = harness.apps.map { policy.band(of: $0, nowMs: harness.nowMs) }
    #expect(bands == [120, 100, 40, 30, 20, 0, 0])
    // The aging band lasts agingTime (2 s) after leaving the screen.
    #expect(policy.band(of: harness.apps[4], nowMs: 101_000) == 0)
  }

  @Test func criticalClimbsTheBandsLowestFirstAndLeastRecentlyUsedInside() {
    // 6 × 100 MB + 700 MB on screen: free −300 MB. Idle (old then new), aging, then background work,
    // each 100 MB: free 100 MB, at critical: stop before the location band.
    var harness = PolicyHarness(everyBand(screenFootprint: 700))
    #expect(
      harness.decisions(JetsamPolicy()) == [
        "kill idle-old (vm-pageshortage)", "kill idle-new (vm-pageshortage)",
        "kill aging (vm-pageshortage)",
        "kill working (vm-pageshortage)",
      ])
    #expect(harness.freeKB == mb(100))
  }

  @Test func theForegroundBandIsSortedByFootprintAndPurgedBeforeAKill() {
    var harness = PolicyHarness([
      .init(id: "small", state: .inactive, footprintMB: 100, cachesMB: 40),
      .init(id: "big", state: .active, footprintMB: 970, cachesMB: 30),
    ])
    // Two apps in the foreground band (a state the simulation never builds, to test the sort): the
    // largest is purged first, then killed once it has nothing left to purge.
    #expect(harness.decisions(JetsamPolicy()) == ["purge big", "kill big (vm-pageshortage)"])
  }

  @Test func purgingEnoughAvoidsTheKill() {
    var harness = PolicyHarness([
      .init(id: "screen", state: .active, footprintMB: 950, cachesMB: 200)
    ])
    #expect(harness.decisions(JetsamPolicy()) == ["purge screen"])
    var withoutPurge = PolicyHarness([
      .init(id: "screen", state: .active, footprintMB: 950, cachesMB: 200)
    ])
    var parameters = JetsamPolicy.Parameters()
    parameters.purgeBeforeKill = false
    #expect(
      withoutPurge.decisions(JetsamPolicy(parameters: parameters)) == [
        "kill screen (vm-pageshortage)"
      ])
  }

  @Test func belowTheIdleThresholdOnlyIdleAppsDie() {
    // Free 110 MB: below the idle threshold (120 MB), above critical (100 MB).
    var harness = PolicyHarness(everyBand(screenFootprint: 290))
    #expect(harness.freeKB == mb(110))
    #expect(harness.decisions(JetsamPolicy()) == ["kill idle-old (idle-exit)"])
  }

  @Test func belowThePressureThresholdAppsOverTheirSoftLimitDie() {
    // Free 150 MB: below warning (200 MB), above idle. Soft limit: 50 % of the 1000 MB foreground
    // limit = 500 MB; only "fat" (background, 520 MB) is over it.
    var harness = PolicyHarness([
      .init(id: "fat", state: .background, footprintMB: 520, lastUsedMs: 5_000, working: true),
      .init(id: "thin", state: .suspended, footprintMB: 200),
      .init(id: "screen", state: .active, footprintMB: 130),
    ])
    #expect(harness.freeKB == mb(150))
    #expect(harness.decisions(JetsamPolicy()) == ["kill fat (highwater)"])
  }

  @Test func idleThresholdTiers() {
    #expect(JetsamPolicy.defaultIdleThresholdPercent(memoryKB: mb(2048)) == 10)
    #expect(JetsamPolicy.defaultIdleThresholdPercent(memoryKB: mb(3072)) == 10)
    #expect(JetsamPolicy.defaultIdleThresholdPercent(memoryKB: mb(3754)) == 9)
    #expect(JetsamPolicy.defaultIdleThresholdPercent(memoryKB: mb(8192)) == 8)
  }
}
