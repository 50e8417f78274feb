import JetsimTestSupport
import Testing

@testable import JetsimCore

/// docs/model.md §11: system processes share the device's memory, get no UIApplication callbacks,
/// are relaunched by launchd, and a run may start from a snapshot.
@Suite struct SystemProcessTests {
  /// The §10 device with an idle daemon (50 MB) and an active daemon (100 MB).
  func device(relaunch: Int? = nil) -> DeviceProfile {
    var device = Fixture.device
    device.systemProcesses = [
      SystemProcess(
        name: "idled", kind: .idleDaemon, footprintKB: mb(50), relaunchDelayMs: relaunch),
      SystemProcess(name: "activd", kind: .activeDaemon, footprintKB: mb(100), band: 160),
    ]
    return device
  }

  @Test func theyStartAtTimeZeroWithNoCallbacks() throws {
    let result = try Fixture.run([Fixture.app("a", resident: 100)], [], device: device())
    #expect(result.trail("idled") == ["start notRunning>suspended"])
    #expect(result.trail("activd") == ["start notRunning>background"])
    #expect(result.events.last?.availableKB == mb(1000 - 150))
    #expect(result.summary.appCount == 1)
    #expect(result.summary.systemKinds == ["idle-daemon", "active-daemon"])
  }

  @Test func theyGetNoMemoryWarnings() throws {
    // 850 MB free; a (100 MB) then big (600 MB) leave 150 MB: below warning, with a running in
    // the background and the daemons running too.
    let result = try Fixture.run(
      [Fixture.app("a", resident: 100), Fixture.app("big", resident: 600)],
      [TimedAction(0, .open("a")), TimedAction(sec(60), .open("big"))], device: device())
    #expect(result.warned(atMs: sec(60)) == ["a"])
  }

  /// a (`resident` MB) is suspended at 65 s, b (100 MB) runs in the background at 120 s, when c
  /// (`c` MB) opens.
  func threeApps(a: Int, c: Int, relaunch: Int? = nil, durationMs: Int? = nil) throws -> RunResult {
    try Fixture.run(
      [
        Fixture.app("a", resident: a), Fixture.app("b", resident: 100),
        Fixture.app("c", resident: c),
      ],
      [
        TimedAction(0, .open("a")), TimedAction(sec(60), .open("b")),
        TimedAction(sec(120), .open("c")),
      ],
      device: device(relaunch: relaunch), durationMs: durationMs)
  }

  @Test func largestFirstKillsAnIdleDaemonAsASuspendedProcess() throws {
    // c's 450 MB would leave 0 MB free: the largest suspended process is a (300 MB).
    #expect(try threeApps(a: 300, c: 450).killTexts == ["a vm-pageshortage"])
    // c's 700 MB would leave 20 MB: idled (50 MB) is larger than a (30 MB), and goes first.
    let daemonFirst = try threeApps(a: 30, c: 700)
    #expect(daemonFirst.killTexts == ["idled vm-pageshortage", "a vm-pageshortage"])
    #expect(daemonFirst.summary.metrics.systemProcessKills == 1)
    #expect(daemonFirst.summary.metrics.totalKills == 1, "app kills are counted apart")
  }

  @Test func launchdRelaunchesAKilledDaemonAfterItsDelay() throws {
    let result = try threeApps(a: 30, c: 700, relaunch: sec(10), durationMs: sec(200))
    #expect(
      result.trail("idled", atMs: sec(120)) == ["kill suspended>notRunning (vm-pageshortage)"])
    // At 130 s its 50 MB wait for room like any allocation: b, suspended at 125 s, makes it.
    #expect(result.trail("idled", atMs: sec(130)) == ["relaunch notRunning>suspended"])
    #expect(result.killTexts.last == "b vm-pageshortage")
    #expect(result.kills.last?.pendingKB == mb(50))
    #expect(result.summary.metrics.relaunches == 1)
  }

  /// What a policy is told, in order: the process (its index), its state and the time.
  final class Told: @unchecked Sendable {
    var changes: [(app: Int, state: AppState, atMs: Int)] = []
  }

  /// largest-first that evicts nothing from `refusesFromMs` on, and records what it is told.
  struct Refusing: EvictionPolicy {
    var base = LargestFirstPolicy()
    let refusesFromMs: Int
    let told: Told
    var name: String { base.name }
    mutating func start(_ device: DeviceView) { base.start(device) }
    mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
      told.changes.append((app, status.state, nowMs))
      base.appDidChange(app, status, nowMs: nowMs)
    }
    mutating func nextEviction(_ device: DeviceView) -> Eviction? {
      device.nowMs >= refusesFromMs ? nil : base.nextEviction(device)
    }
  }

  /// idled, here of 150 MB, is killed at 120 s with a and activd to make room for c (790 MB),
  /// which leaves 110 MB. launchd relaunches it at 130 s; its 150 MB do not fit, and the policy
  /// kills nothing: nothing lands, and the policy, asked with the 150 MB pending, is told so
  /// (idled, not running, at 130 s); launchd tries again at 140 s, with the same end.
  @Test func aRelaunchThatDoesNotFitIsToldToThePolicy() throws {
    var device = device(relaunch: sec(10))
    device.systemProcesses[0].footprintKB = mb(150)
    let told = Told()
    let result = try Fixture.run(
      [
        Fixture.app("a", resident: 30), Fixture.app("b", resident: 100),
        Fixture.app("c", resident: 790),
      ],
      [
        TimedAction(0, .open("a")), TimedAction(sec(60), .open("b")),
        TimedAction(sec(120), .open("c")),
      ],
      device: device, durationMs: sec(145), policy: Refusing(refusesFromMs: sec(121), told: told))
    let idled = try #require(result.summary.appIDs.firstIndex(of: "idled"))
    #expect(
      result.killTexts == ["idled vm-pageshortage", "a vm-pageshortage", "activd vm-pageshortage"])
    #expect(result.events.last?.availableKB == mb(110))
    #expect(result.summary.metrics.relaunches == 0)
    let toldOfIdled = told.changes.filter { $0.app == idled && $0.atMs > sec(120) }
    #expect(toldOfIdled.map(\.atMs) == [sec(130), sec(140)])
    #expect(toldOfIdled.allSatisfy { $0.state == .notRunning })
  }

  @Test func withNoDurationRelaunchesEndWithTheWorkload() throws {
    let result = try threeApps(a: 30, c: 700, relaunch: sec(10))
    #expect(result.summary.metrics.relaunches == 0)
    #expect(result.state("idled") == .notRunning)
  }

  @Test func aRebootStartsThemAgain() throws {
    let result = try Fixture.run([], [TimedAction(sec(5), .reboot)], device: device())
    #expect(
      result.trail("activd") == [
        "start notRunning>background", "kill background>notRunning (reboot)",
        "start notRunning>background",
      ])
    #expect(result.summary.metrics.relaunches == 0)
  }

  /// The snapshot's order is the history before time 0 for every
  /// policy; for lru, lmkd and oom-badness an earlier entry is less recently used, never the names.
  @Test(arguments: [PolicyName.lru, .lmkd, .oomBadness])
  func aSnapshotsOrderIsItsRecency(policy: PolicyName) throws {
    // "zed" comes first in the snapshot and last by name: it was used least recently.
    var scenario = Scenario(
      name: "snap", device: Fixture.device,
      apps: [
        Fixture.app("alpha", resident: 300), Fixture.app("zed", resident: 300),
        Fixture.app("big", resident: 500),
      ],
      actions: [TimedAction(sec(10), .open("big"))], policy: policy)
    scenario.snapshot = Snapshot([
      .init(process: "zed", state: .suspended), .init(process: "alpha", state: .suspended),
    ])
    let result = try Simulator.run(scenario)
    #expect(result.kills.first.map { result.summary.appIDs[$0.app] } == "zed", "\(policy)")
  }

  @Test func aSnapshotGivesStatesFootprintsAndBandOrder() throws {
    var scenario = Scenario(
      name: "snap", device: device(),
      apps: [
        Fixture.app("a", resident: 100), Fixture.app("b", resident: 100),
        Fixture.app("c", resident: 100),
      ],
      actions: [], policy: .jetsam)
    // b entered the IDLE band before a; idled is listed between them.
    scenario.snapshot = Snapshot([
      .init(process: "b", state: .suspended, footprintKB: mb(180), band: 0),
      .init(process: "idled", state: .suspended, band: 0),
      .init(process: "a", state: .suspended, footprintKB: mb(200), band: 0),
      .init(process: "c", state: .active, footprintKB: mb(400)),
    ])
    try scenario.checkSnapshot()
    scenario.actions = [TimedAction(sec(10), .allocate("c", kilobytes: mb(200)))]
    let result = try Simulator.run(scenario)
    #expect(result.trail("b", atMs: 0).first == "snapshot notRunning>suspended")
    #expect(result.footprint("a", atMs: 0) == mb(200))
    #expect(result.state("c", atMs: 0) == .active)
    // 1000 - 180 - 50 - 200 - 400 - 100 (activd) = 70 MB free: below jetsam's idle level (10 %
    // of 1200 MB) at once; the IDLE band dies from its head, in the snapshot's order: under the
    // critical level for vm-pageshortage, then above it (healthy) for idle-exit.
    #expect(
      result.killTexts.prefix(3) == [
        "b vm-pageshortage", "idled vm-pageshortage", "a idle-exit",
      ])
  }

  @Test(arguments: [
    (
      Snapshot([.init(process: "nope", state: .suspended)]),
      "scenario 'snap': snapshot[0].process: 'nope' is not an app or system process of the scenario; add its profile to 'apps' (or the device's 'systemProcesses')"
    ),
    (
      Snapshot([.init(process: "a", state: .suspended), .init(process: "a", state: .suspended)]),
      "scenario 'snap': 'snapshot[1].process' is 'a' again; expected each process listed once"
    ),
    (
      Snapshot([.init(process: "a", state: .active), .init(process: "b", state: .active)]),
      "scenario 'snap': 'snapshot[1].state' is active; expected one app on screen at most (a is already)"
    ),
    (
      Snapshot([.init(process: "idled", state: .active)]),
      "scenario 'snap': 'snapshot[0].state' is active; expected background or suspended for a system process"
    ),
    (
      Snapshot([.init(process: "a", state: .background, footprintKB: mb(900))]),
      "scenario 'snap': 'snapshot' is 1050.0 MB of processes (with the system processes it does not list); expected at most the device's memory less its reserved memory (1000.0 MB)"
    ),
  ])
  func aSnapshotThatCannotBeIsRefused(snapshot: Snapshot, message: String) {
    var scenario = Scenario(
      name: "snap", device: device(),
      apps: [Fixture.app("a", resident: 100), Fixture.app("b", resident: 100)], actions: [])
    scenario.snapshot = snapshot
    #expect(throws: (any Error).self) { try scenario.checkSnapshot() }
    do {
      try scenario.checkSnapshot()
    } catch {
      #expect(error.description == message)
    }
  }
}
