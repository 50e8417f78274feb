import JetsimTestSupport
import Testing

@testable import JetsimCore

/// Separate active and inactive limits, each fatal or not, as xnu-11417.101.15 (commit
/// e3723e1f17661b24996789d8afc084c0c3303b26) holds them, and kills counted per band.
@Suite struct JetsamMemoryLimitTests {
  /// 2 GB: critical 102.4 MB, idle 204.8, pressure 307.2; 550 MB usable.
  let device = DeviceProfile(name: "2 GB", memoryKB: mb(2048), reservedKB: mb(1498))

  /// App a (100 MB) with the limits `configure` gives, opened at 0 s; a allocates 100 MB at 10 s.
  func growing(_ configure: @escaping (inout AppProfile) -> Void) -> Scenario {
    Scenario(
      name: "limits", device: device,
      apps: [Fixture.app("a", resident: 100, configure: configure)],
      actions: [
        TimedAction(0, .open("a")), TimedAction(sec(10), .allocate("a", kilobytes: mb(100))),
      ],
      policy: .jetsam, durationMs: sec(20))
  }

  func kills(_ result: RunResult) -> [String] {
    result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" }
  }

  func events(_ result: RunResult, _ kind: EventKind) -> [Int] {
    result.events.filter { $0.kind == kind }.map(\.timeMs)
  }

  /// tests/vm/memorystatus_convert_limit_bytes.c lines 64–67, 81–84 and 98–101: a limit left out
  /// (−1 or 0) is the task limit, and fatal; lines 135–140: a limit given without
  /// `MEMORYSTATUS_MEMLIMIT_ATTR_FATAL` is kept, above the task limit too, and is not fatal
  /// (`memstat_set_memlimits_locked`, kern_memorystatus.c:3135–3169;
  /// `memorystatus_set_memlimit_properties`, :8785).
  @Test func aLimitLeftOutIsTheFatalTaskLimitAndAGivenOneIsNotFatal() {
    let task = mb(550)
    let onlyActive = MemoryLimits.resolved(
      activeKB: mb(800), activeFatal: nil, inactiveKB: nil, inactiveFatal: nil, taskLimitKB: task)
    #expect(onlyActive?.active == .init(kilobytes: mb(800), isFatal: false))
    #expect(onlyActive?.inactive == .init(kilobytes: task, isFatal: true))
    // A limit equal to the task limit is fatal even when asked for as non-fatal (:3159, :3168).
    let atTask = MemoryLimits.resolved(
      activeKB: task, activeFatal: false, inactiveKB: mb(50), inactiveFatal: true,
      taskLimitKB: task)
    #expect(atTask?.active == .init(kilobytes: task, isFatal: true))
    #expect(atTask?.inactive == .init(kilobytes: mb(50), isFatal: true))
    #expect(
      MemoryLimits.resolved(
        activeKB: nil, activeFatal: nil, inactiveKB: nil, inactiveFatal: nil, taskLimitKB: task)
        == nil)
  }

  /// `memorystatus_on_ledger_footprint_exceeded` (kern_memorystatus.c:4957–4971): crossing a
  /// fatal limit kills the process at once, `kMemorystatusKilledPerProcessLimit`
  /// (`per-process-limit`).
  @Test func crossingAFatalActiveLimitKillsAtOnce() throws {
    let result = try Simulator.run(
      growing {
        $0.activeLimitKB = mb(150)
        $0.activeLimitFatal = true
      })
    #expect(kills(result) == ["a per-process-limit @10000"])
    #expect(events(result, .limitExceeded).isEmpty)
  }

  /// tests/memorystatus_vm_map_fork.c line 444 (the child over its non-fatal limit exits
  /// normally); `memorystatus_on_ledger_footprint_exceeded` (kern_memorystatus.c:4972–4987): a
  /// non-fatal limit only notifies the process (and marks it a high-watermark candidate); above
  /// the pressure level nothing dies.
  @Test func crossingANonFatalLimitNotifiesAndKillsNobody() throws {
    let result = try Simulator.run(growing { $0.activeLimitKB = mb(150) })
    #expect(kills(result).isEmpty)
    #expect(events(result, .limitExceeded) == [sec(10)])
  }

  /// `memstat_update_memlimit_locked` (kern_memorystatus.c:193) on every band change
  /// (`memstat_update_priority_locked`, :2967–2971), active by `memstat_proc_is_active_locked`
  /// (:5034; a managed app is active while it holds an assertion): suspended, a's inactive limit
  /// (50 MB) is in force and it is over it; below the pressure level the high-watermark kill
  /// takes it (`memorystatus_kill_hiwat_proc`, :6975, skips only a process at or under
  /// `p_memstat_memlimit`), although its active limit (200 MB) was never crossed.
  @Test(arguments: [true, false])
  func theInactiveLimitComesIntoForceWhenTheAppSuspends(withInactiveLimit: Bool) throws {
    var scenario = Scenario(
      name: "inactive", device: device,
      apps: [
        Fixture.app("a", resident: 100, work: sec(1)) {
          $0.activeLimitKB = mb(200)
          if withInactiveLimit { $0.inactiveLimitKB = mb(50) }
        },
        Fixture.app("b", resident: 100),
      ],
      actions: [
        TimedAction(0, .open("a")), TimedAction(sec(10), .open("b")),
        // 550 − 300 = 250 MB available: below the pressure level, above the idle level.
        TimedAction(sec(20), .allocate("b", kilobytes: mb(100))),
      ],
      policy: .jetsam, durationMs: sec(30))
    scenario.name += withInactiveLimit ? "-50" : "-task"
    let result = try Simulator.run(scenario)
    #expect(kills(result) == (withInactiveLimit ? ["a highwater @20000"] : []))
    #expect(events(result, .limitExceeded).isEmpty)
  }

  /// tests/vm/memorystatus_kill_counts.c lines 94 and 99: every jetsam kill is counted in the
  /// victim's band (`_memstat_record_kill`, kern_memorystatus.c:2269); summary.csv's counts per
  /// band add up to the kills.csv rows with a band. Under a policy without bands there are none.
  @Test func killsAreCountedInTheVictimsBand() throws {
    let result = try Simulator.run(
      growing {
        $0.activeLimitKB = mb(150)
        $0.activeLimitFatal = true
      })
    #expect(result.summary.metrics.kills(inBand: 100) == 1)
    let counted = RunMetrics.countedBands.compactMap { result.summary.metrics.kills(inBand: $0) }
    #expect(counted.reduce(0, +) + (result.summary.metrics.kills(inBand: nil) ?? 0) == 1)
    var lru = growing {
      $0.activeLimitKB = mb(150)
      $0.activeLimitFatal = true
    }
    lru.policy = .lru
    let other = try Simulator.run(lru)
    #expect(kills(other) == ["a per-process-limit @10000"])
    #expect(other.summary.metrics.kills(inBand: 100) == nil)
  }
}
