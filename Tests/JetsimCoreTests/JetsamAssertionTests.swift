import JetsimTestSupport
import Testing

@testable import JetsimCore

/// Priority assertions and dirty state at run time, held to xnu-11417.101.15's own test
/// tests/memorystatus_is_assertion.c (commit e3723e1f17661b24996789d8afc084c0c3303b26). Each of its
/// `check_properties` calls checks a band and the limit in force together; each row below is one
/// of them: the action at that moment, then the band and the limit (in MB) the test expects.
/// The kernel's functions: `memorystatus_set_priority` (bsd/kern/kern_memorystatus.c:3041),
/// `memorystatus_dirty_set` (:3514), `memstat_update_priority_locked` (:2842) and
/// `memstat_proc_is_active_locked` (:5034).
@Suite struct JetsamAssertionTests {
  /// One check: at `second`, after `action` (if any), the process is in `band` with the limit of
  /// `limitMB` in force; `line` is the `check_properties` call's line in the test file.
  struct Check {
    var line: Int
    var second: Int
    var action: Action?
    var band: Int
    var limitMB: Int
  }

  /// A system process with limits of `activeMB` and `inactiveMB`, both fatal unless `fatal` is
  /// false.
  func process(
    _ kind: SystemProcessKind, footprintMB: Int, band: Int, activeMB: Int, inactiveMB: Int,
    fatal: Bool = true, agingTimeMs: Int? = nil, tracking: DirtyTracking? = nil,
    managed: Bool? = nil
  ) -> SystemProcess {
    var process = SystemProcess(
      name: "d", kind: kind, footprintKB: mb(footprintMB), band: band, agingTimeMs: agingTimeMs,
      dirtyTracking: tracking, isManaged: managed)
    (process.activeLimitKB, process.activeLimitFatal) = (mb(activeMB), fatal)
    (process.inactiveLimitKB, process.inactiveLimitFatal) = (mb(inactiveMB), fatal)
    return process
  }

  /// Process "d" on a roomy device (nothing is killed), with `configure` applied.
  func scenario(_ process: SystemProcess, _ checks: [Check]) -> Scenario {
    var device = DeviceProfile(name: "4 GB", memoryKB: mb(4096), reservedKB: mb(1000))
    device.systemProcesses = [process]
    return Scenario(
      name: "assertions", device: device, apps: [Fixture.app("a", resident: 50)],
      actions: checks.compactMap { check in check.action.map { TimedAction(sec(check.second), $0) }
      },
      policy: .jetsam, durationMs: sec(checks.last?.second ?? 0))
  }

  /// The band of process `index` and its limit in force (MB) at `timeMs`, the run played to then.
  func observe(_ scenario: Scenario, _ index: Int, atMs timeMs: Int) throws -> (Int, Int) {
    var workload = try scenario.workload()
    var simulation = Simulation(
      device: scenario.device, apps: scenario.apps, policy: JetsamPolicy(), observer: EventLog(),
      seed: 1, snapshot: scenario.snapshot)
    try simulation.run(&workload, untilMs: timeMs)
    let policy = simulation.policy
    let band = try #require(policy.band(of: index, nowMs: timeMs))
    let limits = try #require(scenario.device.systemProcesses[0].memoryLimits)
    let limit = limits.inForce(isActive: policy.isActive(index, nowMs: timeMs))
    return (band, limit.kilobytes / 1024)
  }

  func verify(_ process: SystemProcess, _ checks: [Check]) throws {
    let scenario = scenario(process, checks)
    for check in checks {
      let (band, limit) = try observe(scenario, 1, atMs: sec(check.second))
      #expect(
        band == check.band && limit == check.limitMB,
        "line \(check.line) at \(check.second) s: band \(band), limit \(limit) MB; the test expects \(check.band), \(check.limitMB) MB"
      )
    }
  }

  /// `assertion_test_allow_idle_exit` (line 600; body from line 220): a dirty-tracked daemon that
  /// may idle exit, requested band 80 (UI_SUPPORT), limits 35 MB active and 25 MB inactive, both
  /// fatal, managed. Clean it ages in band 10; an assertion lifts it to its band while clean; dirty,
  /// the higher of its requested band and the assertion's wins.
  @Test func assertionTestAllowIdleExit() throws {
    let d = "d"
    let process = process(
      .idleDaemon, footprintMB: 10, band: 80, activeMB: 35, inactiveMB: 25, managed: true)
    try verify(
      process,
      [
        Check(line: 244, second: 1, action: .clean(d), band: 10, limitMB: 35),
        Check(line: 265, second: 2, action: .release(d), band: 10, limitMB: 35),
        Check(line: 269, second: 3, action: .assert(d, band: 100), band: 100, limitMB: 35),
        Check(line: 274, second: 4, action: .assert(d, band: 30), band: 30, limitMB: 35),
        Check(line: 279, second: 5, action: .release(d), band: 10, limitMB: 35),
        Check(line: 284, second: 35, action: nil, band: 0, limitMB: 25),
        Check(line: 289, second: 36, action: .assert(d, band: 100), band: 100, limitMB: 35),
        Check(line: 295, second: 37, action: .dirty(d), band: 100, limitMB: 35),
        Check(line: 300, second: 38, action: .assert(d, band: 30), band: 80, limitMB: 35),
        Check(line: 305, second: 39, action: .release(d), band: 80, limitMB: 35),
        Check(line: 311, second: 40, action: .assert(d, band: 100), band: 100, limitMB: 35),
        Check(line: 316, second: 41, action: .clean(d), band: 100, limitMB: 35),
        Check(line: 321, second: 42, action: .dirty(d), band: 100, limitMB: 35),
        Check(line: 326, second: 43, action: .assert(d, band: 30), band: 80, limitMB: 35),
        Check(line: 331, second: 44, action: .release(d), band: 80, limitMB: 35),
        Check(line: 338, second: 45, action: .clean(d), band: 10, limitMB: 35),
      ])
  }

  /// `assertion_test_do_not_allow_idle_exit` (line 604; body from line 347): tracked, not allowed
  /// to idle exit, requested band 120 (AUDIO_AND_ACCESSORY), limits 35 / 25 MB, managed. The band
  /// stays 120 unless an assertion is higher (190, line 423); the limit follows the dirty state
  /// alone, the assertions notwithstanding (line 388: clean with an assertion, inactive).
  @Test func assertionTestDoNotAllowIdleExit() throws {
    let d = "d"
    let process = process(
      .activeDaemon, footprintMB: 10, band: 120, activeMB: 35, inactiveMB: 25,
      tracking: .noIdleExit, managed: true)
    try verify(
      process,
      [
        Check(line: 365, second: 1, action: .dirty(d), band: 120, limitMB: 35),
        Check(line: 369, second: 2, action: .clean(d), band: 120, limitMB: 25),
        Check(line: 383, second: 3, action: .release(d), band: 120, limitMB: 25),
        Check(line: 388, second: 4, action: .assert(d, band: 100), band: 120, limitMB: 25),
        Check(line: 393, second: 5, action: .assert(d, band: 30), band: 120, limitMB: 25),
        Check(line: 398, second: 6, action: .release(d), band: 120, limitMB: 25),
        Check(line: 403, second: 7, action: .dirty(d), band: 120, limitMB: 35),
        Check(line: 408, second: 8, action: .assert(d, band: 100), band: 120, limitMB: 35),
        Check(line: 413, second: 9, action: .assert(d, band: 30), band: 120, limitMB: 35),
        Check(line: 418, second: 10, action: .release(d), band: 120, limitMB: 35),
        Check(line: 423, second: 11, action: .assert(d, band: 190), band: 190, limitMB: 35),
        Check(line: 429, second: 12, action: .clean(d), band: 190, limitMB: 25),
        Check(line: 434, second: 13, action: .assert(d, band: 30), band: 120, limitMB: 25),
        Check(line: 440, second: 14, action: .release(d), band: 120, limitMB: 25),
        Check(line: 445, second: 15, action: .clean(d), band: 120, limitMB: 25),
      ])
  }

  /// `daemon_memlimits` (line 609): an unmanaged daemon tracked with idle exit, requested band 80,
  /// limits 6 MB active and 4 MB inactive. Aging in band 10 it has its active limit; in IDLE its
  /// inactive one; dirty, band 80 and active.
  @Test func daemonMemlimits() throws {
    let d = "d"
    let process = process(.idleDaemon, footprintMB: 3, band: 80, activeMB: 6, inactiveMB: 4)
    try verify(
      process,
      [
        Check(line: 624, second: 1, action: .clean(d), band: 10, limitMB: 6),
        Check(line: 630, second: 31, action: nil, band: 0, limitMB: 4),
        Check(line: 635, second: 32, action: .dirty(d), band: 80, limitMB: 6),
        Check(line: 640, second: 33, action: .clean(d), band: 10, limitMB: 6),
        Check(line: 646, second: 63, action: nil, band: 0, limitMB: 4),
        Check(line: 651, second: 64, action: .dirty(d), band: 80, limitMB: 6),
        Check(line: 656, second: 65, action: .clean(d), band: 10, limitMB: 6),
      ])
  }

  /// Not in the test file, from the code: `memorystatus_set_priority` (kern_memorystatus.c:3100–3117)
  /// clears only the assertion flag when one is given up, and for a tracked process that is dirty
  /// (or may not idle exit) takes the maximum of `p_memstat_assertionpriority` and its requested
  /// band: an assertion higher than the requested band, released while dirty, keeps the process
  /// in the assertion's band until its dirty state changes (`memorystatus_dirty_set`, :3601–3603,
  /// counts the assertion only while held).
  @Test func aReleasedAssertionStaysAFloorUntilTheDirtyStateChanges() throws {
    let d = "d"
    let idleExit = process(
      .idleDaemon, footprintMB: 10, band: 80, activeMB: 35, inactiveMB: 25, managed: true)
    try verify(
      idleExit,
      [
        Check(line: 0, second: 1, action: .assert(d, band: 100), band: 100, limitMB: 35),
        Check(line: 0, second: 2, action: .release(d), band: 100, limitMB: 35),
        Check(line: 0, second: 3, action: .clean(d), band: 10, limitMB: 35),
        Check(line: 0, second: 4, action: .dirty(d), band: 80, limitMB: 35),
      ])
    let noIdleExit = process(
      .activeDaemon, footprintMB: 10, band: 120, activeMB: 35, inactiveMB: 25,
      tracking: .noIdleExit, managed: true)
    try verify(
      noIdleExit,
      [
        Check(line: 0, second: 1, action: .assert(d, band: 190), band: 190, limitMB: 25),
        Check(line: 0, second: 2, action: .release(d), band: 190, limitMB: 25),
        Check(line: 0, second: 3, action: .dirty(d), band: 120, limitMB: 35),
      ])
    // Untracked, a release is a request for IDLE (:3123): an extension goes to the apps' aging
    // band, then IDLE, though it asked for band 30 at launch.
    var widget = SystemProcess(name: d, kind: .extension, footprintKB: mb(10), band: 30)
    (widget.activeLimitKB, widget.inactiveLimitKB) = (mb(35), mb(25))
    try verify(
      widget,
      [
        Check(line: 0, second: 1, action: .assert(d, band: 100), band: 100, limitMB: 35),
        Check(line: 0, second: 2, action: .release(d), band: 20, limitMB: 25),
        Check(line: 0, second: 5, action: nil, band: 0, limitMB: 25),
      ])
  }

  /// `memstat_proc_is_active_locked` (kern_memorystatus.c:5078–5083): an untracked process
  /// RunningBoard manages is active only while it holds an assertion — a managed active daemon
  /// too, though it runs. Given up, the assertion leaves it asking for IDLE (:3123), through the
  /// apps' aging band: `tests/memorystatus_is_assertion.c` line 508, a managed process asking for
  /// IDLE goes to band 20 (`memstat_update_priority_locked`, :2900–2906).
  @Test func aManagedDaemonIsActiveOnlyWhileItHoldsAnAssertion() throws {
    let d = "d"
    let managed = process(
      .activeDaemon, footprintMB: 10, band: 30, activeMB: 50, inactiveMB: 20, managed: true)
    try verify(
      managed,
      [
        Check(line: 0, second: 1, action: nil, band: 30, limitMB: 20),
        Check(line: 0, second: 2, action: .assert(d, band: 100), band: 100, limitMB: 50),
        Check(line: 508, second: 3, action: .release(d), band: 20, limitMB: 20),
        Check(line: 0, second: 6, action: nil, band: 0, limitMB: 20),
      ])
    // Unmanaged, the same daemon is active while above IDLE.
    let unmanaged = process(.activeDaemon, footprintMB: 10, band: 30, activeMB: 50, inactiveMB: 20)
    try verify(unmanaged, [Check(line: 0, second: 1, action: nil, band: 30, limitMB: 50)])
  }

  /// A dirty-tracked process allowed to idle exit starts dirty when the band it asks for is above
  /// IDLE — an active daemon's default, BACKGROUND, included — and is clean when a snapshot places
  /// it in IDLE, so that a `dirty` then moves it to its band.
  @Test func aTrackedDaemonStartsDirtyInItsBandUnlessASnapshotPlacesItInIdle() throws {
    let d = "d"
    let active = process(
      .activeDaemon, footprintMB: 10, band: 30, activeMB: 50, inactiveMB: 20, tracking: .idleExit)
    var defaultBand = active
    defaultBand.band = nil
    try verify(
      defaultBand,
      [
        Check(line: 0, second: 1, action: nil, band: 30, limitMB: 50),
        Check(line: 0, second: 2, action: .clean(d), band: 10, limitMB: 50),
        Check(line: 0, second: 3, action: .dirty(d), band: 30, limitMB: 50),
      ])
    var device = DeviceProfile(name: "4 GB", memoryKB: mb(4096), reservedKB: mb(1000))
    device.systemProcesses = [active]
    var scenario = Scenario(
      name: "snapshot", device: device, apps: [Fixture.app("a", resident: 50)],
      actions: [TimedAction(sec(1), .dirty(d))], policy: .jetsam, durationMs: sec(2))
    scenario.snapshot = Snapshot([.init(process: d, state: .background, band: 0)])
    let (before, _) = try observe(scenario, 1, atMs: sec(1) - 1)
    let (after, limit) = try observe(scenario, 1, atMs: sec(1))
    #expect(before == 0 && after == 30 && limit == 50)
  }

  /// `set_assertion_pri_unmanaged` (line 480): an unmanaged process cannot take an assertion
  /// (`EPERM`); a dirty state needs dirty tracking (`memorystatus_dirty_set` returns `EINVAL`
  /// untracked, :3543–3546). jetsim refuses such a workload before the run, naming the action.
  @Test func setAssertionPriUnmanaged() throws {
    var device = Fixture.device
    device.systemProcesses = [
      SystemProcess(name: "daemon", kind: .activeDaemon, footprintKB: mb(10)),
      SystemProcess(name: "idle", kind: .idleDaemon, footprintKB: mb(10)),
    ]
    func problem(_ action: Action) -> String? {
      let scenario = Scenario(
        name: "s", device: device, apps: [Fixture.app("a", resident: 50)],
        actions: [TimedAction(0, action)], policy: .jetsam)
      do {
        try scenario.checkWorkload()
        return nil
      } catch {
        return "\(error)"
      }
    }
    #expect(
      problem(.assert("daemon", band: 100))?.contains("RunningBoard does not manage it") == true)
    #expect(problem(.dirty("daemon"))?.contains("it is not dirty-tracked") == true)
    #expect(problem(.dirty("a"))?.contains("an app is not dirty-tracked") == true)
    #expect(problem(.dirty("idle"))?.contains("no band above IDLE to be in while dirty") == true)
    #expect(problem(.assert("a", band: 100)) == nil)
    #expect(problem(.assert("nobody", band: 100))?.contains("nobody") == true)
  }

  /// The limit in force decides the high-watermark candidates (`memorystatus_kill_hiwat_proc`,
  /// kern_memorystatus.c:6975, against `p_memstat_memlimit`): a daemon over its inactive limit
  /// but under its active one is safe while it ages in band 10, and killed (`highwater`) once it
  /// is in IDLE, below the pressure level.
  @Test func theLimitInForceDecidesAHighWatermarkKill() throws {
    var device = DeviceProfile(name: "2 GB", memoryKB: mb(2048), reservedKB: mb(1400))
    // No reaper, and available memory (218 MB) above the idle level (204.8 MB): only the aging
    // end itself can wake jetsam to the high-watermark kill.
    device.reaper.enabled = false
    device.systemProcesses = [
      process(
        .idleDaemon, footprintMB: 30, band: 80, activeMB: 40, inactiveMB: 20, fatal: false,
        agingTimeMs: sec(10))
    ]
    let scenario = Scenario(
      name: "hiwat", device: device, apps: [Fixture.app("a", resident: 400)],
      actions: [TimedAction(0, .open("a")), TimedAction(sec(1), .clean("d"))], policy: .jetsam,
      durationMs: sec(30))
    let result = try Simulator.run(scenario)
    let kills = result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" }
    #expect(result.summary.metrics.minAvailableKB < device.warningThresholdKB)
    #expect(result.summary.metrics.minAvailableKB > device.idleThresholdKB)
    #expect(kills == ["d highwater @11000"])
  }
}
