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
    #expect(try kills(run("jetsam-band-order")) == ["repro.b vm-pageshortage @60000"])
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
      try kills(run("jetsam-no-decision-after-watchdog")).first == "repro.a vm-pageshortage @5000")
  }

  @Test func lmkdsPreviousAppIsClearedWhenItComesBack() throws {
    // X -> Y -> A -> home -> A: the previous app was A, now on screen; X (901) then Y (900) die.
    #expect(
      try kills(run("lmkd-previous-app")) == [
        "repro.x vm-pageshortage @50000", "repro.y vm-pageshortage @50000",
      ])
  }

  @Test func oomBadnessUsesThePreviousAppOfAndroid() throws {
    #expect(try kills(run("oom-badness-previous-app")) == ["repro.y vm-pageshortage @50000"])
  }

  @Test func ofTwoAppsLeavingInOneMillisecondTheLaterIsThePrevious() throws {
    #expect(
      try kills(run("oom-badness-previous-app-same-ms")) == ["repro.x vm-pageshortage @30000"])
  }
}
