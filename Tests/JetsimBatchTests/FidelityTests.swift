import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

/// The cases where jetsim 0.1 decided otherwise than the kernels its policies name (the scenarios
/// of Tests/JetsimBatchTests/Fidelity, each with the outcome the rule gives; docs/policies.md).
@Suite struct FidelityTests {
  func run(_ name: String) throws -> RunResult {
    try Simulator.run(
      ProfileLoader.scenario(at: packagePath("Tests/JetsimBatchTests/Fidelity/\(name).json")))
  }

  func kills(_ result: RunResult) -> [String] {
    result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" }
  }

  @Test func jetsamKillsTheOldestEntrantOfTheIdleBand() throws {
    // B entered IDLE (suspended at 25 s, aged 2 s) before A (suspended at 35 s after its task).
    #expect(try kills(run("jetsam-band-order")) == ["repro.b idle-exit @60000"])
  }

  @Test func jetsamDoesHighWatermarkKillsFirst() throws {
    // Below the pressure level XNU kills processes over their soft limit before the top process: H
    // alone, and S survives.
    #expect(try kills(run("jetsam-tier-order")) == ["repro.h highwater @30000"])
  }

  @Test func jetsamTiersFallThrough() throws {
    #expect(try kills(run("jetsam-tier-fallthrough")) == ["repro.h highwater @10000"])
  }

  @Test func jetsamChecksTheAudioBandAgainstSoftLimits() throws {
    #expect(try kills(run("jetsam-highwater-audio")) == ["repro.h highwater @10000"])
  }

  @Test func aKillByATimerRegistersTheLevelAndWarnsAgain() throws {
    let result = try run("watchdog-level-not-updated")
    // The watchdog kill at 15 s brings the level back to normal (a pressure row)...
    let atWatchdog = result.events.filter { $0.timeMs == 15_000 }
    #expect(atWatchdog.map(\.kind) == [.kill, .pressure])
    #expect(atWatchdog.last?.pressure == .normal)
    // ...so B's allocation at 30 s enters warning again, and B gets didReceiveMemoryWarning.
    #expect(result.warned(atMs: 30_000) == ["repro.b"])
  }

  @Test func jetsamDecidesAfterAKillByATimer() throws {
    // A is in IDLE (suspended at 3 s, aged until 5 s) with free memory below the idle critical
    // level: it dies, as XNU would kill it when it enters IDLE (docs/policies.md).
    #expect(
      try kills(run("jetsam-no-decision-after-watchdog")).first == "repro.a idle-exit @5000")
  }

  @Test func lmkdsPreviousAppIsClearedWhenItComesBack() throws {
    // X -> Y -> A -> home -> A: the previous app was A, now on screen; X (910) then Y (900) die
    // (legacy minfree mode, as the case was written; lmkd logs no kill reason there).
    #expect(
      try kills(run("lmkd-previous-app")) == [
        "repro.x lmk-none @50000", "repro.y lmk-none @50000",
      ])
  }

  @Test func oomBadnessUsesThePreviousAppOfAndroid() throws {
    #expect(try kills(run("oom-badness-previous-app")) == ["repro.y vm-pageshortage @50000"])
  }

  @Test func ofTwoAppsLeavingInOneMillisecondTheLaterIsThePrevious() throws {
    #expect(
      try kills(run("oom-badness-previous-app-same-ms")) == ["repro.x vm-pageshortage @30000"])
  }

  // MARK: - Round 3: cases of the third round of checks against the kernels (Fidelity/3-*.json)

  /// §5: once landed, the allocating app is an ordinary candidate, in the same instant. The only
  /// app launches at 401,071 ms and leaves free memory below critical: it dies there, on screen.
  @Test func aLandedAllocationIsNoLongerExempt() throws {
    let result = try run("3-allocating-app-not-exempt-after-landing")
    #expect(kills(result) == ["io.xgvelr.7h8oc7i vm-pageshortage @401071"])
    #expect(result.kills.first?.state == .active && result.kills.first?.pendingKB == 0)
  }

  /// The same under lmkd: the app woken into the background (adj 500) below minfree dies in the
  /// instant of its wake, not a second later once it suspends.
  @Test func lmkdKillsALandedAllocationInItsInstant() throws {
    let result = try run("3-lmkd-allocating-app-not-exempt-after-landing")
    #expect(kills(result) == ["org.uy.bq5 lmk-none @6664991"])
    #expect(result.kills.first?.state == .background)
  }

  /// An app launched straight into the background over its soft limit, free below the pressure
  /// level: `highwater` (the audio one too, in the AUDIO band).
  @Test(arguments: [
    ("3-jetsam-background-launch-over-soft-limit-audio", "io.ufbp.yeoq5mw highwater @1189771"),
    ("3-jetsam-background-launch-over-soft-limit-tiers", "org.ukwun.oaqc18l highwater @11678545"),
  ])
  func aBackgroundLaunchOverItsSoftLimitIsHighwaterKilled(name: String, kill: String) throws {
    let result = try run(name)
    #expect(kills(result) == [kill])
    #expect(result.kills.first?.state == .background, "killed as it landed, not once suspended")
  }

  /// The woken app (546 MB, soft limit 279 MB) is exempt only while its memory waits: jetsam makes
  /// room in IDLE (the idle kill, then the reaper's sweep below 18 % of memory), and once it lands
  /// free memory is above the pressure level, so its soft limit is not enforced.
  @Test func aWakeOverItsSoftLimitIsCheckedOnceItLands() throws {
    let result = try run("3-jetsam-background-launch-over-soft-limit")
    #expect(
      kills(result) == [
        "net.cc.dbpqr5e idle-exit @2611957", "net.wpeb.tp0o long-idle-exit @2611957",
        "com.agiv.cjo3yngx long-idle-exit @2611957",
      ])
    let last = try #require(result.events.last)
    let device = try ProfileLoader.scenario(
      at: packagePath(
        "Tests/JetsimBatchTests/Fidelity/3-jetsam-background-launch-over-soft-limit.json")
    ).device
    #expect(last.availableKB >= device.warningThresholdKB)
  }

  /// 50 % of a 716 MB limit is 366,592 KB exactly: a process at it is not over it.
  @Test func aProcessAtItsSoftLimitIsNotOverIt() throws {
    #expect(try run("3-jetsam-soft-limit-rounding").kills.isEmpty)
  }

  /// xnu-11417: the idle level derives from a critical level given alone (9/4 of it in the
  /// (3,6] GB class), never below it, and nothing caps it at the pressure level.
  @Test func theIdleLevelFollowsTheCriticalLevelAndIsNotCapped() throws {
    let fromCritical = try ProfileLoader.scenario(
      at: packagePath("Tests/JetsimBatchTests/Fidelity/3-jetsam-idle-level-from-critical.json"))
    #expect(fromCritical.device.idleThresholdKB == 688 * 1024 * 9 / 4)
    let notCapped = try ProfileLoader.scenario(
      at: packagePath(
        "Tests/JetsimBatchTests/Fidelity/3-jetsam-idle-level-not-capped-by-warning.json"))
    // 5,432 MB: the (3,6] class, idle 9 % of memory, above the 436 MB pressure level given.
    #expect(notCapped.device.idleThresholdKB == 5432 * 1024 * 9 / 100)
    #expect(notCapped.device.idleThresholdKB > notCapped.device.warningThresholdKB)
    #expect(JetsamPolicy().idleCriticalKB(notCapped.device) == notCapped.device.idleThresholdKB)
    // Under it, with anyone in IDLE, the head of IDLE dies at 5,701,991 ms.
    #expect(
      try kills(run("3-jetsam-idle-level-not-capped-by-warning")).first
        == "com.tgxmbj.ccabr0vd idle-exit @5701991")
  }
}

/// Round 4: cases written from the kernels' rules against jetsim 0.3.
@Suite struct FidelityRound4Tests {
  func run(_ name: String) throws -> RunResult { try FidelityTests().run(name) }
  func kills(_ result: RunResult) -> [String] { FidelityTests().kills(result) }

  /// Daemons with a relaunch delay of 0, killed to make room for each other: under every policy
  /// the run reaches its end, each relaunch at least 1 ms after its kill. The runs of lru (whose
  /// daemons start killing each other at 543.6 s) and lmkd (at 277.6 s) are cut a few seconds
  /// after that, to keep the test short; the hang came at the first such kill.
  @Test(arguments: [
    ("lru", 545_000), ("lmkd", 280_000), ("jetsam", 600_000), ("largest-first", 600_000),
    ("oom-badness", 600_000),
  ])
  func daemonsRelaunchedAtOnceLetTheRunFinish(policy: String, durationMs: Int) throws {
    var scenario = try ProfileLoader.scenario(
      at: packagePath(
        "Tests/JetsimBatchTests/Fidelity/4-daemons-relaunched-at-once-run-finishes.json"))
    scenario.policy = try PolicyName(policy)
    scenario.durationMs = durationMs
    let result = try Simulator.run(scenario)
    #expect(result.summary.metrics.durationMs == durationMs)
    var killedAt: [Int: Int] = [:]
    for event in result.events {
      if event.kind == .kill { killedAt[event.app] = event.timeMs }
      if event.kind == .relaunch, let kill = killedAt[event.app] {
        #expect(event.timeMs > kill, "a relaunch in the instant of its kill")
      }
    }
  }

  /// A snapshot's entry in IDLE without a band was in IDLE before time 0: it takes its place in
  /// the list order of the snapshot, with no aging starting at time 0; t.a, listed first, is the
  /// head of IDLE and dies first, in band 0.
  @Test func aSnapshotEntryWithoutABandIsInIdleAtTimeZero() throws {
    let result = try Simulator.run(
      ProfileLoader.scenario(
        at: packagePath("Tests/JetsimBatchTests/Fidelity/4-jetsam-snapshot-entry-without-band.json")
      ))
    let first = try #require(result.kills.first)
    #expect(result.summary.appIDs[first.app] == "t.a")
    #expect(first.band == 0)
  }

  /// Fidelity/4-lmkd-cached-slots.json in legacy minfree mode, as the case was written:
  /// OomAdjuster spreads the cached apps 900, 910, ... (`assignCachedAdjIfNecessary`). When a9
  /// opens at 80 s its launch leaves 268 MB available, a file cache of 236 MB (above the free
  /// target, 32 MB): below minfree[5] (315 MB, adj 950): a1, at 960, dies. At 100 s a9's 40 MB
  /// leave a cache of 236 MB again: a2, now at 950 (six cached apps), dies (lmkd.cpp
  /// `mp_event_common`, line 3229, at AOSP platform/system/memory/lmkd 767ae23).
  @Test func lmkdSpreadsCachedAppsInSlots() throws {
    #expect(try kills(run("4-lmkd-cached-slots")) == ["a1 lmk-none @80000", "a2 lmk-none @100000"])
  }

  /// Fidelity/4-lmkd-previous-expires.json in legacy minfree mode: Y, the previous app,
  /// is cached 60 s after it left the screen (`MAX_PREVIOUS_TIME`); at 200 s x (910) then Y (900)
  /// die.
  @Test func lmkdsPreviousAppExpires() throws {
    #expect(
      try kills(run("4-lmkd-previous-expires")) == ["x lmk-none @200000", "y lmk-none @200000"])
  }

  /// The same case in PSI mode (the default), on its device with no file working set given (a
  /// tenth of memory, 819 MB, against 600 MB available): the device thrashes from the first
  /// launch; each PSI event ends with a kill, the app on screen included when alone (adj 0 at
  /// critical thrashing, lmkd.cpp lines 3008–3010), each reason lmkd's.
  @Test func lmkdInPSIModeNamesItsReasons() throws {
    var scenario = try ProfileLoader.scenario(
      at: packagePath("Tests/JetsimBatchTests/Fidelity/4-lmkd-previous-expires.json"))
    scenario.policySettings = PolicySettings()
    let result = try Simulator.run(scenario)
    #expect(!result.kills.isEmpty)
    #expect(result.kills.allSatisfy { $0.reason.isLmk && $0.reason != .lmkNone })
  }

  // MARK: - Round 5: jetsam read again against xnu-11417 (Fidelity/5-*.json)

  /// A reaper sweep, once started below the reaper level, takes every reapable process in its
  /// instant whatever the memory (`memorystatus_pick_action`, kern_memorystatus_policy.c:219).
  @Test func aReaperSweepGoesOnWhateverTheMemory() throws {
    let result = try run("5-jetsam-reaper-sweep-goes-on")
    #expect(kills(result) == ["a long-idle-exit @300000", "b long-idle-exit @300000"])
  }

  /// A reaper attempt that finds no one costs a period, as a sweep does: below the reaper level
  /// from the start, the attempts come at 0, 300 and 600 s, and the app in IDLE since 107 s dies
  /// at the third, not when it reaches the reaper's age (407 s).
  @Test func aReaperAttemptThatFindsNoOneCostsAPeriod() throws {
    let result = try run("7-jetsam-reaper-attempt-costs-a-period")
    #expect(result.events.contains { $0.kind == .suspend && $0.timeMs == 105_000 })
    #expect(kills(result) == ["A long-idle-exit @600000"])
  }

  /// A sweep starts below the reaper level though the system is not healthy, and goes on once it
  /// is: the top process's kill first, then the sweep's.
  @Test func aSweepStartedBelowCriticalGoesOnAfterTheRecovery() throws {
    let result = try run("7-jetsam-sweep-goes-on-after-recovery")
    #expect(
      kills(result) == [
        "A vm-pageshortage @600000", "B long-idle-exit @600000", "C long-idle-exit @600000",
      ])
  }

  /// The daemons' aging band is demoted from its head: D2, whose 2 s ended at 13 s, waits behind
  /// D1 (10 s, until 20 s), and D1 enters IDLE first.
  @Test func theAgingBandIsDemotedInListOrder() throws {
    let result = try run("7-jetsam-aging-band-in-list-order")
    #expect(kills(result) == ["D1 idle-exit @20000"])
  }

  /// Aggressive jetsam's visit of band 40 takes only pinned processes (none here): the march
  /// takes the IDLE band's daemons first, then the app in band 40.
  @Test func aggressiveJetsamPassesOverAnAppItDoesNotPin() throws {
    let result = try run("5-jetsam-aggressive-unpinned-elevated")
    #expect(
      kills(result)
        == ["d1", "d2", "d3", "d4", "d5", "d6", "nav"].map { "\($0) proc-thrashing @20000" })
  }

  /// A purge that leaves available memory below the pressure level is followed by its victim's
  /// kill (`memorystatus_kill_proc`, kern_memorystatus.c:6311).
  @Test func aPurgeThatIsNotEnoughIsFollowedByTheKill() throws {
    let result = try run("5-jetsam-purge-not-enough")
    #expect(kills(result) == ["repro.f vm-pageshortage @20000"])
    #expect(result.events.contains { $0.kind == .purge && $0.app == 1 && $0.timeMs == 20000 })
  }

  /// lmkd with ActivityManager: an expired previous app is "previous-expired", at the fixed adj 900
  /// with the state LAST_ACTIVITY (OomAdjuster `computeOomAdjLSP`), not a cached app: it does not
  /// count toward the cached limit of the trim, nor take a cached slot.
  @Test(arguments: [
    "5-lmkd-previous-expired-not-trimmed", "5-lmkd-previous-expired-outside-slots",
  ])
  func anExpiredPreviousAppIsNotCached(name: String) throws {
    #expect(try kills(run(name)) == [])
  }

  /// lmkd's thrashing is what its window has refaulted so far (`__mp_event_psi`, lmkd.cpp lines
  /// 2878–2905). The first evaluation of the pressure begins a window carrying over the growth of
  /// the one before, none, and each cycle after a kill takes a new refault baseline (lines
  /// 2815–2826): all four cached apps die in the instant for LOW_MEM at 701, reading 0 %.
  @Test func theCycleAfterAKillReadsNoThrashing() throws {
    let result = try run("5-lmkd-thrashing-after-kill-reads-none")
    #expect(result.kills.map { result.summary.appIDs[$0.app] } == ["c1", "c2", "c3", "c4"])
    #expect(result.kills.allSatisfy { $0.reason == .lmkLowMem && $0.timeMs == 40_000 })
    #expect(result.kills.map { $0.lmkd?.minScoreAdj } == [701, 701, 701, 701])
    #expect(result.kills.map { $0.lmkd?.thrashingPercent } == [0, 0, 0, 0])
  }

  /// After a kill, the previous app (700, out of LOW_MEM's reach) dies for thrashing only at the
  /// first poll, 100 ms apart, at which the refaults since the kill pass the limit, reading about
  /// that much (102 % at 40.5 s), not a whole window's 240 %. The window after that kill is
  /// carried over whole where it crosses (its growth passed the limit, lines 2888–2893), so the
  /// thrashing goes on growing past 3 × the limit: f, on screen, dies at adj 0.
  @Test func aSecondThrashingKillWaitsForThePollThatPassesTheLimit() throws {
    let result = try run("5-lmkd-thrashing-after-kill-waits-for-a-poll")
    #expect(
      kills(result) == [
        "c1 lmk-low-mem @40000", "v lmk-low-mem-and-thrashing @40500",
        "f lmk-low-mem-and-thrashing @42300",
      ])
    #expect(result.kills.map { $0.lmkd?.thrashingPercent } == [0, 102, 314])
    #expect(result.kills.map { $0.lmkd?.minScoreAdj } == [701, 201, 0])
  }

  /// A kill that leaves memory out of lmkd's range: its cycle after, which jetsim does not ask
  /// for, set the polling interval back to 100 ms (lines 3108–3113), so the allocation 30 ms later
  /// is seen at the poll of 100 ms.
  @Test func aPollAfterAnUnseenCycleAfterAKillKeeps100ms() throws {
    let result = try run("5-lmkd-poll-interval-after-an-unseen-cycle")
    #expect(kills(result).prefix(2) == ["c1 lmk-low-mem @40000", "c2 lmk-low-mem @40100"])
  }

  /// lmkd polls every 100 ms from its last evaluation (`mainloop`, lines 3975–3986): an
  /// allocation between two polls is seen at the next, and the grid stays, so the previous app
  /// dies at the 500 ms poll after the kill, reading 104 %, where polls from the allocation would
  /// have killed it at 40.55 s.
  @Test func aChangeBetweenPollsIsSeenAtTheNextPoll() throws {
    let result = try run("5-lmkd-polls-keep-their-grid")
    #expect(
      kills(result).prefix(2) == ["c1 lmk-low-mem @40000", "v lmk-low-mem-and-thrashing @40500"])
    #expect(result.kills.dropFirst().first?.lmkd?.thrashingPercent == 104)
  }

  // MARK: - Round 5: oom-badness read against Linux 6.12's mm/oom_kill.c

  /// Linux 6.12 (`select_bad_process`, `oom_evaluate_task`): of equal badness, the process started
  /// last; total pages count swap (`constrained_alloc`); `adj *= totalpages / 1000`, the division
  /// first. Each case's first victim is the kernel's (the later kills depend on when the killer
  /// runs, a known difference).
  @Test(arguments: [
    ("5-oom-badness-tie-goes-to-the-newest", "zeta.player"),
    ("5-oom-badness-total-pages-count-swap", "repro.x"),
    ("5-oom-badness-adj-times-whole-units", "p.previous"),
  ])
  func oomBadnessScoresAsLinux(name: String, first: String) throws {
    let result = try run(name)
    #expect(result.kills.first.map { result.summary.appIDs[$0.app] } == first)
  }

  // MARK: - Round 6: ActivityManager's service B (Fidelity/6-*.json)

  /// Of three woken apps (started services in processes that showed no UI) the least recently
  /// woken is at SERVICE_B_ADJ, 800 (OomAdjuster `computeOomAdjLSP`, lines 2452–2491), where
  /// LOW_MEM (701) reaches it: the first kill is Android's rule. Without service B, no process is
  /// at 701 or above at 40 s, and LOW_MEM kills no one. The second is jetsim's approximation:
  /// each change of a process is a full update with the count after it, so once w1 is dead one of
  /// the two left goes to 800 at once (ActivityManager keeps w2 at 500 until a full update counts
  /// the two). The last, alone at 500, dies only when thrashing lowers the minimum to 201.
  @Test func lowMemKillsTheStartedServicesPastTheFirstThird() throws {
    let result = try run("6-lmkd-service-b")
    #expect(result.kills.map { result.summary.appIDs[$0.app] } == ["w1", "w2", "w3"])
    #expect(result.kills.prefix(2).allSatisfy { $0.reason == .lmkLowMem && $0.timeMs == 40_000 })
    #expect(result.kills.map { $0.lmkd?.minScoreAdj } == [701, 701, 201])
    #expect(result.kills.last?.reason == .lmkLowMemAndThrashing)
  }

  /// An app woken into the background that has never been on screen is an empty process once its
  /// work is over (OomAdjuster "cch-empty"): at 905 it dies before the cached app at 900, though
  /// it was used more recently; the previous app (700) is out of LOW_MEM's reach.
  @Test func aWokenAppWhoseWorkIsOverDiesOnTheEmptyLadder() throws {
    let result = try run("8-lmkd-woken-app-is-empty")
    let lowMem = result.kills.filter { $0.timeMs == 30_000 }
    #expect(lowMem.map { result.summary.appIDs[$0.app] } == ["w", "a"])
    #expect(lowMem.allSatisfy { $0.reason == .lmkLowMem && $0.lmkd?.minScoreAdj == 701 })
  }

  /// Inside a shared cached slot lmkd kills the process registered at that adj longest ago
  /// (`proc_adj_tail`), and ActivityManager registers a process again each time the ladder moves
  /// it, most recent first: a21's suspension at 27 s makes three to a slot and moves a3, a2 and a1
  /// to 960 in that order, so a3 dies first; each death re-slots the rest (two to a slot), and the next
  /// tails are a2 at 990, then a1, then a5 at 980. The least recently used first would kill a1,
  /// a2, a3, a4.
  @Test func insideASlotTheProcessRegisteredThereFirstDies() throws {
    let result = try run("9-lmkd-slot-order-is-registration-order")
    #expect(result.kills.map { result.summary.appIDs[$0.app] } == ["a3", "a2", "a1", "a5"])
    #expect(result.kills.allSatisfy { $0.timeMs == 30_000 && $0.reason == .lmkNone })
  }

  /// The app on screen when the device locks stays the top app (OomAdjuster "top-sleeping", adj 0):
  /// LOW_MEM kills the previous app, expired, and not the app behind the lock.
  @Test func lowMemSparesTheAppBehindTheLock() throws {
    let result = try run("8-lmkd-top-app-behind-the-lock")
    let lowMem = result.kills.filter { $0.timeMs == 110_000 }
    #expect(lowMem.map { result.summary.appIDs[$0.app] } == ["c"])
    #expect(lowMem.first?.reason == .lmkLowMem)
    #expect(!result.kills.contains { result.summary.appIDs[$0.app] == "a" })
  }

  /// When another app opens after the lock, the app behind the lock becomes the previous app, and
  /// its 60 s run from then, not from its suspension: at 105 s it is still at 700, out of LOW_MEM's
  /// reach, and dies only when thrashing lowers the minimum to 201.
  @Test func theAppBehindTheLockIsThePreviousAppFromTheNextOpen() throws {
    let result = try run("8-lmkd-app-behind-the-lock-becomes-previous")
    let ids = result.kills.map { result.summary.appIDs[$0.app] }
    #expect(
      result.kills.filter { $0.timeMs == 105_000 }.map { result.summary.appIDs[$0.app] } == ["c"])
    let a = result.kills.first { result.summary.appIDs[$0.app] == "a" }
    #expect(a?.reason == .lmkLowMemAndThrashing)
    #expect(a?.lmkd?.minScoreAdj == 201)
    #expect(ids.prefix(2) == ["c", "a"])
  }

  /// An open that unlocks the device and fails on the way (the app is killed for its memory limit
  /// as it resumes) ends the lock all the same: the app behind it is the previous app from then,
  /// expired 60 s later, and LOW_MEM kills it after c.
  @Test func aFailedOpenEndsTheLock() throws {
    let result = try run("8-lmkd-failed-open-ends-the-lock")
    let ids = result.kills.map { result.summary.appIDs[$0.app] }
    #expect(result.kills.first?.reason == .perProcessLimit)
    #expect(
      result.kills.filter { $0.timeMs == 110_000 }.map { result.summary.appIDs[$0.app] } == [
        "c", "a",
      ])
    #expect(result.kills.filter { $0.timeMs == 110_000 }.allSatisfy { $0.reason == .lmkLowMem })
    #expect(ids.first == "b")
  }
}
