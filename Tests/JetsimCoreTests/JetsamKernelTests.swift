import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// The rules jetsam follows as xnu-11417 ships them (docs/policies.md), each a
/// test named after the rule, citing the kernel's file and function.
@Suite struct JetsamKernelTests {
  /// bsd/kern/kern_memorystatus.c, the fallback table beside `memstat_critical_threshold`: by DRAM
  /// class, critical 5/4/4 %, idle 10/9/8 %, pressure 15/15/12 %, reaper 20/18/16 %.
  @Test(arguments: [
    (2048, [5, 10, 15, 20]), (3072, [5, 10, 15, 20]), (3844, [4, 9, 15, 18]),
    (6144, [4, 9, 15, 18]), (8192, [4, 8, 12, 16]),
  ])
  func memstatThresholdsFollowTheDRAMClass(memoryMB: Int, percents: [Int]) {
    let levels = MemoryLevels(memoryKB: mb(memoryMB))
    let memory = mb(memoryMB)
    #expect(
      [levels.criticalKB, levels.idleKB, levels.pressureKB, levels.reaperKB]
        == percents.map { memory * $0 / 100 })
  }

  /// The same file: a critical level given alone (`memorystatus_critical_threshold_mb`) gives the
  /// others by XNU's ratios, 2×, 3×, 4× (9/4, 15/4, 18/4 in the (3,6] GB class).
  @Test func memstatThresholdsFollowACriticalLevelByXNUsRatios() {
    let small = MemoryLevels(memoryKB: mb(2048), given: .init(critical: mb(90)))
    #expect(
      [small.idleKB, small.pressureKB, small.reaperKB] as [Int] == [mb(180), mb(270), mb(360)])
    let medium = MemoryLevels(memoryKB: mb(4096), given: .init(critical: mb(160)))
    #expect(
      [medium.idleKB, medium.pressureKB, medium.reaperKB] as [Int] == [mb(360), mb(600), mb(720)])
    // A device's own idle level below critical is raised to it (`memstat_idle_threshold`).
    let raised = MemoryLevels(memoryKB: mb(2048), given: .init(critical: mb(90), idle: mb(50)))
    #expect(raised.idleKB == mb(90))
    // The device profile carries them, and recomputes them with the memory (sweeps).
    let device = DeviceProfile(
      name: "d", memoryKB: mb(2048), reservedKB: mb(400), criticalThresholdKB: mb(90))
    #expect(device.warningThresholdKB == mb(270) && device.reaperThresholdKB == mb(360))
    // With another memory, the given critical level stays and the others follow its class.
    #expect(device.withMemory(mb(4096)).idleThresholdKB == mb(90) * 9 / 4)
  }

  /// `memorystatus_sysprocs_idle_time`: 10 s of deferral divided by 1, 2 or 5 for high, medium or
  /// low relaunch likelihood.
  @Test func memorystatusSysprocsIdleTimeFollowsRelaunchLikelihood() {
    #expect(RelaunchLikelihood.allCases.map(\.agingTimeMs) == [10_000, 5_000, 2_000])
    let eager = SystemProcess(
      name: "d", kind: .idleDaemon, footprintKB: mb(10), relaunchLikelihood: .high)
    #expect(eager.agingTimeMs == 10_000)
    var device = Fixture.device
    device.systemProcesses = [eager]
    var harness = PolicyHarness(
      device: device, [.init(id: "a", state: .suspended, footprintMB: 10)])
    harness.addIdleSystemProcess(footprintMB: 10, enteredMs: 90_000)
    let policy = harness.started(JetsamPolicy())
    #expect(policy.band(of: 1, nowMs: 99_999) == 10, "still aging at 9.999 s")
    #expect(policy.band(of: 1, nowMs: 100_000) == 0, "IDLE after 10 s")
  }

  /// The soft limit is half the per-app limit in exact integer arithmetic: at it is not over it.
  @Test func theSoftLimitIsExact() {
    // A 716 MB limit: 733,184 KB, half of it 366,592 KB (limit / 100 * 50 gave 366,550).
    var device = Fixture.device
    device.foregroundLimitKB = 733_184
    device.warningThresholdKB = device.usableKB
    func decision(footprintKB: Int) -> [String] {
      var harness = PolicyHarness(
        device: device, [.init(id: "bg", state: .background, footprintMB: 1, working: true)])
      harness.apps[0].footprintKB = footprintKB
      return harness.decisions(JetsamPolicy())
    }
    #expect(decision(footprintKB: 366_592) == [])
    #expect(decision(footprintKB: 366_593) == ["kill bg (highwater)"])
  }

  /// `memstat_reaper_*` (kern_memorystatus.c; `MEMORYSTATUS_KILL_LONG_IDLE` in
  /// kern_memorystatus_policy.c `memorystatus_pick_action`): below the reaper level, a sweep kills
  /// the IDLE band's processes in IDLE 300 s, oldest entrant first; once started it goes on
  /// whatever the memory (`memorystatus_pick_action`, line 219, while
  /// `memstat_reaper_is_currently_sweeping`) until no process is reapable
  /// (`memorystatus_kill_top_process` ends the sweep, kern_memorystatus.c:6601–6605).
  @Test func memstatReaperSweepsLongIdleProcessesOncePerPeriod() throws {
    // 2 GB: critical 102.4 MB, idle 204.8, pressure 307.2, reaper 409.6. 350 MB free at first.
    let device = DeviceProfile(name: "2 GB", memoryKB: mb(2048), reservedKB: mb(1498))
    let apps = [
      Fixture.app("a", resident: 100), Fixture.app("b", resident: 100),
      Fixture.app("c", resident: 150),
    ]
    var scenario = Scenario(
      name: "reaper", device: device, apps: apps,
      actions: [TimedAction(sec(400), .open("c"))], policy: .jetsam, durationMs: sec(700))
    scenario.snapshot = Snapshot([
      .init(process: "a", state: .suspended, band: 0),
      .init(process: "b", state: .suspended, band: 0),
    ])
    let result = try Simulator.run(scenario)
    let kills = result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" }
    // At 300 s both are old enough; a dies first (entered IDLE first), and b in the same sweep
    // although a's kill left 450 MB, above the reaper level. c's launch at 400 s leaves 400 MB,
    // below it, with no one reapable: nobody dies.
    #expect(kills == ["a long-idle-exit @300000", "b long-idle-exit @300000"])
    // Turned off, the reaper kills no one: c's launch at 400 s leaves 200 MB, below the idle level
    // (204.8 MB) but above the critical level: the head of IDLE dies for idle-exit instead.
    scenario.device.reaper.enabled = false
    let off = try Simulator.run(scenario)
    #expect(
      off.kills.map { "\(off.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" } == [
        "a idle-exit @400000"
      ])
  }

  /// One sweep a period (`memstat_reaper_can_run_after_ts_matu`, the rescan delay, 300 s by
  /// default): a process that becomes reapable after a sweep waits for the next, even below the
  /// reaper level.
  @Test func aReaperSweepWaitsForItsPeriod() throws {
    // 2 GB: critical 102.4 MB, idle 204.8, pressure 307.2, reaper 409.6; 350 MB free at first.
    let device = DeviceProfile(name: "2 GB", memoryKB: mb(2048), reservedKB: mb(1498))
    let apps = [
      Fixture.app("a", resident: 100), Fixture.app("b", resident: 100),
      Fixture.app("c", resident: 100), Fixture.app("e", resident: 100),
    ]
    var scenario = Scenario(
      name: "reaper", device: device, apps: apps,
      actions: [
        TimedAction(sec(1), .open("e")), TimedAction(sec(2), .home),
        TimedAction(sec(400), .open("c")),
      ],
      policy: .jetsam, durationMs: sec(700))
    scenario.snapshot = Snapshot([
      .init(process: "a", state: .suspended, band: 0),
      .init(process: "b", state: .suspended, band: 0),
    ])
    let result = try Simulator.run(scenario)
    let kills = result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" }
    // e enters IDLE a few seconds in, so it is reapable a few seconds after 300 s: the sweep at
    // 300 s takes a and b only. c's launch at 400 s leaves 350 MB, below the reaper level, with e
    // reapable: e dies when the next sweep may start, at 600 s, not before.
    #expect(
      kills == [
        "a long-idle-exit @300000", "b long-idle-exit @300000", "e long-idle-exit @600000",
      ])
  }

  /// Daemons launchd relaunches at once (`relaunchLikelihood: .high` unless `eager` is false for
  /// the first), each in IDLE with `footprintMB`.
  func falseIdle(_ daemons: Int, footprintMB: Int, eager: Bool = true) -> [SystemProcess] {
    (1...daemons).map {
      SystemProcess(
        name: "d\($0)", kind: .idleDaemon, footprintKB: mb(footprintMB),
        relaunchLikelihood: eager || $0 > 1 ? .high : .low)
    }
  }

  /// `memorystatus_check_aggressive_jetsam_needed` (kern_memorystatus_policy.c lines 326–385) and
  /// `memorystatus_aggressive_jetsam_needed_sysproc_aging` (lines 387–425): below critical, with the
  /// IDLE and daemon aging bands holding only daemons launchd relaunches at once (at least
  /// `kJetsamMinCandidatesThreshold`, 5) and available memory at most 7 % of memory, an aggressive
  /// action: `memorystatus_kill_processes_aggressive` (kern_memorystatus.c line 6729) marches from
  /// the head of IDLE through every band up to the top band, MAIL (40) for the first action of the
  /// window (`jld_max_priority_arr`, line 4455): the daemons, then the app at work (band 30), never
  /// the app on screen (band 100).
  @Test(arguments: [
    (
      6, true,
      ["d1", "d2", "d3", "d4", "d5", "d6", "working"].map { "kill \($0) (proc-thrashing)" }
    ),
    (4, true, ["kill d1 (vm-pageshortage)"]), (6, false, ["kill d1 (vm-pageshortage)"]),
  ])
  func aggressiveJetsamMarchesFromTheHeadOfIdle(daemons: Int, eager: Bool, decisions: [String]) {
    var device = Fixture.device
    device.systemProcesses = falseIdle(daemons, footprintMB: 5, eager: eager)
    device.foregroundLimitKB = mb(4000)
    // 1,000 MB usable: 600 + 330 MB and 5 MB a daemon leave at most 50 MB, below the 100 MB
    // critical level and 7 % of memory (84 MB).
    var harness = PolicyHarness(
      device: device,
      [
        .init(id: "working", state: .background, footprintMB: 600, working: true),
        .init(id: "screen", state: .active, footprintMB: 330),
      ])
    for _ in 1...daemons { harness.addIdleSystemProcess(footprintMB: 5) }
    #expect(Array(harness.decisions(JetsamPolicy()).prefix(decisions.count)) == decisions)
  }

  /// `memorystatus_act_aggressive` (kern_memorystatus.c lines 4465–4548) visits the
  /// ELEVATED_INACTIVE band first, but `memorystatus_kill_elevated_process` takes only a process
  /// pinned there (line 7159, `P_MEMSTAT_USE_ELEVATED_INACTIVE_BAND`): an app in band 40 because
  /// it uses location in the background is not, so the march takes the IDLE band's daemons first
  /// and the app in its turn.
  @Test func aggressiveJetsamPassesOverAnUnpinnedElevatedProcess() {
    var device = Fixture.device
    device.systemProcesses = falseIdle(6, footprintMB: 5)
    device.foregroundLimitKB = mb(4000)
    var harness = PolicyHarness(
      device: device,
      [
        .init(id: "nav", state: .background, footprintMB: 20, modes: [.location]),
        .init(id: "screen", state: .active, footprintMB: 900),
      ])
    for _ in 1...6 { harness.addIdleSystemProcess(footprintMB: 5) }
    #expect(
      Array(harness.decisions(JetsamPolicy()).prefix(7))
        == ["d1", "d2", "d3", "d4", "d5", "d6", "nav"].map { "kill \($0) (proc-thrashing)" })
  }

  /// The march goes on whatever the memory (`memorystatus_kill_processes_aggressive` checks none
  /// until its budget or its top band): in a run, the simulation keeps asking while the policy
  /// `isActing`, above every level it watches.
  @Test func anAggressiveMarchGoesOnWhateverTheMemory() throws {
    var device = Fixture.device
    device.systemProcesses = falseIdle(6, footprintMB: 40).map {
      var process = $0
      process.relaunchDelayMs = sec(60)
      return process
    }
    device.foregroundLimitKB = mb(4000)
    var scenario = Scenario(
      name: "march", device: device,
      apps: [Fixture.app("working", resident: 400), Fixture.app("screen", resident: 330)],
      actions: [], policy: .jetsam, durationMs: sec(10))
    // 1,000 − 240 − 400 − 330 = 30 MB: after two daemons, 110 MB is above critical; the march goes
    // on through IDLE and BACKGROUND.
    scenario.snapshot = Snapshot(
      (1...6).map { .init(process: "d\($0)", state: .suspended, band: 0) } + [
        .init(process: "working", state: .background, band: 30),
        .init(process: "screen", state: .active),
      ])
    let result = try Simulator.run(scenario)
    let atZero = result.kills.filter { $0.timeMs == 0 }
    #expect(
      atZero.map { "\(result.summary.appIDs[$0.app]) \($0.reason)" }
        == ["d1", "d2", "d3", "d4", "d5", "d6", "working"].map { "\($0) proc-thrashing" })
    #expect(atZero.last.map { $0.availableAfterKB > device.reaperThresholdKB } == true)
  }

  /// The top band rises with each aggressive action in the evaluation window
  /// (`jld_eval_aggressive_count`; `jld_max_priority_arr` 40, 40, 80, 80, 150), and falls back once
  /// the window (6 s above 512 MB, `memorystatus_jld_eval_period_msecs`) has run out.
  @Test func theTopBandRisesWithEachActionInTheWindow() {
    var device = Fixture.device
    device.systemProcesses =
      falseIdle(5, footprintMB: 30) + [
        SystemProcess(name: "ui", kind: .activeDaemon, footprintKB: mb(100), band: 80)
      ]
    device.foregroundLimitKB = mb(4000)
    // 1,000 − 700 − 150 − 100 = 50 MB: below critical and 7 % of memory; with the daemons gone,
    // 200 MB, healthy, so no check restarts the window before the next action.
    var harness = PolicyHarness(
      device: device, [.init(id: "screen", state: .active, footprintMB: 700)])
    for _ in 1...5 { harness.addIdleSystemProcess(footprintMB: 30) }
    harness.apps.append(AppStatus(idRank: 6, isSystemProcess: true))
    var policy = harness.started(JetsamPolicy())
    // Each action kills the five daemons, which launchd brings back before the next; "ui" (band 80)
    // falls only to the third action of a window.
    var uiKilledAt: [Int] = []
    for (step, now) in [100_000, 100_500, 101_000, 108_000, 108_500, 109_000].enumerated() {
      harness.nowMs = now
      for process in 1...6 where harness.apps[process].state == .notRunning || step == 0 {
        harness.apps[process].state = process == 6 ? .background : .suspended
        harness.apps[process].footprintKB = mb(process == 6 ? 100 : 30)
        harness.apps[process].physicalKB = harness.apps[process].footprintKB
        policy.appDidChange(process, harness.apps[process], nowMs: now)
      }
      while let eviction = policy.nextEviction(harness.view(seed: 1)) {
        #expect(eviction.reason == .procThrashing)
        if eviction.app == 6 { uiKilledAt.append(step) }
        harness.apps[eviction.app].state = .notRunning
        harness.apps[eviction.app].footprintKB = 0
        harness.apps[eviction.app].physicalKB = 0
        policy.appDidChange(eviction.app, harness.apps[eviction.app], nowMs: now)
      }
    }
    #expect(uiKilledAt == [2, 5])
  }

  /// App swap on M-series iPads (`memorystatus_swap_all_apps`; `MEMORYSTATUS_KILL_SUSPENDED_SWAPPABLE`
  /// in kern_memorystatus_policy.c `memorystatus_pick_action`, cause `kMemorystatusKilledLowSwap`):
  /// a suspended app goes to swap while the budget holds it; one that cannot waits in memory, and
  /// below the pressure level jetsam kills a swapped app so that it can go.
  @Test func appSwapSendsSuspendedAppsToSwapAndKillsForItWhenItRunsShort() throws {
    // 648 MB usable; pressure at 15 % of 2 GB (307.2 MB), idle 10 % (204.8 MB).
    var device = DeviceProfile(name: "iPad", memoryKB: mb(2048), reservedKB: mb(1400))
    device.appSwap = DeviceProfile.AppSwap(budgetKB: mb(200))
    let apps = [
      Fixture.app("a", resident: 150), Fixture.app("b", resident: 150),
      Fixture.app("c", resident: 250),
    ]
    let scenario = Scenario(
      name: "swap", device: device, apps: apps,
      actions: [
        TimedAction(0, .open("a")), TimedAction(sec(10), .open("b")),
        TimedAction(sec(20), .open("c")),
      ], policy: .jetsam, durationMs: sec(40))
    let result = try Simulator.run(scenario)
    let swaps = result.events.filter { $0.kind == .swapOut }.map {
      "\(result.summary.appIDs[$0.app]) @\($0.timeMs)"
    }
    // a goes to swap as it suspends (15 s); b cannot (50 MB left) and waits, with 248 MB free, below
    // the pressure level: a dies for swap, and b goes out in its place.
    #expect(swaps == ["a @15000", "b @25000"])
    #expect(
      result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" } == [
        "a low-swap @25000"
      ])
    #expect(result.kills.first?.freedKB == 0, "a held no physical memory, only swap")
    #expect(result.events.last?.availableKB == mb(648 - 250))
    // Without kills for swap, b stays in memory and nobody dies.
    var lenient = scenario
    lenient.device.appSwap?.killsOnLowSwap = false
    let kept = try Simulator.run(lenient)
    #expect(kept.kills.isEmpty)
    #expect(kept.events.filter { $0.kind == .swapOut }.count == 1)
  }
}
