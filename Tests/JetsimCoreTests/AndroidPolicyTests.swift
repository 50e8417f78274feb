import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

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
      id: "previous", state: .suspended, footprintMB: 100, lastUsedMs: 9_000, enteredMs: 9_000,
      leftScreen: true),
    .init(id: "cached-new", state: .suspended, footprintMB: 100, lastUsedMs: 8_000),
    .init(id: "cached-old", state: .suspended, footprintMB: 300, lastUsedMs: 4_000),
  ]

  /// Every process's adj, as lmkd and oom-badness see it after `harness`'s history.
  func adjustments(_ harness: PolicyHarness) -> [Int?] {
    var importance = AndroidImportance()
    let view = harness.view(seed: 1)
    importance.start(view)
    var resident = AppSet(capacity: harness.apps.count)
    let order = harness.history.indices.sorted {
      (harness.history[$0].enteredMs, $0) < (harness.history[$1].enteredMs, $1)
    }
    for index in order {
      if harness.history[index].leftScreen {
        var before = harness.apps[index]
        before.state = .active
        importance.appDidChange(index, before)
      }
      importance.appDidChange(index, harness.apps[index])
      resident.insert(index)
    }
    var adj = harness.apps.indices.map { importance.fixedAdj($0, harness.apps[$0]) }
    importance.forEachCached(in: resident, harness.apps) { adj[$0] = $1 }
    return adj
  }

  @Test func adjByImportance() {
    #expect(adjustments(PolicyHarness(device: phone, apps)) == [0, 200, 200, 500, 700, 900, 901])
  }

  @Test func ofTwoAppsLeavingInOneMillisecondTheLaterIsThePrevious() {
    // Two apps leaving in one millisecond: the later one is the previous app.
    let sameInstant: [PolicyHarness.App] = [
      .init(
        id: "x", state: .suspended, footprintMB: 200, lastUsedMs: 10_000, enteredMs: 10_000,
        leftScreen: true),
      .init(
        id: "y", state: .suspended, footprintMB: 50, lastUsedMs: 10_000, enteredMs: 10_000,
        leftScreen: true),
      .init(id: "z", state: .active, footprintMB: 300, enteredMs: 10_000),
    ]
    #expect(adjustments(PolicyHarness(device: phone, sameInstant)) == [900, 700, 0])
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
    #expect(squeezed.availableKB == mb(140))
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
    #expect(harness.availableKB == mb(71))
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
    #expect(harness.availableKB == mb(100))
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
