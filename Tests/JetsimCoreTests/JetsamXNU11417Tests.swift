import JetsimTestSupport
import Testing

@testable import JetsimCore

/// jetsam's mechanisms as xnu-11417.101.15 (commit e3723e1f17661b24996789d8afc084c0c3303b26) has
/// them, each from the function that decides it.
@Suite struct JetsamXNU11417Tests {
  /// 2 GB: critical 102.4 MB, idle 204.8, pressure 307.2, reaper 409.6; 550 MB usable.
  let device = DeviceProfile(name: "2 GB", memoryKB: mb(2048), reservedKB: mb(1498))

  /// Two 100 MB apps under jetsam: a opened at 0 s, b at 400 s, the run 1,000 s long.
  func twoApps(name: String) -> Scenario {
    Scenario(
      name: name, device: device,
      apps: [Fixture.app("a", resident: 100), Fixture.app("b", resident: 100)],
      actions: [TimedAction(0, .open("a")), TimedAction(sec(400), .open("b"))],
      policy: .jetsam, durationMs: sec(1_000))
  }

  func kills(_ result: RunResult) -> [String] {
    result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" }
  }

  /// `_memstat_proc_is_reapable` (kern_memorystatus.c lines 6678–6723): the age is the time in
  /// the current band (`p_memstat_prio_start`, reset at every band change), not since launch. An
  /// app used on screen for 400 s is not reaped when it reaches IDLE; the sweeps come a period
  /// apart from the first attempt below the reaper level (`JetsamPolicy.Reaper`), and the first
  /// after it has been 300 s in IDLE takes it.
  @Test func theReapersAgeIsTheTimeInTheCurrentBand() throws {
    let result = try Simulator.run(twoApps(name: "reaper-age"))
    let suspended = try #require(
      result.events.first { $0.kind == .suspend && result.summary.appIDs[$0.app] == "a" })
    #expect(suspended.timeMs == sec(405))
    // b's launch at 400 s leaves 350 MB, below the reaper level: that attempt finds no one (a is
    // in the background); the next, at 700 s, finds a in IDLE since 407 s (after its 2 s aging):
    // 293 s, too young; the one at 1,000 s reaps it. Counted from a's launch, 700 s would have.
    #expect(kills(result) == ["a long-idle-exit @1000000"])
  }

  /// `_memstat_proc_is_reapable`: only a relaunch likelihood in `memstat_reaper_reap_relaunch_mask`
  /// (xnu-11417 default `MEMORYSTATUS_REAPER_REAP_RELAUNCH_MASK_DEFAULT`: low, or unknown) is
  /// reaped (kern_memorystatus.c lines 6706–6718; the mask at line 319).
  @Test func theReaperTakesOnlyLowOrUnknownRelaunchLikelihood() throws {
    var device = self.device
    device.systemProcesses = [
      SystemProcess(
        name: "d-high", kind: .idleDaemon, footprintKB: mb(60), relaunchLikelihood: .high),
      SystemProcess(
        name: "d-medium", kind: .idleDaemon, footprintKB: mb(60), relaunchLikelihood: .medium),
      SystemProcess(
        name: "d-low", kind: .idleDaemon, footprintKB: mb(10), relaunchLikelihood: .low),
    ]
    var scenario = Scenario(
      name: "reaper-mask", device: device, apps: [Fixture.app("a", resident: 100)], actions: [],
      policy: .jetsam, durationMs: sec(1_000))
    // 550 − 230 = 320 MB available, below the reaper level all run long.
    scenario.snapshot = Snapshot([
      .init(process: "d-high", state: .suspended, band: 0),
      .init(process: "d-medium", state: .suspended, band: 0),
      .init(process: "d-low", state: .suspended, band: 0),
      .init(process: "a", state: .active),
    ])
    let result = try Simulator.run(scenario)
    #expect(kills(result) == ["d-low long-idle-exit @300000"])
  }

  /// `memorystatus_kill_top_process` walks the bands while `<= max_priority`, at most
  /// `JETSAM_PRIORITY_MAX` 210 (kern_memorystatus.c line 6452; bsd/sys/kern_memorystatus.h line
  /// 74): a process above it (band 999, `JETSAM_PRIORITY_INTERNAL`) is never killed.
  @Test(arguments: [(999, false), (210, true)])
  func bandsAbove210AreNeverKilled(band: Int, killed: Bool) throws {
    var device = self.device
    device.systemProcesses = [
      SystemProcess(name: "internal", kind: .activeDaemon, footprintKB: mb(300))
    ]
    var scenario = Scenario(
      name: "band-max", device: device, apps: [Fixture.app("a", resident: 100)],
      actions: [TimedAction(sec(10), .allocate("a", kilobytes: mb(100)))], policy: .jetsam,
      durationMs: sec(20))
    scenario.snapshot = Snapshot([
      .init(process: "internal", state: .background, band: band),
      .init(process: "a", state: .active),
    ])
    let result = try Simulator.run(scenario)
    // 550 − 400 = 150 MB, then a's 100 MB leaves 50: below critical, and only "internal" is off
    // screen.
    #expect(kills(result).contains { $0.hasPrefix("internal ") } == killed)
    if killed { #expect(result.kills.first?.band == band) }
  }

  /// Kills under jetsam name the victim's band (kills.csv's `band`); other policies have none.
  @Test func killsNameTheVictimsBand() throws {
    var scenario = twoApps(name: "bands")
    #expect(try Simulator.run(scenario).kills.map(\.band) == [0])
    scenario.policy = .largestFirst
    scenario.actions.append(TimedAction(sec(500), .allocate("b", kilobytes: mb(300))))
    let other = try Simulator.run(scenario)
    #expect(!other.kills.isEmpty)
    #expect(other.kills.allSatisfy { $0.band == nil })
  }
}
