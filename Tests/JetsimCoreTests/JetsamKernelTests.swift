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
  /// the IDLE band's processes alive 300 s, oldest entrant first; one sweep per period.
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
    // At 300 s both are old enough; a dies first (entered IDLE first) and free (450 MB) is above
    // the reaper level again. c's launch at 400 s leaves 300 MB, below it: b dies when the next
    // sweep may start, at 600 s.
    #expect(kills == ["a long-idle-exit @300000", "b long-idle-exit @600000"])
    // Turned off, the reaper kills no one: c's launch at 400 s leaves 200 MB, below the idle level
    // (204.8 MB) but above the critical level: the head of IDLE dies for idle-exit instead.
    scenario.device.reaper.enabled = false
    let off = try Simulator.run(scenario)
    #expect(
      off.kills.map { "\(off.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" } == [
        "a idle-exit @400000"
      ])
  }

  /// kern_memorystatus_policy.c `memorystatus_pick_action` and
  /// `memorystatus_aggressive_jetsam_needed_sysproc_aging`: below critical, with the IDLE and
  /// daemon aging bands holding only daemons launchd relaunches at once (at least
  /// `kJetsamMinCandidatesThreshold`, 5) and free memory at most 7 % of memory, kills climb above
  /// them (`proc-thrashing`).
  @Test(arguments: [
    (5, true, "kill working (proc-thrashing)"), (4, true, "kill d1 (vm-pageshortage)"),
    (5, false, "kill d1 (vm-pageshortage)"),
  ])
  func aggressiveJetsamClimbsAboveFalseIdleDaemons(daemons: Int, eager: Bool, decision: String) {
    var device = Fixture.device
    device.systemProcesses = (1...daemons).map {
      SystemProcess(
        name: "d\($0)", kind: .idleDaemon, footprintKB: mb(5),
        relaunchLikelihood: eager ? .high : ($0 == 1 ? .low : .high))
    }
    // A limit high enough that the working app is under its soft limit.
    device.foregroundLimitKB = mb(4000)
    // 1,000 MB usable: 930 MB for the app and 5 MB a daemon leave at most 45 MB free, below the
    // 100 MB critical level and 7 % of memory (84 MB).
    var harness = PolicyHarness(
      device: device, [.init(id: "working", state: .background, footprintMB: 930, working: true)])
    for _ in 1...daemons { harness.addIdleSystemProcess(footprintMB: 5) }
    #expect(harness.decisions(JetsamPolicy()).first == decision)
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
