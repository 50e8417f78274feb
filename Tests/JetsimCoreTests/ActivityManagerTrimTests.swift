import JetsimTestSupport
import Testing

@testable import JetsimCore

/// ActivityManager's trim of cached and empty processes (`OomAdjuster.updateAndTrimProcessLSP`,
/// frameworks/base 02978520d9e8fd1bc84ea68c4065178d4a1b7b7b, lines 1303–1454; the limits from
/// ActivityManagerConstants 6b4487863d1063ff2484ae1186bb615951f3bbdf, lines 1420–1428 and 1493:
/// `config_customizedMaxCachedProcesses` 32, half of it for empty processes, 8 empty ones kept
/// whatever their age). It kills by count, whatever the memory, in `lmkd`'s runs in either mode.
@Suite struct ActivityManagerTrimTests {
  /// A 16 GB device with `cached` suspended apps, C1 the most recently used, and F on screen: far
  /// more memory than they hold.
  static func harness(cached: Int) -> PolicyHarness {
    let device = DeviceProfile(name: "16 GB", memoryKB: mb(16_384), reservedKB: mb(2_048))
    var apps: [PolicyHarness.App] = [
      .init(id: "F", state: .active, footprintMB: 100, lastUsedMs: 99_000, enteredMs: 99_000)
    ]
    for rank in 1...cached {
      let lastUsedMs = 90_000 - rank * 1_000
      apps.append(.init(id: "C\(rank)", state: .suspended, footprintMB: 10, lastUsedMs: lastUsedMs))
    }
    return PolicyHarness(device: device, apps)
  }

  static func lmkd(_ change: (inout LmkdPolicy.Parameters) -> Void = { _ in }) -> LmkdPolicy {
    var parameters = LmkdPolicy.Parameters()
    change(&parameters)
    return LmkdPolicy(parameters: parameters)
  }

  /// Eighteen cached apps, sixteen allowed: the walk from the most recent meets C17, then C18.
  @Test(arguments: [false, true])
  func cachedAppsBeyondTheLimitDieWhateverTheMemory(legacy: Bool) {
    var harness = Self.harness(cached: 18)
    let killed = harness.decisions(Self.lmkd { $0.useMinfreeLevels = legacy })
    #expect(killed == ["kill C17 (am-too-many-cached)", "kill C18 (am-too-many-cached)"])
  }

  /// A cached app with a started service is counted neither as cached nor as empty
  /// (`updateAndTrimProcessLSP`, line 1402 at frameworks/base 02978520: process state SERVICE): with seventeen suspended apps,
  /// P (the previous app) and S (on screen before P, working in the background, more recent than
  /// every suspended app), the trim kills C17 alone; counted as cached, S would push C16 over the
  /// limit too.
  @Test func aStartedServiceIsNotCountedByTheTrim() {
    var harness = PolicyHarness(
      device: Self.harness(cached: 1).device,
      [
        .init(id: "F", state: .active, footprintMB: 100, lastUsedMs: 99_000, enteredMs: 99_000),
        .init(
          id: "S", state: .background, footprintMB: 10, lastUsedMs: 95_000, working: true,
          enteredMs: 95_000, leftScreen: true),
        .init(
          id: "P", state: .background, footprintMB: 10, lastUsedMs: 97_000, working: true,
          enteredMs: 97_000, leftScreen: true),
      ]
        + (1...17).map {
          .init(id: "C\($0)", state: .suspended, footprintMB: 10, lastUsedMs: 90_000 - $0 * 1_000)
        })
    #expect(harness.decisions(Self.lmkd()) == ["kill C17 (am-too-many-cached)"])
  }

  /// The limit is the device's: with 40 (20 for cached apps), the same eighteen stay.
  @Test func aLargerLimitKeepsThem() {
    var harness = Self.harness(cached: 18)
    #expect(harness.decisions(Self.lmkd { $0.maxCachedProcesses = 40 }).isEmpty)
    var exact = Self.harness(cached: 16)
    #expect(exact.decisions(Self.lmkd()).isEmpty, "sixteen is within the limit")
  }

  /// A device with `count` idle daemons (empty processes: no activities), E1 the most recently
  /// used, each last used at `lastUsed(rank)`.
  static func emptyHarness(count: Int, lastUsed: (Int) -> Int) -> PolicyHarness {
    var harness = harness(cached: 1)
    harness.device.systemProcesses = (1...count).map {
      SystemProcess(name: "E\($0)", kind: .idleDaemon, footprintKB: mb(5))
    }
    for rank in 1...count {
      harness.addIdleSystemProcess(footprintMB: 5)
      harness.apps[harness.apps.count - 1].lastUsedMs = lastUsed(rank)
    }
    return harness
  }

  /// Eighteen empty processes, sixteen allowed: E17 and E18 die for "too many empty".
  @Test func emptyProcessesBeyondTheirLimitDie() {
    var harness = Self.emptyHarness(count: 18) { 80_000 - $0 * 1_000 }
    #expect(
      harness.decisions(Self.lmkd()) == [
        "kill E17 (am-too-many-empty)", "kill E18 (am-too-many-empty)",
      ])
  }

  /// Seventeen cached apps and seventeen empty processes, one over each limit: E17 (used at 86.8 s)
  /// more recently than C17 (73 s). The walk meets the cached apps first all the same
  /// (ProcessList's LRU list keeps processes with activities above every process without), so C17
  /// dies before E17.
  @Test func theWalkMeetsTheCachedAppsBeforeTheEmptyProcesses() {
    var harness = Self.harness(cached: 17)
    harness.device.systemProcesses = (1...17).map {
      SystemProcess(name: "E\($0)", kind: .idleDaemon, footprintKB: mb(5))
    }
    for rank in 1...17 {
      harness.addIdleSystemProcess(footprintMB: 5)
      harness.apps[harness.apps.count - 1].lastUsedMs = 88_500 - rank * 100
    }
    #expect(
      harness.decisions(Self.lmkd()) == [
        "kill C17 (am-too-many-cached)", "kill E17 (am-too-many-empty)",
      ])
  }

  /// With `maxEmptyTime` 1 hour: six recent empty processes and six unused for more than an hour.
  /// The walk keeps E1 to E9 (it trims for age only once more than eight were kept), then trims
  /// E10, E11 and E12. With the default age, 1,000 hours, all twelve stay.
  @Test func emptyProcessesUnusedTooLongDieBeyondTheEightKept() {
    let nowMs = 5 * 3_600_000
    var harness = Self.emptyHarness(count: 12) { rank in
      rank <= 6 ? nowMs - rank * 60_000 : nowMs - 3_600_001 - rank * 60_000
    }
    harness.nowMs = nowMs
    var aged = harness
    #expect(
      aged.decisions(Self.lmkd { $0.maxEmptyTimeMs = 3_600_000 }) == [
        "kill E10 (am-trim-empty)", "kill E11 (am-trim-empty)", "kill E12 (am-trim-empty)",
      ])
    #expect(harness.decisions(Self.lmkd()).isEmpty)
  }

  /// A run: nineteen small apps opened one after another, 10 s apart, on a device with room for
  /// all of them. When a19 comes to the screen, a18 becomes the previous app and a17 is cached, the
  /// seventeenth: the least recent, a1, dies, with no memory pressure at all. jetsam, on the same
  /// run, kills nobody.
  @Test func aRunTrimsTheSeventeenthCachedApp() throws {
    let apps = (1...19).map { Fixture.app("a\($0)", resident: 20) }
    let device = DeviceProfile(name: "16 GB", memoryKB: mb(16_384), reservedKB: mb(2_048))
    let scenario = Scenario(
      name: "many", device: device, apps: apps,
      actions: (1...19).map { TimedAction(sec(10 * $0), .open("a\($0)")) }, policy: .lmkd,
      durationMs: sec(200))
    let result = try Simulator.run(scenario)
    #expect(
      result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" } == [
        "a1 am-too-many-cached @190000"
      ])
    #expect(result.summary.metrics.shortfalls == 0)
    var jetsam = scenario
    jetsam.policy = .jetsam
    #expect(try Simulator.run(jetsam).kills.isEmpty)
  }
}
