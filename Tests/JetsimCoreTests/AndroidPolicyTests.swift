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

  /// lmkd in legacy minfree mode (`useMinfreeLevels`) on `phone` with no free target and no
  /// watermarks: the file cache is all of available memory, free memory (less the reserve) is
  /// none, so a level fires when available memory is below it (lmkd.cpp `mp_event_common`, line
  /// 3229, at AOSP platform/system/memory/lmkd 767ae23).
  static func legacy(killHeaviest: Bool = false) -> LmkdPolicy {
    var parameters = LmkdPolicy.Parameters()
    parameters.useMinfreeLevels = true
    parameters.watermarks = ZoneWatermarks(minKB: 0, lowKB: 0, highKB: 0)
    parameters.killHeaviest = killHeaviest
    return LmkdPolicy(parameters: parameters)
  }

  var legacyPhone: DeviceProfile {
    var device = phone
    device.fileCache.freeTargetKB = 0
    return device
  }

  @Test func lmkdKillsCachedAppsFirstBelowTheCachedLevels() {
    // Used 1200 MB: free 340 MB, above every level: nothing. The cached apps share slots: 900
    // (cached-new) and 910 (cached-old).
    var calm = PolicyHarness(device: legacyPhone, apps)
    #expect(calm.decisions(Self.legacy()).isEmpty)
    // 100 MB more on screen: free 240 MB < 315 MB (adj 950) but ≥ 216 MB: only adj ≥ 950 may die,
    // and none has it.
    var cachedLevel = PolicyHarness(device: legacyPhone, apps)
    cachedLevel.apps[0].footprintKB = mb(400)
    #expect(cachedLevel.decisions(Self.legacy()).isEmpty)
    // 200 MB more: free 140 MB < 216 MB (adj 900): the cached app with the highest adj (the least
    // recent, 910) dies; free 440 MB is above every level: stop.
    var squeezed = PolicyHarness(device: legacyPhone, apps)
    squeezed.apps[0].footprintKB = mb(500)
    #expect(squeezed.availableKB == mb(140))
    #expect(squeezed.decisions(Self.legacy()) == ["kill cached-old (lmk-none)"])
  }

  @Test func lmkdKillsInAdjOrderUntilFreeClearsTheLevel() {
    // Small apps and a big screen app: free 71 MB < 72 MB, every adj may die. Each 10 MB kill moves
    // free up a level: 81 (< 90: adj ≥ 100), 91 (< 108: adj ≥ 200), 101 (< 108), 111 (< 126: adj ≥ 250,
    // which only adj 200 and 0 apps remain below): stop.
    var harness = PolicyHarness(device: legacyPhone, apps)
    for index in 1..<harness.apps.count { harness.apps[index].footprintKB = mb(10) }
    harness.apps[2].footprintKB = mb(20)
    harness.apps[0].footprintKB = mb(1_399)
    #expect(harness.availableKB == mb(71))
    #expect(
      harness.decisions(Self.legacy()) == [
        "kill cached-old (lmk-none)", "kill cached-new (lmk-none)",
        "kill previous (lmk-none)",
        "kill upload (lmk-none)",
      ])
  }

  @Test func lmkdKillsTheHeaviestAtPerceptibleAndBelow() {
    // Two perceptible apps (adj 200): music is the less recently used, maps the heavier. Free 100 MB
    // < 108 MB (adj 200): maps dies, though least-recently-used would pick music; free 300 MB: stop.
    var harness = PolicyHarness(device: legacyPhone, [apps[0], apps[1], apps[2]])
    harness.apps[0].footprintKB = mb(1_140)
    #expect(harness.availableKB == mb(100))
    #expect(harness.decisions(Self.legacy()) == ["kill maps (lmk-none)"])
  }

  @Test func killHeaviestChangesTheOrderInsideOneAdj() {
    // Four started services: the two most recently used stay at 500, the pair before them at 800
    // (service B). Of the pair, the one that got 800 first by default (the tail of lmkd's list:
    // light-old at 2 s, when heavy-new came; heavy-new at 4 s), the heaviest with killHeaviest.
    let pair: [PolicyHarness.App] = [
      PolicyHarness.woken("light-old", footprintMB: 100, atMs: 1_000),
      PolicyHarness.woken("heavy-new", footprintMB: 300, atMs: 2_000),
      PolicyHarness.woken("fresh-a", footprintMB: 50, atMs: 3_000),
      PolicyHarness.woken("fresh-b", footprintMB: 50, atMs: 4_000),
      .init(id: "screen", state: .active, footprintMB: 980),
    ]
    #expect(
      lmkdAdjustments(PolicyHarness(device: legacyPhone, pair), nowMs: 5_000) == [
        800, 800, 500, 500, 0,
      ])
    var byRecency = PolicyHarness(device: legacyPhone, pair)
    #expect(byRecency.decisions(Self.legacy()).first == "kill light-old (lmk-none)")
    var byWeight = PolicyHarness(device: legacyPhone, pair)
    #expect(
      byWeight.decisions(Self.legacy(killHeaviest: true)).first == "kill heavy-new (lmk-none)")
  }

  @Test func oomBadnessScoresFootprintPlusAdj() {
    // 1990 MB and no swap = 509440 pages, 509 a unit of adj (the division first): adj 900 adds
    // 458100 pages, adj 0 nothing. 200 MB of swap counts too: 560640 pages, 560 a unit.
    let pages = OOMBadnessPolicy.totalPages(memoryKB: mb(1990), swapKB: 0)
    #expect(OOMBadnessPolicy.badness(footprintKB: mb(300), adj: 0, totalPages: pages) == 76_800)
    #expect(
      OOMBadnessPolicy.badness(footprintKB: mb(100), adj: 900, totalPages: pages) == 25_600
        + 458_100)
    let withSwap = OOMBadnessPolicy.totalPages(memoryKB: mb(1990), swapKB: mb(200))
    #expect(
      OOMBadnessPolicy.badness(footprintKB: mb(100), adj: 900, totalPages: withSwap) == 25_600
        + 504_000)
    var harness = PolicyHarness(device: phone, apps)
    harness.apps[0].footprintKB = mb(1_400)
    // Free −760 MB; critical is 5 % of 1990 MB = 99.5 MB. Badness: cached-old 76800 + 458609 = 535409,
    // cached-new 483700, previous 25600 + 356300 = 381900, screen 358400 (1400 MB, adj 0), upload
    // 280100, maps 153000, music 127400. Kills: cached-old (−460), cached-new (−360), previous (−260),
    // then the 1.4 GB foreground app, which outscores the service app: 1140 MB free, done.
    #expect(
      harness.decisions(OOMBadnessPolicy()) == [
        "kill cached-old (vm-pageshortage)", "kill cached-new (vm-pageshortage)",
        "kill previous (vm-pageshortage)",
        "kill screen (vm-pageshortage)",
      ])
  }

  // MARK: - ActivityManager's adj as lmkd reads it (frameworks/base OomAdjuster.java at
  // aosp-mirror/platform_frameworks_base 02978520d9e8fd1bc84ea68c4065178d4a1b7b7b)

  /// `assignCachedAdjIfNecessary` for `count` cached processes, most recent first.
  static func slots(_ count: Int, first: Int = 900) -> [Int] {
    var adj: [Int] = []
    AndroidImportance.assignSlots(Array(0..<count), first: first) { adj.append($1) }
    return adj
  }

  /// Slots step by 10 (`CACHED_APP_IMPORTANCE_LEVELS × 2`), `ceil(n / 10)` processes to a slot
  /// (`cachedFactor`, `mNumSlots` 10), the last slot 999; empty processes at the odd fives.
  @Test func cachedProcessesShareOomAdjustersSlots() {
    #expect(Self.slots(7) == [900, 910, 920, 930, 940, 950, 960])
    #expect(Self.slots(12) == [900, 900, 910, 910, 920, 920, 930, 930, 940, 940, 950, 950])
    #expect(Self.slots(10).last == 990)
    #expect(Array(Self.slots(22).suffix(4)) == [960, 960, 960, 970])
    #expect(Self.slots(3, first: 905) == [905, 915, 925])
  }

  /// The adj lmkd reads on `harness` at `nowMs` (ranking `.activityManager`).
  func lmkdAdjustments(_ harness: PolicyHarness, nowMs: Int) -> [Int?] {
    var importance = AndroidImportance(ranking: .activityManager)
    importance.start(harness.view(seed: 1))
    var resident = AppSet(capacity: harness.apps.count)
    for index in harness.history.indices.sorted(by: {
      harness.history[$0].enteredMs < harness.history[$1].enteredMs
    }) {
      if harness.history[index].leftScreen {
        var before = harness.apps[index]
        before.state = .active
        importance.appDidChange(index, before, nowMs: harness.history[index].enteredMs)
      }
      importance.appDidChange(index, harness.apps[index], nowMs: harness.history[index].enteredMs)
      resident.insert(index)
    }
    var adj = [Int?](repeating: nil, count: harness.apps.count)
    importance.forEachResident(in: resident, harness.apps, nowMs: nowMs) { adj[$0] = $1 }
    return adj
  }

  /// The previous app keeps 700 for `MAX_PREVIOUS_TIME` (60 s) after it was suspended (here as it
  /// left the screen, at 9 s), then "previous-expired" (OomAdjuster `computeOomAdjLSP`): the
  /// fixed adj 900 with the state LAST_ACTIVITY, outside the cached slots
  /// (`assignCachedAdjIfNecessary` skips an adj already set), so the cached apps keep theirs (900,
  /// 910) and are counted without it.
  @Test func thePreviousAppExpiresAfterSixtySeconds() {
    var harness = PolicyHarness(device: phone, apps)
    // Expired strictly after the 60 s (`lastStateTime + MAX_PREVIOUS_TIME < now`, line 2164).
    #expect(lmkdAdjustments(harness, nowMs: 69_000) == [0, 200, 200, 500, 700, 900, 910])
    #expect(lmkdAdjustments(harness, nowMs: 69_001) == [0, 200, 200, 500, 900, 900, 910])
    // lmkd is asked again at the expiry, as memory stays short.
    var policy = harness.started(LmkdPolicy())
    harness.nowMs = 30_000
    #expect(policy.reconsiderAtMs(harness.view(seed: 1)) == 69_001)
    harness.nowMs = 69_001
    _ = policy.nextEviction(harness.view(seed: 1))
    #expect(policy.reconsiderAtMs(harness.view(seed: 1)) != 69_001)
  }

  /// The app on screen (1,500 MB: legacy mode's lowest level on `legacyPhone`), "used" (on screen
  /// until 40 s, still working: a started service) and "left" (on screen until 50 s, working: the
  /// previous app).
  static let serviceCast: [PolicyHarness.App] = [
    .init(id: "screen", state: .active, footprintMB: 1_500, enteredMs: 60_000),
    .init(
      id: "used", state: .background, footprintMB: 100, lastUsedMs: 40_000, working: true,
      enteredMs: 40_000, leftScreen: true),
    .init(
      id: "left", state: .background, footprintMB: 100, lastUsedMs: 50_000, working: true,
      enteredMs: 50_000, leftScreen: true),
  ]

  /// Background work is a started service (OomAdjuster `computeOomAdjLSP`, frameworks/base
  /// 02978520, lines 2244–2283), and the previous app comes before it (line 2157): "left" left the
  /// screen at 50 s with work under way, and is the previous app (700); "woken" was started in
  /// the background and has never been on screen: SERVICE_ADJ (500); "used" left the screen at
  /// 40 s with work under way, has shown UI and is no longer the previous app: no SERVICE_ADJ
  /// ("cch-started-ui-services"), it is cached. While "left" works its state is SERVICE, so it
  /// does not expire (line 2164 needs LAST_ACTIVITY); once suspended (at 120 s), it expires 60 s
  /// later. oom-badness reads the same adj (its previous app never expires).
  @Test func backgroundWorkIsAServiceOnlyInAProcessThatShowedNoUI() {
    let cast =
      Self.serviceCast + [
        PolicyHarness.woken("woken", footprintMB: 100, atMs: 45_000)
      ]
    let harness = PolicyHarness(device: phone, cast)
    for nowMs in [60_000, 500_000] {
      let adj = lmkdAdjustments(harness, nowMs: nowMs)
      // "used" is cached with its process state SERVICE: on the empty processes' ladder, 905
      // (`assignCachedAdjIfNecessary` line 1262), not the cached apps' 900.
      #expect(adj == [0, 905, 700, 500])
    }
    #expect(adjustments(harness) == [0, 900, 700, 500])
    var suspended = cast
    (suspended[2].state, suspended[2].working, suspended[2].enteredMs) = (
      .suspended, false, 120_000
    )
    let later = PolicyHarness(device: phone, suspended)
    #expect(lmkdAdjustments(later, nowMs: 180_000)[2] == 700)
    #expect(lmkdAdjustments(later, nowMs: 180_001)[2] == 900)
  }

  /// Service B (OomAdjuster `computeOomAdjLSP` lines 2452–2491): of `n` started services, visited
  /// most recently used first, the ⌊n / 3⌋ + 1 first stay at 500 and the others go to 800.
  @Test(arguments: 1...7) func theFirstThirdOfTheStartedServicesStayAt500(count: Int) {
    let services = (0..<count).map { rank in
      PolicyHarness.woken("s\(rank)", footprintMB: 50, atMs: 10_000 - rank * 1_000)
    }
    let adj = lmkdAdjustments(PolicyHarness(device: phone, services), nowMs: 20_000)
    let staying = count / 3 + 1
    #expect(adj == (0..<count).map { $0 < staying ? 500 : 800 })
    // Not under oom-badness's ranking (jetsim 0.3's), which has no service B.
    #expect(
      adjustments(PolicyHarness(device: phone, services)) == Array(repeating: 500, count: count))
  }

  /// A change of one service moves the others between 500 and 800, and lmkd hears of each move:
  /// when the most recent of two ends its work, the other comes back to 500, from then (its place
  /// in lmkd's list of 500, `register_oom_adj_proc`).
  @Test func aServiceEndingMovesAnotherBackTo500() {
    let pair: [PolicyHarness.App] = [
      PolicyHarness.woken("older", footprintMB: 50, atMs: 1_000),
      PolicyHarness.woken("newer", footprintMB: 50, atMs: 2_000),
    ]
    let harness = PolicyHarness(device: phone, pair)
    var importance = AndroidImportance(ranking: .activityManager)
    importance.start(harness.view(seed: 1))
    importance.appDidChange(0, harness.apps[0], nowMs: 1_000)
    #expect(importance.servicesMoved.isEmpty)
    importance.appDidChange(1, harness.apps[1], nowMs: 2_000)
    #expect(importance.servicesMoved == [0])
    #expect(importance.fixedAdj(0, harness.apps[0]) == 800)
    #expect(importance.adjSince[0] == 2_000)
    var done = harness.apps[1]
    done.state = .suspended
    done.hasBackgroundWork = false
    importance.appDidChange(1, done, nowMs: 5_000)
    #expect(importance.servicesMoved == [0])
    #expect(importance.fixedAdj(0, harness.apps[0]) == 500)
    #expect(importance.adjSince[0] == 5_000)
  }

  /// With no cached process, `lmk-low-mem` (701 and above) reaches a B service, and only that: of
  /// two woken apps the older, at 800, dies, where at 500 both were out of its reach.
  @Test func lmkLowMemKillsAServiceB() {
    let pair: [PolicyHarness.App] = [
      .init(id: "screen", state: .active, footprintMB: 1_000, enteredMs: 500),
      PolicyHarness.woken("older", footprintMB: 50, atMs: 1_000),
      PolicyHarness.woken("newer", footprintMB: 400, atMs: 2_000),
    ]
    var harness = LmkdPressureTests.harness(availableMB: 40, workingSetMB: 10, pair)
    var policy = harness.started(LmkdPressureTests.policy())
    let first = policy.nextEviction(harness.view(seed: 1))
    #expect(first?.app == 1)
    #expect(first?.reason == .lmkLowMem)
    harness.apps[1].state = .notRunning
    harness.apps[1].footprintKB = 0
    policy.appDidChange(1, harness.apps[1], nowMs: harness.nowMs)
    // The other is alone, at 500: out of lmk-low-mem's reach.
    #expect(policy.importance.fixedAdj(2, harness.apps[2]) == 500)
    #expect(policy.victim(harness.view(seed: 1), minAdj: 701) == nil)
  }

  /// A started service in an app that has been on screen is on the empty processes' ladder, above
  /// the cached apps' slot: legacy mode at its lowest level kills "used" (905) before "old" (900),
  /// though "used" was used more recently (as cached apps, "used" would be at 900 and "old" at
  /// 910, and "old" would die first).
  @Test func aStartedServiceThatShowedUIIsKilledOnTheEmptyLadder() {
    let old = PolicyHarness.App(
      id: "old", state: .suspended, footprintMB: 100, lastUsedMs: 30_000, enteredMs: 30_000,
      leftScreen: true)
    var harness = PolicyHarness(device: legacyPhone, Self.serviceCast + [old])
    #expect(lmkdAdjustments(harness, nowMs: 60_000) == [0, 905, 700, 900])
    #expect(
      harness.decisions(Self.legacy()) == [
        "kill used (lmk-none)", "kill old (lmk-none)", "kill left (lmk-none)",
        "kill screen (lmk-none)",
      ])
  }

  /// On the empty processes' ladder the started services come first: they hold activities, so in
  /// ActivityManager's LRU list they stand above every process without one, whatever their use
  /// (ProcessList `updateLruProcessLocked`). "used" was last used at 40 s, the idle daemon at 45 s:
  /// "used" is at 905, the daemon at 915 (by recency alone, the other way round), and lmkd kills
  /// the daemon first.
  @Test func onTheEmptyLadderStartedServicesComeBeforeEmptyProcesses() {
    var device = legacyPhone
    device.systemProcesses = [
      SystemProcess(name: "sys.idle", kind: .idleDaemon, footprintKB: mb(20))
    ]
    var harness = PolicyHarness(device: device, Self.serviceCast)
    harness.addIdleSystemProcess(footprintMB: 20, enteredMs: 45_000)
    harness.apps[3].lastUsedMs = 45_000
    #expect(lmkdAdjustments(harness, nowMs: 60_000) == [0, 905, 700, 915])
    #expect(
      harness.decisions(Self.legacy()).prefix(2) == [
        "kill sys.idle (lmk-none)", "kill used (lmk-none)",
      ])
  }

  /// An app woken into the background that has not been on screen in its present life holds no
  /// activity: once its work is over it is an empty process ("cch-empty", OomAdjuster
  /// `computeOomAdjLSP` lines 1970–1977 at frameworks/base 02978520, with the process state
  /// `PROCESS_STATE_CACHED_EMPTY`), on the empty processes' ladder from 905. "left" was on screen
  /// until 30 s and is cached (900); "woken" was woken at 40 s, more recently: as a cached app it
  /// would be at 900 and "left" at 910, so legacy mode at its lowest level would kill "left"
  /// first. It is at 905 and dies first. oom-badness keeps jetsim 0.3's ranking: both cached, by
  /// recency.
  @Test func aWokenAppWhoseWorkIsOverIsAnEmptyProcess() {
    let cast: [PolicyHarness.App] = [
      .init(id: "screen", state: .active, footprintMB: 1_500, enteredMs: 60_000),
      .init(id: "left", state: .suspended, footprintMB: 100, lastUsedMs: 30_000, enteredMs: 30_000),
      .init(
        id: "woken", state: .suspended, footprintMB: 100, lastUsedMs: 40_000, enteredMs: 45_000,
        shownUI: false),
    ]
    var harness = PolicyHarness(device: legacyPhone, cast)
    #expect(lmkdAdjustments(harness, nowMs: 60_000) == [0, 900, 905])
    #expect(adjustments(harness) == [0, 901, 900])
    #expect(
      harness.decisions(Self.legacy()).prefix(2) == [
        "kill woken (lmk-none)", "kill left (lmk-none)",
      ])
  }

  /// On the empty processes' ladder, a woken app whose work is over is an empty process: after the
  /// started services that have shown UI, by recency among the other empty processes. "used" (a
  /// started service, last used at 40 s) is at 905 and "woken" (used at 45 s) at 915, in the scan
  /// as in the kept lists; with `kill_heaviest_task` the scan decides, and kills "woken" first.
  @Test func aWokenEmptyAppStandsAfterTheStartedServicesOnTheEmptyLadder() {
    let woken = PolicyHarness.App(
      id: "woken", state: .suspended, footprintMB: 10, lastUsedMs: 45_000, enteredMs: 50_000,
      shownUI: false)
    let harness = PolicyHarness(device: legacyPhone, Self.serviceCast + [woken])
    #expect(lmkdAdjustments(harness, nowMs: 60_000) == [0, 905, 700, 915])
    for killHeaviest in [false, true] {
      var run = harness
      #expect(
        run.decisions(Self.legacy(killHeaviest: killHeaviest)).first == "kill woken (lmk-none)")
    }
  }

  /// The same app, opened by the user after it was woken, holds activities for the rest of its
  /// life: suspended again, it is a cached app; and a snapshot's suspended app is taken as one
  /// the user left (a cached app), while it stays as the snapshot placed it and after.
  @Test func anAppThatHasBeenOnScreenOrIsASnapshotsSuspendedAppIsCached() {
    let cast: [PolicyHarness.App] = [
      .init(id: "screen", state: .active, footprintMB: 300, enteredMs: 60_000),
      .init(
        id: "woken", state: .suspended, footprintMB: 100, lastUsedMs: 40_000, enteredMs: 45_000,
        shownUI: false),
    ]
    let harness = PolicyHarness(device: phone, cast)
    var importance = AndroidImportance(ranking: .activityManager)
    importance.start(harness.view(seed: 1))
    var woken = harness.apps[1]
    importance.appDidChange(1, woken, nowMs: 45_000)
    #expect(importance.cachedKind(1, woken) == .empty)
    woken.state = .active
    importance.appDidChange(1, woken, nowMs: 50_000)
    woken.state = .suspended
    importance.appDidChange(1, woken, nowMs: 55_000)
    #expect(importance.cachedKind(1, woken) == .cached)
    // Killed and woken again: a new life, with no activity.
    woken.state = .notRunning
    importance.appDidChange(1, woken, nowMs: 56_000)
    woken.state = .suspended
    importance.appDidChange(1, woken, nowMs: 57_000)
    #expect(importance.cachedKind(1, woken) == .empty)
    importance.start(harness.view(seed: 1))
    var placed = harness.apps[1]
    placed.placeBySnapshot(band: nil)
    importance.appDidChange(1, placed, nowMs: 0)
    #expect(importance.cachedKind(1, placed) == .cached)
    placed.enter(.background, atMs: 10_000, bySnapshot: false)
    placed.enter(.suspended, atMs: 20_000, bySnapshot: false)
    importance.appDidChange(1, placed, nowMs: 20_000)
    #expect(importance.cachedKind(1, placed) == .cached)
  }

  /// The app on screen when the device locks stays ActivityManager's top app: `computeOomAdjLSP`
  /// gives the top app `FOREGROUND_APP_ADJ` while the top process state is not
  /// `PROCESS_STATE_TOP` ("top-sleeping", lines 1960–1965 at frameworks/base 02978520), though it
  /// has left the screen as an iOS app does. The app that was the previous one stays so. When
  /// another app opens, the app behind the lock becomes the previous app, and its 60 s start then
  /// (its process state becomes `LAST_ACTIVITY` only then), not at its suspension. jetsim 0.3's
  /// ranking (`oom-badness`) does not know the lock: it is the previous app at once.
  @Test func theAppBehindTheLockStaysTheTopApp() {
    let cast: [PolicyHarness.App] = [
      .init(id: "a", state: .active, footprintMB: 100, enteredMs: 5_000),
      .init(id: "p", state: .suspended, footprintMB: 100, lastUsedMs: 5_000, enteredMs: 5_000),
      .init(id: "b", state: .suspended, footprintMB: 100, lastUsedMs: 1_000, enteredMs: 1_000),
    ]
    let harness = PolicyHarness(device: phone, cast)
    for ranking in [AndroidImportance.Ranking.activityManager, .recency] {
      var importance = AndroidImportance(ranking: ranking)
      importance.start(harness.view(seed: 1))
      var p = harness.apps[1]
      p.state = .active
      importance.appDidChange(1, p, nowMs: 1_000)
      p.state = .suspended
      importance.appDidChange(1, p, nowMs: 5_000)
      var a = harness.apps[0]
      importance.appDidChange(0, a, nowMs: 5_000)
      #expect(importance.previousApp == 1)
      // The device locks at 10 s: "a" leaves the screen behind the lock, suspended at 20 s.
      a.isBehindLock = true
      a.enter(.background, atMs: 10_000, bySnapshot: false)
      importance.appDidChange(0, a, nowMs: 10_000)
      a.enter(.suspended, atMs: 20_000, bySnapshot: false)
      importance.appDidChange(0, a, nowMs: 20_000)
      let locked = importance.fixedAdj(0, a, nowMs: 90_000)
      #expect(locked == (ranking == .activityManager ? 0 : 700))
      #expect(importance.previousApp == (ranking == .activityManager ? 1 : 0))
      guard ranking == .activityManager else { continue }
      // "b" opens at 100 s: "a" is behind the lock no more, and is the previous app until 160 s.
      a.isBehindLock = false
      importance.appDidChange(0, a, nowMs: 100_000)
      var b = harness.apps[2]
      b.enter(.active, atMs: 100_000, bySnapshot: false)
      importance.appDidChange(2, b, nowMs: 100_000)
      #expect(importance.previousApp == 0)
      #expect(importance.fixedAdj(0, a, nowMs: 160_000) == 700)
      #expect(importance.fixedAdj(0, a, nowMs: 160_001) == 900)
      var statuses = harness.apps
      statuses[0] = a
      #expect(importance.previousExpiryMs(statuses, nowMs: 100_000) == 160_001)
    }
  }

  /// The empty processes' ladder shares its slots by the count of empty processes alone
  /// (`numEmptyProcs`, OomAdjuster.java line 1178 at 02978520): eleven started services and no
  /// empty process take one slot each, 905 to 995 and then 999; counted, they would share slots
  /// two by two (905, 905, 915, ...).
  @Test func startedServicesStepTheEmptyLadderWithoutSizingIt() {
    let cast: [PolicyHarness.App] =
      [
        .init(id: "screen", state: .active, footprintMB: 100, enteredMs: 60_000)
      ]
      + (0..<12).map {
        .init(
          id: "s\($0)", state: .background, footprintMB: 10, lastUsedMs: 50_000 - $0 * 1_000,
          working: true, enteredMs: 50_000 - $0 * 1_000, leftScreen: true)
      }
    let adj = lmkdAdjustments(PolicyHarness(device: phone, cast), nowMs: 60_000)
    // s0, the last to leave the screen, is the previous app; s1 ... s11 are services.
    #expect(adj[1] == 700)
    #expect(Array(adj[2...]) == [905, 915, 925, 935, 945, 955, 965, 975, 985, 995, 999])
  }

  /// Idle system processes hold no activity: empty processes, 905 and up; an active daemon is
  /// persistent (-800), never a victim, even when lmkd kills down to adj 0.
  @Test func emptyAndPersistentProcesses() {
    var device = phone
    device.systemProcesses = [
      SystemProcess(name: "sys.idle", kind: .idleDaemon, footprintKB: mb(20)),
      SystemProcess(name: "sys.persistent", kind: .activeDaemon, footprintKB: mb(40)),
    ]
    var harness = PolicyHarness(device: device, [apps[0], apps[5]])
    harness.addIdleSystemProcess(footprintMB: 20)
    harness.addIdleSystemProcess(footprintMB: 40)
    harness.apps[3].state = .background
    #expect(lmkdAdjustments(harness, nowMs: 100_000) == [0, 900, 905, -800])
    // Legacy mode at the lowest level (adj 0 and up): everyone but the persistent daemon.
    harness.apps[0].footprintKB = mb(1_500)
    harness.device.fileCache.freeTargetKB = 0
    let killed = harness.decisions(Self.legacy())
    #expect(
      killed == [
        "kill sys.idle (lmk-none)", "kill cached-new (lmk-none)", "kill screen (lmk-none)",
      ])
  }

  /// `mp_event_common` (line 3229): a level fires only when free memory (less the reserve) and the
  /// file cache are both below it. Free memory is at the free target (32 MB), below every level;
  /// with 368 MB of file cache no level fires; with 168 MB the 216 MB level (adj 900) does.
  @Test func legacyModeWithALargeFileCacheKillsNoOne() {
    var parameters = LmkdPolicy.Parameters()
    parameters.useMinfreeLevels = true
    var roomy = PolicyHarness(device: phone, apps)
    roomy.apps[0].footprintKB = mb(240)
    #expect(roomy.availableKB == mb(400))
    #expect(roomy.decisions(LmkdPolicy(parameters: parameters)).isEmpty)
    var tight = PolicyHarness(device: phone, apps)
    tight.apps[0].footprintKB = mb(440)
    #expect(tight.decisions(LmkdPolicy(parameters: parameters)) == ["kill cached-old (lmk-none)"])
  }
}
