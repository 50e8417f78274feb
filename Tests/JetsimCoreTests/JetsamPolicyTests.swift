import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// jetsam's rules on hand-built device states (docs/policies.md; XNU's kern_memorystatus*.c).
/// The fixture device has 1200 MB: warning (pressure) 200 MB, critical 100 MB, idle critical 10 %
/// = 120 MB.
@Suite struct JetsamPolicyTests {
  /// Apps in every band, each entered at a known time (now is 100 s).
  func everyBand(screenFootprint: Int = 100, screenCaches: Int = 0) -> [PolicyHarness.App] {
    [
      .init(id: "audio", state: .background, footprintMB: 100, modes: [.audio], enteredMs: 1_000),
      .init(
        id: "screen", state: .active, footprintMB: screenFootprint, cachesMB: screenCaches,
        enteredMs: 90_000),
      .init(
        id: "location", state: .background, footprintMB: 100, modes: [.location],
        enteredMs: 2_000),
      .init(id: "working", state: .background, footprintMB: 100, working: true, enteredMs: 3_000),
      .init(id: "aging", state: .suspended, footprintMB: 100, enteredMs: 99_000),
      .init(id: "idle-new", state: .suspended, footprintMB: 100, enteredMs: 50_000),
      .init(id: "idle-old", state: .suspended, footprintMB: 100, enteredMs: 10_000),
    ]
  }

  @Test func bandsOfEachKindOfApp() {
    let harness = PolicyHarness(everyBand())
    let policy = harness.started(JetsamPolicy())
    #expect(
      harness.apps.indices.map { policy.band(of: $0, nowMs: 100_000) } == [
        120, 100, 40, 30, 20, 0, 0,
      ])
    // An app that went idle spends its aging time (2 s) in band 20, then drops to IDLE.
    #expect(policy.band(of: 4, nowMs: 100_999) == 20)
    #expect(policy.band(of: 4, nowMs: 101_000) == 0)
  }

  @Test func aBandIsAListInOrderOfEntryIntoTheBand() {
    // A went idle (ended a long background task) after B, though A left the screen first and was
    // used less recently: B entered IDLE first, so B dies first (XNU appends to the band's tail).
    var harness = PolicyHarness([
      .init(id: "a", state: .suspended, footprintMB: 300, lastUsedMs: 10_000, enteredMs: 35_000),
      .init(id: "b", state: .suspended, footprintMB: 300, lastUsedMs: 20_000, enteredMs: 25_000),
      .init(id: "c", state: .active, footprintMB: 450, enteredMs: 40_000),
    ])
    #expect(harness.availableKB == mb(-50))
    #expect(harness.decisions(JetsamPolicy()).first == "kill b (vm-pageshortage)")
  }

  @Test func killTopClimbsTheBandsAtTheIdleCriticalLevelThenTheDevices() {
    // 6 × 100 MB + 700 MB on screen: free −300 MB. IDLE (old, then new entrant) at the idle critical
    // level (120 MB); then the IDLE band is empty and the device's level (100 MB) applies: the aging
    // band, then background work; free 100 MB is not below 100 MB: stop before the location band.
    var harness = PolicyHarness(everyBand(screenFootprint: 700))
    #expect(
      harness.decisions(JetsamPolicy()) == [
        "kill idle-old (vm-pageshortage)", "kill idle-new (vm-pageshortage)",
        "kill aging (vm-pageshortage)", "kill working (vm-pageshortage)",
      ])
    #expect(harness.availableKB == mb(100))
  }

  @Test func theIdleCriticalLevelAppliesOnlyWhileTheIdleBandHoldsSomeone() {
    // Free 110 MB: below the idle level (120 MB), above the device's (100 MB): the system is
    // healthy, so the head of IDLE dies for `idle-exit` (xnu-11417 kern_memorystatus_policy.c,
    // `memorystatus_pick_action`, MEMORYSTATUS_KILL_IDLE).
    var withIdle = PolicyHarness(everyBand(screenFootprint: 290))
    #expect(withIdle.availableKB == mb(110))
    #expect(withIdle.decisions(JetsamPolicy()) == ["kill idle-old (idle-exit)"])
    // The same with nobody idle: the aging app is not in IDLE yet, and 110 MB is not critical.
    var noIdle = PolicyHarness(Array(everyBand(screenFootprint: 490).prefix(5)))
    #expect(noIdle.availableKB == mb(110))
    #expect(noIdle.decisions(JetsamPolicy()).isEmpty)
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

  /// A purge succeeds only if it brings available memory back to the pressure level
  /// (`memorystatus_kill_proc`, kern_memorystatus.c:6311): 50 MB free, 100 MB purged, 150 MB is
  /// above critical (100 MB) but below the pressure level (200 MB): the app dies all the same.
  @Test func aPurgeThatLeavesMemoryBelowThePressureLevelIsFollowedByTheKill() {
    var harness = PolicyHarness([
      .init(id: "screen", state: .active, footprintMB: 950, cachesMB: 100)
    ])
    #expect(harness.availableKB == mb(50))
    #expect(harness.decisions(JetsamPolicy()) == ["purge screen", "kill screen (vm-pageshortage)"])
  }

  @Test func belowThePressureLevelProcessesOverTheirSoftLimitDie() {
    // Free 150 MB: below warning (200 MB), above the critical levels. Soft limit: 50 % of the
    // 1000 MB foreground limit = 500 MB; only "fat" (520 MB) is over it.
    var harness = PolicyHarness([
      .init(id: "fat", state: .background, footprintMB: 520, working: true, enteredMs: 5_000),
      .init(id: "thin", state: .suspended, footprintMB: 200),
      .init(id: "screen", state: .active, footprintMB: 130),
    ])
    #expect(harness.availableKB == mb(150))
    #expect(harness.decisions(JetsamPolicy()) == ["kill fat (highwater)"])
  }

  @Test func highWatermarkKillsComeFirstEvenBelowCritical() {
    // memorystatus_pick_action: below the pressure level, high-watermark kills first; only when none
    // is left, kill the top process. Free 20 MB (below every level): H (over its soft limit, in
    // ELEVATED_INACTIVE) dies before S (idle); free 570 MB: stop.
    var harness = PolicyHarness([
      .init(id: "h", state: .background, footprintMB: 550, modes: [.location]),
      .init(id: "s", state: .suspended, footprintMB: 110),
      .init(id: "f", state: .active, footprintMB: 320),
    ])
    #expect(harness.availableKB == mb(20))
    #expect(harness.decisions(JetsamPolicy()) == ["kill h (highwater)"])
  }

  @Test func anEmptyTierFallsThrough() {
    // Free 70 MB: below the pressure level and both critical levels, and no process is idle; the
    // high-watermark tier still finds H over its soft limit (tiers are not exclusive).
    var harness = PolicyHarness([
      .init(id: "h", state: .background, footprintMB: 550, modes: [.location]),
      .init(id: "f", state: .active, footprintMB: 380),
    ])
    #expect(harness.availableKB == mb(70))
    #expect(harness.decisions(JetsamPolicy()) == ["kill h (highwater)"])
  }

  @Test func everyProcessOffScreenIsSoftLimitCheckedTheAudioBandIncluded() {
    var harness = PolicyHarness([
      .init(id: "h", state: .background, footprintMB: 550, modes: [.audio]),
      .init(id: "f", state: .active, footprintMB: 320),
    ])
    #expect(harness.availableKB == mb(130))
    #expect(harness.decisions(JetsamPolicy()) == ["kill h (highwater)"])
  }

  @Test func theAllocatingProcessIsNeverTheVictim() {
    // The foreground app allocates: it is the only other candidate in its band, so jetsam kills the
    // idle app and then has no one else to offer.
    var harness = PolicyHarness([
      .init(id: "idle", state: .suspended, footprintMB: 100),
      .init(id: "f", state: .active, footprintMB: 1_000),
    ])
    harness.allocating = 1
    #expect(harness.decisions(JetsamPolicy()) == ["kill idle (vm-pageshortage)"])
  }

  @Test func theIdleCriticalLevelIsTheDevicesIdleLevelNeverBelowCriticalNorCapped() {
    // 2 GB: idle 10 % of memory, above the 100 MB pressure level the device gives: no cap.
    let device = DeviceProfile(
      name: "d", memoryKB: mb(2048), reservedKB: mb(400), warningThresholdKB: mb(100))
    #expect(JetsamPolicy().idleCriticalKB(device) == mb(2048) * 10 / 100)
    // A setting below the critical level is raised to it.
    var low = JetsamPolicy.Parameters()
    low.idleThresholdPercent = 1
    #expect(JetsamPolicy(parameters: low).idleCriticalKB(device) == device.criticalThresholdKB)
  }

  @Test func anIdleDaemonAgesInItsOwnBandForItsOwnTime() {
    var device = Fixture.device
    device.systemProcesses = [
      SystemProcess(name: "d", kind: .idleDaemon, footprintKB: mb(10), agingTimeMs: 5_000)
    ]
    var harness = PolicyHarness(
      device: device, [.init(id: "a", state: .suspended, footprintMB: 10)])
    harness.addIdleSystemProcess(footprintMB: 10, enteredMs: 96_000)
    let policy = harness.started(JetsamPolicy())
    #expect(policy.band(of: 1, nowMs: 100_000) == 10)
    #expect(policy.band(of: 1, nowMs: 101_000) == 0)
  }
}
