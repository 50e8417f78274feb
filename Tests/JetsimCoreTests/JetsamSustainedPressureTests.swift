import JetsimTestSupport
import Testing

@testable import JetsimCore

/// jetsam's sustained-pressure kills as xnu-11417.101.15 (commit e3723e1f) makes them:
/// `memorystatus_update_vm_pressure` schedules `sustained_pressure_handler` 600 s after the pressure
/// level rises from normal (after at least 5 s at normal) and cancels it when the level returns to
/// normal (bsd/kern/kern_memorystatus_notify.c lines 1480–1529); the handler kills the head of
/// IDLE, one every 500 ms, while the level is not normal, at most twice as many as IDLE held when
/// it started (lines 1301–1336).
@Suite struct JetsamSustainedPressureTests {
  /// 2 GB: critical 102.4 MB, idle 204.8, pressure 307.2; 550 MB usable; no reaper, so that IDLE
  /// changes only by these kills.
  var device: DeviceProfile {
    var device = DeviceProfile(name: "2 GB", memoryKB: mb(2048), reservedKB: mb(1498))
    device.reaper.enabled = false
    return device
  }

  /// Three 20 MB apps opened at 0, 10 and 20 s, then a 250 MB game at 30 s: 240 MB available,
  /// the warning level (above the idle level), from 30 s on; each kill of a small app frees 20 MB,
  /// and even all three leave 300 MB, still below the pressure level.
  func scenario(_ name: String, extra: [TimedAction] = [], durationS: Int = 1_000) -> Scenario {
    Scenario(
      name: name, device: device,
      apps: [
        Fixture.app("s1", resident: 20), Fixture.app("s2", resident: 20),
        Fixture.app("s3", resident: 20), Fixture.app("game", resident: 250),
      ],
      actions: [
        TimedAction(0, .open("s1")), TimedAction(sec(10), .open("s2")),
        TimedAction(sec(20), .open("s3")), TimedAction(sec(30), .open("game")),
      ] + extra,
      policy: .jetsam, durationMs: sec(durationS))
  }

  func kills(_ result: RunResult) -> [String] {
    result.kills.map { "\(result.summary.appIDs[$0.app]) \($0.reason) @\($0.timeMs)" }
  }

  /// Ten minutes after the level left normal, the head of IDLE dies, then the next every 500 ms;
  /// with IDLE empty the handler stops, though the level stays at warning.
  @Test func tenMinutesAboveNormalKillTheIdleBandHalfASecondApart() throws {
    let result = try Simulator.run(scenario("sustained"))
    #expect(
      kills(result) == [
        "s1 sustained-memory-pressure @630000", "s2 sustained-memory-pressure @630500",
        "s3 sustained-memory-pressure @631000",
      ])
    #expect(result.summary.metrics.killsByReason[Int(KillReason.sustainedPressure.rawValue)] == 3)
  }

  /// A return to normal cancels the handler; the next rise schedules a new one ten minutes on.
  @Test func aReturnToNormalCancelsAndTheNextRiseStartsTheWindowAgain() throws {
    // The game quits at 300 s (normal again) and comes back at 400 s (warning again).
    let result = try Simulator.run(
      scenario(
        "cancelled",
        extra: [TimedAction(sec(300), .forceQuit("game")), TimedAction(sec(400), .open("game"))],
        durationS: 1_200))
    let sustained = kills(result).filter { $0.contains("sustained") }
    #expect(
      sustained == [
        "s1 sustained-memory-pressure @1000000", "s2 sustained-memory-pressure @1000500",
        "s3 sustained-memory-pressure @1001000",
      ])
  }

  /// A spell at normal shorter than 5 s cancels the handler and the rise after it schedules none
  /// (`prev_level_snapshot` never became normal); one of 5 s or more starts the window again.
  @Test(arguments: [(2, nil), (4, nil), (5, 905), (10, 910)] as [(Int, Int?)])
  func aDipToNormalShorterThanFiveSecondsCancelsForGood(dipS: Int, firstKillS: Int?) throws {
    let result = try Simulator.run(
      scenario(
        "dip-\(dipS)",
        extra: [
          TimedAction(sec(300), .forceQuit("game")), TimedAction(sec(300 + dipS), .open("game")),
        ],
        durationS: 1_500))
    let sustained = result.kills.filter { $0.reason == .sustainedPressure }
    #expect(sustained.first?.timeMs == firstKillS.map(sec))
    #expect(sustained.count == (firstKillS == nil ? 0 : 3))
  }

  /// The handler stops at the first kill after which the level reads normal: one 80 MB app's
  /// death brings 240 MB available back above the pressure level.
  @Test func theHandlerStopsOnceTheLevelIsNormal() throws {
    var scenario = scenario("relieved")
    scenario.apps[0].residentKB = mb(80)
    scenario.apps[3].residentKB = mb(190)
    let result = try Simulator.run(scenario)
    #expect(kills(result) == ["s1 sustained-memory-pressure @630000"])
  }

  /// The handler kills at most twice as many processes as IDLE held when it started: with one app
  /// in IDLE then (s1; the game alone beside it) and kills 100 s apart, s2 and s3 reach IDLE
  /// while it waits, and only s2 dies.
  @Test func atMostTwiceTheIdleBandsCount() throws {
    var parameters = JetsamPolicy.Parameters()
    parameters.sustainedPressureDelayMs = sec(100)
    var scenario = scenario("twice")
    // s1 and the game only until 630 s (280 MB available); then s2 and s3 visit the screen and
    // go to IDLE, the game back on screen each time.
    scenario.actions = [
      TimedAction(0, .open("s1")), TimedAction(sec(30), .open("game")),
      TimedAction(sec(650), .open("s2")), TimedAction(sec(660), .open("game")),
      TimedAction(sec(680), .open("s3")), TimedAction(sec(690), .open("game")),
    ]
    let result = try Simulator.run(scenario, policy: JetsamPolicy(parameters: parameters))
    #expect(
      kills(result) == [
        "s1 sustained-memory-pressure @630000", "s2 sustained-memory-pressure @730000",
      ])
  }

  /// `sustainedPressure: false` (`memorystatus_should_kill_on_sustained_pressure` 0) and a longer
  /// window are settings.
  @Test func theSettingsTurnItOffOrLengthenTheWindow() throws {
    var off = JetsamPolicy.Parameters()
    off.killsOnSustainedPressure = false
    #expect(try Simulator.run(scenario("off"), policy: JetsamPolicy(parameters: off)).kills.isEmpty)
    var longer = JetsamPolicy.Parameters()
    longer.sustainedPressureWindowMs = sec(900)
    let result = try Simulator.run(scenario("longer"), policy: JetsamPolicy(parameters: longer))
    #expect(kills(result).first == "s1 sustained-memory-pressure @930000")
  }
}
