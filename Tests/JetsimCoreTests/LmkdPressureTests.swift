import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// lmkd's PSI mode, situation by situation, against lmkd.cpp at AOSP platform/system/memory/lmkd
/// 767ae2336a12f0c474b19dbd86d5bd5164dbf912 (main, 2025-03-23; its kill-reason cascade is Android
/// 15 QPR1's, its PSI event filter and polling restart QPR2's). Line numbers are that file's.
///
/// The cast: F on screen (adj 0), P and P2 perceptible (200; 300 MB and 100 MB), V the previous app
/// (700), C1 and C2 cached (900 and 910). The device's zone watermarks are given (min 40, low 60,
/// high 80 MB) and its free target is the high watermark, so that with available memory A and a
/// file working set W: the file cache is A − 80 MB, the refaults W − cache each second, free pages
/// 80 MB less the refaults, thrashing the refaults over the cache (docs/policies.md).
@Suite struct LmkdPressureTests {
  static let watermarks = ZoneWatermarks(minKB: mb(40), lowKB: mb(60), highKB: mb(80))

  /// The cast, with the sizes of the cached and previous apps (small, so that one kill does not
  /// end the pressure) and of F.
  static func cast(smallMB: Int = 1, screenMB: Int = 100) -> [PolicyHarness.App] {
    [
      .init(id: "F", state: .active, footprintMB: screenMB, lastUsedMs: 90_000, enteredMs: 90_000),
      .init(
        id: "P", state: .background, footprintMB: 300, lastUsedMs: 50_000, modes: [.audio],
        enteredMs: 50_000),
      .init(
        id: "P2", state: .background, footprintMB: 100, lastUsedMs: 60_000, modes: [.location],
        enteredMs: 60_000),
      .init(
        id: "V", state: .suspended, footprintMB: smallMB, lastUsedMs: 80_000, enteredMs: 80_000,
        leftScreen: true),
      .init(id: "C1", state: .suspended, footprintMB: smallMB, lastUsedMs: 40_000),
      .init(id: "C2", state: .suspended, footprintMB: smallMB, lastUsedMs: 30_000),
    ]
  }

  /// A 4 GB device holding `apps` with `availableMB` available and a file working set of
  /// `workingSetMB` (refaults cost 4 ms a megabyte).
  static func harness(
    availableMB: Int, workingSetMB: Int, _ apps: [PolicyHarness.App] = cast(),
    swapMB: Int? = nil
  ) -> PolicyHarness {
    let held = apps.reduce(0) { $0 + $1.footprintMB }
    var device = DeviceProfile(
      name: "4 GB", memoryKB: mb(4096), reservedKB: mb(4096 - held - availableMB))
    device.fileCache = DeviceProfile.FileCache(
      freeTargetKB: mb(80), workingSetKB: mb(workingSetMB), refaultCostMs: 4)
    device.appSwap = swapMB.map { DeviceProfile.AppSwap(budgetKB: mb($0)) }
    var harness = PolicyHarness(device: device, apps)
    harness.nowMs = 100_000
    return harness
  }

  static func policy(_ change: (inout LmkdPolicy.Parameters) -> Void = { _ in }) -> LmkdPolicy {
    var parameters = LmkdPolicy.Parameters()
    parameters.watermarks = watermarks
    change(&parameters)
    return LmkdPolicy(parameters: parameters)
  }

  /// The kills `policy` makes at `harness.nowMs`, one evaluation after another, each victim
  /// removed before the next (lmkd waits for its death, then polls at once).
  static func kills(_ harness: inout PolicyHarness, _ policy: inout LmkdPolicy) -> [String] {
    var result: [String] = []
    while let eviction = policy.nextEviction(harness.view(seed: 1)), result.count < 10 {
      result.append("\(harness.profiles[eviction.app].id) \(eviction.reason)")
      harness.apps[eviction.app].state = .notRunning
      harness.apps[eviction.app].footprintKB = 0
      harness.apps[eviction.app].physicalKB = 0
      policy.appDidChange(eviction.app, harness.apps[eviction.app], nowMs: harness.nowMs)
    }
    return result
  }

  /// The kills `policy` makes over the `forMs` from `harness.nowMs`, memory changing only with
  /// its victims: lmkd is asked at once, and again each time it says (`reconsiderAtMs`: its PSI
  /// events and the polls that would read anything new). Each kill is given with its time from
  /// the start and the thrashing lmkd read.
  static func kills(_ harness: inout PolicyHarness, _ policy: inout LmkdPolicy, forMs: Int)
    -> [String]
  {
    let (start, end) = (harness.nowMs, harness.nowMs + forMs)
    var result: [String] = []
    while true {
      while let eviction = policy.nextEviction(harness.view(seed: 1)), result.count < 10 {
        let thrashing = eviction.lmkd?.thrashingPercent ?? -1
        result.append(
          "\(harness.profiles[eviction.app].id) \(eviction.reason) @\(harness.nowMs - start) "
            + "\(thrashing)%")
        harness.apps[eviction.app].state = .notRunning
        harness.apps[eviction.app].footprintKB = 0
        harness.apps[eviction.app].physicalKB = 0
        policy.appDidChange(eviction.app, harness.apps[eviction.app], nowMs: harness.nowMs)
      }
      guard let next = policy.reconsiderAtMs(harness.view(seed: 1)), next <= end else {
        return result
      }
      harness.nowMs = next
    }
  }

  static func kills(_ harness: PolicyHarness, _ policy: LmkdPolicy = policy()) -> [String] {
    var harness = harness
    var started = harness.started(policy)
    return kills(&harness, &started)
  }

  /// `LmkdMeminfo.==` is written out field by field (the synthesized one called `memcmp`): a
  /// reading that differs in any one stored figure is another reading, and a figure added to the
  /// type and left out of `==` fails here.
  @Test func readingsDifferInEveryFigure() throws {
    let reading = LmkdMeminfo(
      freeKB: 1, fileKB: 2, refaultKBPerSecond: 3, stallPermille: 4, fullStallPermille: 5,
      swapTotalKB: 6, swapFreeKB: 7, swappableKB: 8)
    let fields: [WritableKeyPath<LmkdMeminfo, Int>] = [
      \.freeKB, \.fileKB, \.refaultKBPerSecond, \.thrashingPercent, \.stallPermille,
      \.fullStallPermille, \.swapTotalKB, \.swapFreeKB, \.swapUsedKB, \.swappableKB,
    ]
    #expect(Mirror(reflecting: reading).children.count == fields.count)
    #expect(reading == reading)
    for field in fields {
      var other = reading
      other[keyPath: field] += 1
      #expect(other != reading)
    }
  }

  /// LOW_MEM (lines 3045–3049): free between the min and low watermarks, no thrashing, no swap: a
  /// medium PSI event kills at `lowmem_min_oom_score` (701) and above: C2, then C1 in the poll
  /// after its death; never V (700), P or F.
  @Test func lowMemoryKillsCachedProcessesOnly() {
    // A 250 MB: cache 170 MB, refaults 30 MB/s (stall 120 ‰ ≥ 70), free 50 MB, thrashing 17 %.
    let harness = Self.harness(availableMB: 250, workingSetMB: 200)
    #expect(Self.kills(harness) == ["C2 lmk-low-mem", "C1 lmk-low-mem"])
  }

  /// PRESSURE_AFTER_KILL (lines 2951–2958): the min watermark still breached in the evaluation after
  /// a kill: `pressure_after_kill_min_score` (0): C1, V, then P before P2 (the heavier at adj ≤ 200,
  /// `find_and_kill_process` line 2549), then F.
  @Test func pressureAfterAKillGoesDownToTheForeground() {
    // A 200 MB, W 1500 MB: free pages gone (refaults 1380 MB/s), thrashing 1150 % a second. The
    // first evaluation of the pressure reads the thrashing its window has grown to, none yet
    // (lines 2898–2905): LOW_MEM at 701 kills C2; the others follow the kill.
    let harness = Self.harness(availableMB: 200, workingSetMB: 1_500)
    #expect(
      Self.kills(harness) == [
        "C2 lmk-low-mem", "C1 lmk-pressure-after-kill", "V lmk-pressure-after-kill",
        "P lmk-pressure-after-kill", "P2 lmk-pressure-after-kill", "F lmk-pressure-after-kill",
      ])
  }

  /// NOT_RESPONDING (lines 2959–2969): a critical PSI event, even with free memory above the high
  /// watermark, kills at adj 0 and above: C2. The event comes once the full stall has lasted
  /// `psi_complete_stall_ms × 1000 / stall` (here 700 × 1000 / 800 = 875 ms).
  @Test func aCriticalEventKillsEvenAboveTheHighWatermark() {
    var harness = Self.harness(availableMB: 600, workingSetMB: 0)
    var policy = harness.started(Self.policy())
    let stalled = LmkdMeminfo(
      freeKB: mb(100), fileKB: mb(500), refaultKBPerSecond: mb(10), stallPermille: 900,
      fullStallPermille: 800)
    // The medium event at once: free above high, no thrashing: no reason holds.
    #expect(policy.evict(harness.view(seed: 1), stalled) == nil)
    harness.nowMs += 874
    #expect(policy.evict(harness.view(seed: 1), stalled) == nil)
    harness.nowMs += 1
    let eviction = policy.evict(harness.view(seed: 1), stalled)
    #expect(eviction?.app == 5 && eviction?.reason == .lmkNotResponding)
    // What lmkd logs with it (kills.csv's lmkd columns): minimum adj 0, thrashing 1 %.
    #expect(
      eviction?.lmkd == LmkdKillInfo(minScoreAdj: 0, thrashingPercent: 1, swapFreeKB: 0))
  }

  /// LOW_MEM_AND_THRASHING (lines 3001–3011, 3079–3085): below high with thrashing above the limit,
  /// perceptible apps spared (adj 201 and above) while thrashing is under `thrashing_limit_critical`;
  /// a thrashing kill cuts the limit by `thrashing_limit_decay` (10 %). The thrashing is what the
  /// window has refaulted so far (line 2900): the pressure's first evaluation reads none and kills
  /// C2 for LOW_MEM (701), the cycle after it, with a new baseline (lines 2815–2826), C1; V (700)
  /// dies at the poll where the refaults since pass the limit. The limit comes back at the first
  /// evaluation more than a window later (line 2897).
  @Test func thrashingGrowsInItsWindowAndAKillCutsTheLimit() {
    // A 105 MB, W 60 MB: cache 25 MB, refaults 35 MB/s, free 45 MB (below low).
    var harness = Self.harness(availableMB: 105, workingSetMB: 60)
    var policy = harness.started(Self.policy())
    // After C2 and C1: cache 27,648 KB, refaults 33,792 KB/s: over 100 % (27,926 KB) after 827 ms,
    // seen at the 900 ms poll (every 100 ms), reading 30,412 KB over 27,649 KB: 109 %.
    #expect(
      Self.kills(&harness, &policy, forMs: 900) == [
        "C2 lmk-low-mem @0 0%", "C1 lmk-low-mem @0 0%", "V lmk-low-mem-and-thrashing @900 109%",
      ])
    #expect(policy.thrashingLimit == 90)
    // Only adj 200 and below are left. The window that began with V's death carries its growth
    // over at the poll of 2,000 ms: the limit is 100 % again.
    harness.nowMs += 1_000
    #expect(policy.nextEviction(harness.view(seed: 1)) == nil)
    #expect(policy.thrashingLimit == 90)
    harness.nowMs += 100
    #expect(policy.nextEviction(harness.view(seed: 1)) == nil)
    #expect(policy.thrashingLimit == 100)
  }

  /// The growth a window carries over where the next begins (lines 2880–2896): with exactly one
  /// window passed, kept whole if it reached the limit in force, halved if not; with more, shifted
  /// right by the windows passed. A cache of 99,999 KB (+1: 100,000) makes 1,000 KB one percent.
  @Test(arguments: [
    // (refaults KB a second, ms after the window began, limit in force, thrashing read)
    (100_000, 1_001, 100, 100),  // one window, 100 % reached the limit: kept
    (90_000, 1_001, 100, 45),  // one window, 90 % under it: halved
    (90_000, 1_001, 90, 90),  // the same 90 % at a cut limit of 90: kept
    (100_000, 2_000, 100, 50),  // two windows: 200 % shifted by 2
    (100_000, 1_000, 100, 100),  // not past the window yet: its refaults, no window begins
  ])
  func aWindowCarriesItsGrowthOver(rate: Int, afterMs: Int, limit: Int, thrashing: Int) {
    var pressure = LmkdPressure(
      parameters: LmkdPolicy.Parameters(), watermarks: Self.watermarks, fileKB: 99_999, nowMs: 0)
    pressure.refaults.advance(to: 0, kbPerSecond: rate)
    pressure.thrashingLimit = limit
    let reading = pressure.thrashingReading(nowMs: afterMs)
    #expect(reading.thrashing == thrashing)
    #expect((reading.carried != nil) == (afterMs > 1_000))
  }

  /// Thrashing at or above `thrashing_limit_critical` (3 × the limit, line 4162) lowers the minimum
  /// adj to 0 (lines 3008–3010): with no cached or previous app, the heavier perceptible app dies
  /// at the poll where the window's refaults reach it. With the limit at 200 % (critical 600 %), a
  /// window reaches only 499 %; the evaluation that begins the next carries its growth over whole,
  /// as it passed the limit (lines 2888–2893), and the new window's refaults add to it.
  @Test func criticalThrashingReachesPerceptibleApps() {
    // A 90 MB, W 60 MB: cache 10,240 KB, refaults 51,200 KB/s: 499 % a window. Polls at 300 ms
    // (149 %, over the limit: adj 201 and above, no one) and 700 ms (349 %, over 300 %).
    let apps = Array(Self.cast()[0..<3])
    var harness = Self.harness(availableMB: 90, workingSetMB: 60, apps)
    var policy = harness.started(Self.policy())
    #expect(
      Self.kills(&harness, &policy, forMs: 5_000) == ["P lmk-low-mem-and-thrashing @700 349%"])
    // Limit 200 %: 249 % at 500 ms spares P; at 1,100 ms a window begins carrying 1,100 ms of
    // refaults (549 %); 100 ms later it reads 648 % at the 1,300 ms poll (1,200 ms is 2 ms short).
    harness = Self.harness(availableMB: 90, workingSetMB: 60, apps)
    policy = harness.started(Self.policy { $0.thrashingLimit = 200 })
    #expect(
      Self.kills(&harness, &policy, forMs: 5_000) == ["P lmk-low-mem-and-thrashing @1300 648%"])
  }

  /// Swap low by `easy_available` (`get_free_swap`, line 2001): 2 GB of zram, all of it free, but
  /// free pages and the file cache (140 MB) are under 10 % of it: LOW_MEM_AND_SWAP (lines
  /// 2981–2990), adj 201 and above while above min: C2, C1, V. With 1 GB of zram, 140 MB is not
  /// under 10 %: LOW_MEM, cached only.
  @Test func swapIsLowByEasilyAvailableMemory() {
    // A 140 MB, W 90 MB: cache 60 MB, refaults 30 MB/s (stall 120 ‰), free 50 MB, thrashing 49 %.
    #expect(
      Self.kills(Self.harness(availableMB: 140, workingSetMB: 90, swapMB: 2_048)) == [
        "C2 lmk-low-mem-and-swap", "C1 lmk-low-mem-and-swap", "V lmk-low-mem-and-swap",
      ])
    #expect(
      Self.kills(Self.harness(availableMB: 140, workingSetMB: 90, swapMB: 1_024)) == [
        "C2 lmk-low-mem", "C1 lmk-low-mem",
      ])
  }

  /// No PSI event, no reclaim, no refaults: lmkd does not even wake. Woken by a critical event with
  /// free memory above the low watermark (no reclaim) and no refault, it "bails out early" (lines
  /// 2855–2862) before NOT_RESPONDING; with refaults, NOT_RESPONDING kills C2. LOW_MEM needs the
  /// low watermark breached (`wmark < WMARK_HIGH`, line 3045): free between low and high is not.
  @Test func noPressureNoReclaimNoRefaultsNoKill() {
    #expect(Self.kills(Self.harness(availableMB: 100, workingSetMB: 0)).isEmpty)
    let harness = Self.harness(availableMB: 600, workingSetMB: 0)
    func critical(refaultKB: Int) -> Eviction? {
      var policy = harness.started(Self.policy())
      var later = harness
      let reading = LmkdMeminfo(
        freeKB: mb(70), fileKB: mb(500), refaultKBPerSecond: refaultKB, stallPermille: 1000,
        fullStallPermille: 1000)
      _ = policy.evict(later.view(seed: 1), reading)
      later.nowMs += 700
      return policy.evict(later.view(seed: 1), reading)
    }
    #expect(critical(refaultKB: 0) == nil)
    let killed = critical(refaultKB: mb(1))
    #expect(killed?.app == 5 && killed?.reason == .lmkNotResponding)
  }

  /// Two processes at one adj: the one that got it first (the tail of lmkd's list,
  /// `proc_adj_tail`, line 2212; `register_oom_adj_proc` puts a process at the head when its adj
  /// changes, line 1224), whatever their sizes; with `kill_heaviest_task`, the heavier.
  @Test func ofTwoAtOneAdjTheOneThatGotItFirst() {
    // Four started services: S1 and S2, the least recently used, at 800 (service B), S1 since
    // 2 s and S2 since 4 s; S3 and S4 at 500.
    let pair: [PolicyHarness.App] = [
      .init(id: "F", state: .active, footprintMB: 100, enteredMs: 90_000),
      PolicyHarness.woken("S1", footprintMB: 50, atMs: 1_000),
      PolicyHarness.woken("S2", footprintMB: 300, atMs: 2_000),
      PolicyHarness.woken("S3", footprintMB: 20, atMs: 3_000),
      PolicyHarness.woken("S4", footprintMB: 20, atMs: 4_000),
    ]
    // The first evaluation (0 ms) goes down the cascade to `lmk-low-mem` (701 and above), which
    // finds S1 and S2 at 800. (Before service B, two services were both at 500: it found no one,
    // and the thrashing kill came at the 300 ms poll.)
    func first(_ policy: LmkdPolicy) -> String? {
      var harness = Self.harness(availableMB: 90, workingSetMB: 60, pair)
      var started = harness.started(policy)
      return Self.kills(&harness, &started, forMs: 1_000).first
    }
    #expect(first(Self.policy()) == "S1 lmk-low-mem @0 0%")
    #expect(first(Self.policy { $0.killHeaviest = true }) == "S2 lmk-low-mem @0 0%")
  }

  /// tests/lmkd_test.cpp: `runMemStressTest` (lines 213–293) starts a process at each adj from 1000
  /// down to 0 that allocates 1 MB every millisecond (`ALLOC_STEP`, `usleep(ALLOC_DELAY)` of 1000
  /// µs, `add_pressure`, line 191) until it is killed, and `TEST(lmkd, check_for_oom)` expects
  /// every one killed by lmkd (line 353) and no kernel OOM kill (line 363). jetsim's adj are 0, 200,
  /// 500, 700 and 900: each process, beside the app on screen, is killed with an lmkd reason before
  /// available memory runs out. As on the device, the process allocates only while it is not
  /// stalled: each millisecond 1 MB times the share of the time the reading's memory stall leaves
  /// it (refaults, then direct reclaim, which stalls all the time at no free page). In a run, a
  /// process whose allocation waits is never the victim (docs/policies.md), so the adj-0 case,
  /// alone on screen, would end in `vm-pageshortage` there.
  @Test(arguments: ["cached", "previous", "service", "perceptible", "on screen"])
  func everyAdjIsKilledBeforeMemoryRunsOut(name: String) {
    var grower = PolicyHarness.App(id: "grower", state: .suspended, footprintMB: 100)
    switch name {
    // Suspended as the harness's clock starts: the previous app for 60 s (the loop's limit).
    case "previous": (grower.leftScreen, grower.enteredMs) = (true, 100_000)
    case "service": (grower.state, grower.working) = (.background, true)
    case "perceptible": (grower.state, grower.modes) = (.background, [.audio])
    case "on screen": grower.state = .active
    default: break
    }
    var apps = [grower]
    if name != "on screen" { apps.append(.init(id: "screen", state: .active, footprintMB: 100)) }
    var harness = Self.harness(availableMB: 600, workingSetMB: 400, apps)
    var policy = harness.started(LmkdPolicy())
    let start = harness.nowMs
    var killed: Eviction?
    while killed == nil, harness.availableKB > 0, harness.nowMs < start + 60_000 {
      let reading = LmkdMeminfo(harness.view(seed: 1).memory, watermarks: policy.zoneWatermarks)
      harness.nowMs += 1
      let grown = mb(1) * (1000 - reading.stallPermille) / 1000
      if grown > 0 {
        harness.apps[0].footprintKB += grown
        harness.apps[0].physicalKB = harness.apps[0].footprintKB
        policy.appDidChange(0, harness.apps[0], nowMs: harness.nowMs)
      }
      killed = policy.nextEviction(harness.view(seed: 1))
    }
    #expect(killed?.app == 0, "\(name): killed \(String(describing: killed))")
    #expect(harness.availableKB > 0)
    // The cached process dies for LOW_MEM once free pages are below low. Any other grows until
    // the stall stops it (free pages gone, direct reclaim all the time), then dies at adj 0 when
    // the full stall has lasted long enough for a critical PSI event: lmkd's own thrashing (the
    // cache refaults about 25 % a second) never passes the limit.
    #expect(killed?.reason == (name == "cached" ? .lmkLowMem : .lmkNotResponding))
  }
}

/// A stall nothing can relieve: lmkd's PSI events come every second for as long as it lasts, and
/// each evaluation finds no victim. jetsim leaves those repeats out of its schedule and accounts
/// for them at lmkd's next wake-up (`LmkdPressure.catchUp`); these tests hold that shortcut to
/// the schedule that wakes lmkd at every event.
@Suite struct LmkdQuietStallTests {
  /// Seeded random workloads of the invariant sweep, in PSI mode.
  static func run(seed: Int, endMs: Int?, everyEvent: Bool, stuckAfterMs: Int = 0) throws -> (
    EventLog, RunSummary
  ) {
    var scenario = InvariantTests.scenario(seed: seed, policy: "lmkd")
    scenario.policySettings = PolicySettings([:])
    scenario.durationMs = endMs
    var parameters = LmkdPolicy.Parameters()
    parameters.directReclaimThresholdMs = stuckAfterMs
    var policy = LmkdPolicy(parameters: parameters)
    policy.leavesOutQuietEvents = !everyEvent
    var workload = RandomWorkload(seed: UInt64(seed), apps: InvariantTests.apps, count: 300)
    var log = EventLog()
    let summary = try Simulator.run(
      scenario, policy: policy, workload: &workload, observer: &log)
    return (log, summary)
  }

  /// A stall whose thrashing passes the limit only at the last polls of some windows: the
  /// evaluations alternate between LOW_MEM (701) and thrashing (201), and neither finds a victim
  /// (F at 0, P at 200). The look-ahead sees that no lower adj comes and the repeats are left out:
  /// lmkd stops waking within a minute, where a settling rule that also asked the file-cache check
  /// not to change between two evaluations woke it about 1,600 times in 600 s.
  @Test func aStallWhoseThrashingComesAndGoesGoesQuiet() {
    var harness = LmkdPressureTests.harness(
      availableMB: 116, workingSetMB: 60, Array(LmkdPressureTests.cast()[0..<2]))
    var policy = harness.started(LmkdPressureTests.policy())
    let start = harness.nowMs
    var wakes = 0
    #expect(policy.nextEviction(harness.view(seed: 1)) == nil)
    while let next = policy.reconsiderAtMs(harness.view(seed: 1)), next < start + 600_000 {
      (harness.nowMs, wakes) = (next, wakes + 1)
      #expect(policy.nextEviction(harness.view(seed: 1)) == nil)
    }
    #expect(wakes > 0)
    #expect(
      harness.nowMs < start + 60_000, "\(wakes) wake-ups, the last at \(harness.nowMs - start) ms")
  }

  /// Seed 110 ends in a stall no kill relieves (every process left is above the minimum adj): with
  /// no end time, the run ends when the workload does, instead of waking lmkd every second for
  /// ever.
  @Test func aRunWithNoEndTimeEndsThoughTheStallNeverDoes() throws {
    let (log, summary) = try Self.run(seed: 110, endMs: nil, everyEvent: false)
    let lastStep = try #require(log.events.last?.timeMs)
    #expect(summary.metrics.durationMs <= lastStep + 60_000)
    #expect(log.kills.contains { $0.reason.isLmk })
  }

  /// Leaving the repeats out changes no row: each seed's event log, up to an hour after its
  /// workload, is the same as with an evaluation at every PSI event.
  @Test(arguments: Array(0..<40))
  func leavingOutTheRepeatsChangesNoRow(seed: Int) throws {
    let (_, summary) = try Self.run(seed: seed, endMs: nil, everyEvent: false)
    let endMs = summary.metrics.durationMs + 3_600_000
    let (shortcut, _) = try Self.run(seed: seed, endMs: endMs, everyEvent: false)
    let (reference, _) = try Self.run(seed: seed, endMs: endMs, everyEvent: true)
    let firstDifference = zip(shortcut.events, reference.events).first { $0 != $1 }
    #expect(
      shortcut.events == reference.events,
      "first difference: \(String(describing: firstDifference))")
  }

  /// The same with DIRECT_RECL_STUCK on (`direct_reclaim_threshold_ms` 300): a direct reclaim
  /// that becomes stuck while memory stays as it is is found by the poll after the threshold,
  /// with or without the repeats left out.
  @Test(arguments: Array(0..<20))
  func leavingOutTheRepeatsChangesNoRowWithStuckReclaim(seed: Int) throws {
    let (_, summary) = try Self.run(seed: seed, endMs: nil, everyEvent: false, stuckAfterMs: 300)
    let endMs = summary.metrics.durationMs + 3_600_000
    let (shortcut, _) = try Self.run(
      seed: seed, endMs: endMs, everyEvent: false, stuckAfterMs: 300)
    let (reference, _) = try Self.run(
      seed: seed, endMs: endMs, everyEvent: true, stuckAfterMs: 300)
    let firstDifference = zip(shortcut.events, reference.events).first { $0 != $1 }
    #expect(
      shortcut.events == reference.events,
      "first difference: \(String(describing: firstDifference))")
  }
}
