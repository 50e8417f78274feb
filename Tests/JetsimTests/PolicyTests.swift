import Testing

@testable import Jetsim

/// A device state built by hand, on which a policy is asked for evictions until it stops; kills and
/// purges are applied to the state as the simulation would.
struct PolicyHarness {
  struct App {
    var id: String
    var state: AppState
    var footprintMB: Int
    var lastUsedMs = 0
    var cachesMB = 0
    var modes: [BackgroundMode] = []
    var working = false
    var leftForegroundMs: Int?
  }

  var device: DeviceProfile
  var profiles: [AppProfile]
  var apps: [AppStatus]
  var nowMs: Int

  init(device: DeviceProfile = Fixture.device, nowMs: Int = 100_000, _ apps: [App]) {
    self.device = device
    self.nowMs = nowMs
    profiles = apps.map {
      AppProfile(id: $0.id, residentKB: mb($0.footprintMB), backgroundModes: $0.modes)
    }
    let ranks = apps.map(\.id).sorted()
    self.apps = apps.map { app in
      var status = AppStatus(idRank: ranks.firstIndex(of: app.id) ?? 0)
      status.state = app.state
      status.footprintKB = mb(app.footprintMB)
      status.physicalKB = status.footprintKB
      status.lastUsedMs = app.lastUsedMs
      status.cachesKB = mb(app.cachesMB)
      status.holdsScreenMemory = app.state.isForeground
      status.activeModes = app.modes.reduce(0) { $0 | $1.bit }
      status.hasBackgroundWork = app.working
      status.leftForegroundMs = app.leftForegroundMs
      return status
    }
  }

  /// Free memory: usable memory less the apps' footprints.
  var freeKB: Int { device.usableKB - apps.reduce(0) { $0 + $1.footprintKB } }

  func view(seed: UInt64) -> DeviceView {
    DeviceView(
      device: device, profiles: profiles, apps: apps, nowMs: nowMs, freeKB: freeKB,
      level: device.level(freeKB: freeKB),
      foregroundApp: apps.firstIndex { $0.state.isForeground }, seed: seed)
  }

  /// The policy's decisions, as `"kill id (reason)"` or `"purge id"`, until it answers nil.
  mutating func decisions(_ policy: some EvictionPolicy, seed: UInt64 = 1) -> [String] {
    var policy = policy
    policy.start(view(seed: seed))
    for index in apps.indices { policy.appDidChange(index, apps[index], nowMs: nowMs) }
    var result: [String] = []
    while let eviction = policy.nextEviction(view(seed: seed)), result.count <= apps.count * 2 {
      let app = eviction.app
      if eviction.purgeOnly {
        apps[app].footprintKB -= apps[app].purgeableKB
        apps[app].cachesKB = 0
        result.append("purge \(profiles[app].id)")
      } else {
        apps[app].state = .notRunning
        apps[app].footprintKB = 0
        result.append("kill \(profiles[app].id) (\(eviction.reason))")
      }
      apps[app].physicalKB = apps[app].footprintKB
      policy.appDidChange(app, apps[app], nowMs: nowMs)
    }
    return result
  }
}

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
    for name in PolicyRegistry.names {
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

@Suite struct AndroidPolicyTests {
  @Test func minfreeInterpolation() {
    // 300 MB: below 350, scale 0: the low-RAM levels.
    #expect(LmkdPolicy.minfreeKB(memoryKB: mb(300), is64Bit: true) == LmkdPolicy.lowRAMMinfreeKB)
    // 525 MB: scale (525 − 350) / 350 = 1/2; level 0: 12288 + (73728 − 12288) / 2 = 43008; level 4 on
    // 64-bit: 43008 + (221184 − 43008) / 2 = 132096; level 5: 49152 + (322560 − 49152) / 2 = 185856.
    #expect(
      LmkdPolicy.minfreeKB(memoryKB: mb(525), is64Bit: true) == [
        43_008, 55_296, 67_584, 82_944, 132_096, 185_856,
      ])
    // 700 MB and more: the high-RAM levels, the last two raised on 64-bit (× 3/2, × 7/4).
    #expect(
      LmkdPolicy.minfreeKB(memoryKB: mb(1990), is64Bit: true) == [
        73_728, 92_160, 110_592, 129_024, 221_184, 322_560,
      ])
    #expect(LmkdPolicy.minfreeKB(memoryKB: mb(1990), is64Bit: false) == LmkdPolicy.highRAMMinfreeKB)
  }

  /// An iPhone-8-sized device: 1990 MB, 1540 MB usable; lmkd's levels 72, 90, 108, 126, 216, 315 MB.
  let phone = DeviceProfile(name: "p", memoryKB: mb(1990), reservedKB: mb(450))

  let apps: [PolicyHarness.App] = [
    .init(id: "screen", state: .active, footprintMB: 300),
    .init(id: "music", state: .background, footprintMB: 100, lastUsedMs: 1_000, modes: [.audio]),
    .init(id: "maps", state: .background, footprintMB: 200, lastUsedMs: 2_000, modes: [.location]),
    .init(id: "upload", state: .background, footprintMB: 100, lastUsedMs: 3_000, working: true),
    .init(
      id: "previous", state: .suspended, footprintMB: 100, lastUsedMs: 9_000,
      leftForegroundMs: 9_000),
    .init(id: "cached-new", state: .suspended, footprintMB: 100, lastUsedMs: 8_000),
    .init(id: "cached-old", state: .suspended, footprintMB: 300, lastUsedMs: 4_000),
  ]

  @Test func adjByImportance() {
    let harness = PolicyHarness(device: phone, apps)
    #expect(
      AndroidImportance.adjustments(harness.view(seed: 1)) == [0, 200, 200, 500, 700, 900, 901])
  }

  @Test func lmkdKillsCachedAppsFirstBelowTheCachedLevels() {
    // Used 1200 MB: free 340 MB, above every level: nothing.
    var calm = PolicyHarness(device: phone, apps)
    #expect(calm.decisions(LmkdPolicy()).isEmpty)
    // 100 MB more on screen: free 240 MB < 315 MB (adj 950) but ≥ 216 MB: only adj ≥ 950 may die,
    // and none has it.
    var cachedLevel = PolicyHarness(device: phone, apps)
    cachedLevel.apps[0].footprintKB = mb(400)
    #expect(cachedLevel.decisions(LmkdPolicy()).isEmpty)
    // 200 MB more: free 140 MB < 216 MB (adj 900): the cached app with the highest adj (the least
    // recent, 901) dies; free 440 MB is above every level: stop.
    var squeezed = PolicyHarness(device: phone, apps)
    squeezed.apps[0].footprintKB = mb(500)
    #expect(squeezed.freeKB == mb(140))
    #expect(squeezed.decisions(LmkdPolicy()) == ["kill cached-old (vm-pageshortage)"])
  }

  @Test func lmkdKillsInAdjOrderUntilFreeClearsTheLevel() {
    // Small apps and a big screen app: free 71 MB < 72 MB, every adj may die. Each 10 MB kill moves
    // free up a level: 81 (< 90: adj ≥ 100), 91 (< 108: adj ≥ 200), 101 (< 108), 111 (< 126: adj ≥ 250,
    // which only adj 200 and 0 apps remain below): stop.
    var harness = PolicyHarness(device: phone, apps)
    for index in 1..<harness.apps.count { harness.apps[index].footprintKB = mb(10) }
    harness.apps[2].footprintKB = mb(20)
    harness.apps[0].footprintKB = mb(1_399)
    #expect(harness.freeKB == mb(71))
    #expect(
      harness.decisions(LmkdPolicy()) == [
        "kill cached-old (vm-pageshortage)", "kill cached-new (vm-pageshortage)",
        "kill previous (vm-pageshortage)",
        "kill upload (vm-pageshortage)",
      ])
  }

  @Test func lmkdKillsTheHeaviestAtPerceptibleAndBelow() {
    // Two perceptible apps (adj 200): music is the less recently used, maps the heavier. Free 100 MB
    // < 108 MB (adj 200): maps dies, though least-recently-used would pick music; free 300 MB: stop.
    var harness = PolicyHarness(device: phone, [apps[0], apps[1], apps[2]])
    harness.apps[0].footprintKB = mb(1_140)
    #expect(harness.freeKB == mb(100))
    #expect(harness.decisions(LmkdPolicy()) == ["kill maps (vm-pageshortage)"])
  }

  @Test func killHeaviestChangesTheOrderInsideOneAdj() {
    // Two apps at the cached cap (adj 999) via many cached apps is heavy to build; instead two
    // service apps (adj 500): least recently used by default, heaviest with killHeaviest.
    let pair: [PolicyHarness.App] = [
      .init(
        id: "light-old", state: .background, footprintMB: 100, lastUsedMs: 1_000, working: true),
      .init(
        id: "heavy-new", state: .background, footprintMB: 300, lastUsedMs: 2_000, working: true),
      .init(id: "screen", state: .active, footprintMB: 1_080),
    ]
    var byRecency = PolicyHarness(device: phone, pair)
    #expect(byRecency.decisions(LmkdPolicy()).first == "kill light-old (vm-pageshortage)")
    var parameters = LmkdPolicy.Parameters()
    parameters.killHeaviest = true
    var byWeight = PolicyHarness(device: phone, pair)
    #expect(
      byWeight.decisions(LmkdPolicy(parameters: parameters)).first
        == "kill heavy-new (vm-pageshortage)")
  }

  @Test func oomBadnessScoresFootprintPlusAdj() {
    // 1990 MB = 509440 pages; adj 900 adds 458496 pages, adj 0 nothing.
    #expect(OOMBadnessPolicy.badness(footprintKB: mb(300), adj: 0, memoryKB: mb(1990)) == 76_800)
    #expect(
      OOMBadnessPolicy.badness(footprintKB: mb(100), adj: 900, memoryKB: mb(1990)) == 25_600
        + 458_496)
    var harness = PolicyHarness(device: phone, apps)
    harness.apps[0].footprintKB = mb(1_400)
    // Free −760 MB; critical is 5 % of 1990 MB = 99.5 MB. Badness: cached-old 76800 + 459005 = 535805,
    // cached-new 484096, previous 25600 + 356608 = 382208, screen 358400 (1400 MB, adj 0), upload
    // 280320, maps 153088, music 127488. Kills: cached-old (−460), cached-new (−360), previous (−260),
    // then the 1.4 GB foreground app, which outscores the service app: 1140 MB free, done.
    #expect(
      harness.decisions(OOMBadnessPolicy()) == [
        "kill cached-old (vm-pageshortage)", "kill cached-new (vm-pageshortage)",
        "kill previous (vm-pageshortage)",
        "kill screen (vm-pageshortage)",
      ])
  }
}
