import Foundation
import Jetsim
import JetsimTestSupport
import Testing
import XCTest

@testable import JetsimTesting

let workedExample = "\(packageRoot)/Profiles/scenarios/worked-example.json"

@Suite struct SwiftTestingHelperTests {
  @Test func passesOnTheGolden() {
    expectKillOrder(
      ofScenarioAt: workedExample, matchesGoldenIn: "\(packageRoot)/Reports/golden/worked-example",
      events: true, numbers: true)
  }

  @Test func passesOnTheRightOrder() throws {
    expectKillOrder(of: try ProfileLoader.scenario(at: workedExample), toBe: ["example.a"])
  }

  @Test func failsWithTheReadableMessage() throws {
    let scenario = try ProfileLoader.scenario(at: workedExample)
    withKnownIssue {
      expectKillOrder(of: scenario, toBe: ["example.b"])
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains(
          "kill #1 (00:03:00.000): expected example.b, got example.a (300.0 MB, suspended, vm-pageshortage)"
        )
      }
    }
  }

  @Test func failsOnAGoldenFromAnotherScenario() {
    withKnownIssue {
      expectKillOrder(
        ofScenarioAt: workedExample, matchesGoldenIn: "\(packageRoot)/Reports/golden/lifecycle-tour"
      )
    } matching: { issue in
      issue.comments.contains {
        // The golden names its scenario; recording over it would lose it, so no hint to.
        $0.rawValue.contains("worked-example: the kill order differs from")
          && $0.rawValue.hasSuffix(
            "cause: the golden was recorded for the scenario lifecycle-tour, not worked-example; check each scenario against its own golden\n"
          )
          && !$0.rawValue.contains("--update") && !$0.rawValue.contains("RECORD_SNAPSHOTS")
      }
    }
  }

  @Test func aGoldenThatCannotBeComparedSaysToRecordItAgain() throws {
    let scratch = try ScratchFolder()
    try scratch.write("golden/kills.csv", "")
    let message = KillOrderAssertion.failure(
      ofScenarioAt: workedExample, matchesGoldenIn: scratch.path + "/golden")
    #expect(
      message?.hasPrefix("jetsim: \(scratch.path)/golden/kills.csv: the file is empty; ") == true)
    #expect(
      message?.hasSuffix(
        "; re-record the golden (run this test once with RECORD_SNAPSHOTS=1)") == true,
      "\(message ?? "")")
  }

  @Test func aMissingGoldenSaysHowToRecordIt() throws {
    let scratch = try ScratchFolder()
    let message = KillOrderAssertion.failure(
      ofScenarioAt: workedExample, matchesGoldenIn: scratch.path + "/golden")
    #expect(
      message
        == "jetsim: no golden report in \(scratch.path)/golden yet; run this test once with RECORD_SNAPSHOTS=1 to record it"
    )
  }

  @Test func recordModeRecordsThenPasses() throws {
    let scratch = try ScratchFolder()
    let golden = scratch.path + "/golden"
    func run(recording: Bool) -> String? {
      KillOrderAssertion.failure(
        ofScenarioAt: workedExample, matchesGoldenIn: golden, events: true, numbers: true,
        recording: recording)
    }
    #expect(
      run(recording: true)
        == "recorded kills.csv, events.csv, run.json in \(golden) (RECORD_SNAPSHOTS=1); review the diff, then run again without RECORD_SNAPSHOTS"
    )
    #expect(
      run(recording: true)
        == "recording is on (RECORD_SNAPSHOTS=1) and \(golden) was already up to date; run again without it"
    )
    #expect(run(recording: false) == nil)
  }

  @Test func aMovedKillIsOneMove() throws {
    // lifecycle-tour's victims with the first expected last: the assertion names the move.
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/lifecycle-tour.json")
    let result = try Simulator.run(scenario)
    let victims = result.kills.map { result.summary.appIDs[$0.app] }
    try #require(victims.count > 2 && victims.dropFirst().allSatisfy { $0 != victims[0] })
    let expected = Array(victims.dropFirst()) + [victims[0]]
    let message = KillOrderAssertion.failure(of: scenario, toBe: expected)
    let time = Units.clock(result.kills[0].timeMs)
    #expect(
      message
        == "lifecycle-tour: the kill order differs (expected \(victims.count) kills, got \(victims.count)), 1 move:\n  \(victims[0]) moved from #\(victims.count) to #1 (\(time))"
    )
  }

  @Test func aBadPathIsAFailureNotACrash() {
    withKnownIssue {
      expectKillOrder(ofScenarioAt: "nowhere.json", matchesGoldenIn: "nowhere")
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue
          == "jetsim: nowhere.json: no such file; check the path"
      }
    }
  }
}

/// The narrower questions app engineers ask of a run's kills (lifecycle-tour's kills: bank at
/// 3:50, legacyscanner, cloudbackup, notes, music, weather, maps, mail at 6:40, camera, maps, arena).
@Suite struct KillExpectationTests {
  let tour = "\(packageRoot)/Profiles/scenarios/lifecycle-tour.json"

  @Test func everyExpectationThatHoldsPasses() throws {
    expectKills(
      of: try ProfileLoader.scenario(at: tour),
      .firstVictims(["com.example.bank", "com.example.legacyscanner"]),
      .diesBefore("com.example.notes", "com.example.camera"), .neverKilled("com.example.nobody"),
      .noKillBefore(ms: 230_000))
  }

  @Test(arguments: [
    (
      KillExpectation.firstVictims(["com.example.legacyscanner"]),
      "lifecycle-tour: the first victims differ (expected 1 kill first, got 1 kill), 1 insertion, 1 deletion:\n  kill #1 (00:03:50.000): expected com.example.legacyscanner, got com.example.bank (85.0 MB, background, exit-on-suspend)"
    ),
    (
      .diesBefore("com.example.camera", "com.example.notes"),
      "lifecycle-tour: com.example.notes dies before com.example.camera: kill #4 at 00:05:30.000: com.example.notes (45.0 MB, suspended, user-force-quit); then kill #9 at 00:08:20.000: com.example.camera (180.0 MB, suspended, vm-pageshortage)"
    ),
    (
      .diesBefore("com.example.nobody", "com.example.notes"),
      "lifecycle-tour: com.example.nobody was to die before com.example.notes but is never killed"
    ),
    (
      .neverKilled("com.example.arena"),
      "lifecycle-tour: com.example.arena is killed: kill #11 at 00:08:40.000: com.example.arena (1030.6 MB, active, per-process-limit)"
    ),
    (
      .noKillBefore(ms: 240_000),
      "lifecycle-tour: a kill before 00:04:00.000: kill #1 at 00:03:50.000: com.example.bank (85.0 MB, background, exit-on-suspend)"
    ),
  ])
  func aFailedExpectationSaysWhatHappened(expectation: KillExpectation, message: String) throws {
    let scenario = try ProfileLoader.scenario(at: tour)
    #expect(KillOrderAssertion.failure(of: scenario, [expectation]) == message)
    withKnownIssue {
      expectKills(of: scenario, expectation)
    } matching: { issue in
      issue.comments.contains { $0.rawValue == message }
    }
  }
}

final class XCTestHelperTests: XCTestCase {
  func testKillExpectationsReportEachFailureOnALine() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/lifecycle-tour.json")
    var messages: [String] = []
    assertKills(of: scenario, [.neverKilled("com.example.bank"), .noKillBefore(ms: 0)]) {
      messages.append($0)
    }
    XCTAssertEqual(messages.count, 1)
    XCTAssertEqual(
      messages.first,
      "lifecycle-tour: com.example.bank is killed: kill #1 at 00:03:50.000: com.example.bank (85.0 MB, background, exit-on-suspend)"
    )
    XCTAssertKills(of: scenario, .neverKilled("com.example.nobody"))
  }

  func testPassesOnTheGolden() {
    XCTAssertKillOrder(
      ofScenarioAt: workedExample, matchesGoldenIn: "\(packageRoot)/Reports/golden/worked-example")
  }

  func testFailsWithTheReadableMessage() throws {
    let scenario = try ProfileLoader.scenario(at: workedExample)
    var messages: [String] = []
    assertKillOrder(of: scenario, toBe: ["example.a", "example.c"]) { messages.append($0) }
    XCTAssertEqual(messages.count, 1)
    XCTAssertEqual(
      messages.first,
      "worked-example: the kill order differs (expected 2 kills, got 1), 1 deletion:\n  kill #2: expected example.c, got no kill there"
    )
  }
}

/// `expectMetricKitExits` / `XCTAssertMetricKitExits`: a ceiling on what MetricKit would report.
@Suite struct MetricKitAssertionTests {
  let dailyCommute = "\(packageRoot)/Profiles/scenarios/daily-commute.json"

  @Test func passesUnderTheCeiling() throws {
    let scenario = try ProfileLoader.scenario(at: dailyCommute)
    expectMetricKitExits(of: scenario, app: "com.example.photofeed", atMost: 2)
    expectMetricKitExits(
      of: scenario, app: "com.example.bank", MetricKitExit("background_normal_app")!, atMost: 1)
  }

  /// photofeed is killed twice for memory while suspended on the commute: a ceiling of 1 fails,
  /// naming the seed and both kills.
  @Test func failsOverItNamingTheKills() throws {
    let scenario = try ProfileLoader.scenario(at: dailyCommute)
    let message = try #require(
      MetricKitAssertion.failure(
        of: scenario, app: "com.example.photofeed", exit: .backgroundMemoryPressure, atMost: 1,
        seeds: []))
    #expect(
      message.hasPrefix(
        "daily-commute: com.example.photofeed has 2 background cumulativeMemoryPressureExitCount exits on seed 1, more than 1: kill #1 at 00:22:30.000 (vm-pageshortage, suspended,"
      ), "\(message)")
    #expect(
      message
        == "daily-commute: com.example.photofeed has 2 background cumulativeMemoryPressureExitCount exits on seed 1, more than 1: kill #1 at 00:22:30.000 (vm-pageshortage, suspended, 242.0 MB); kill #7 at 00:57:00.000 (vm-pageshortage, suspended, 227.0 MB)",
      "docs/metrickit.md quotes this message")
    withKnownIssue {
      expectMetricKitExits(of: scenario, app: "com.example.photofeed", atMost: 1)
    } matching: { issue in
      issue.comments.contains { $0.rawValue == message }
    }
    #expect(
      MetricKitAssertion.failure(
        of: scenario, app: "com.example.nobody", exit: .backgroundMemoryPressure, atMost: 0,
        seeds: []) == "daily-commute: no app com.example.nobody in the scenario")
  }
}

final class XCTestMetricKitTests: XCTestCase {
  func testACeilingHolds() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    XCTAssertMetricKitExits(of: scenario, app: "com.example.photofeed", atMost: 2, seeds: [1])
  }
}

/// docs/regression-testing.md's step 5 shows the messages a changed kill order fails with: they are
/// the library's, word for word.
@Suite struct DocumentedFailureMessageTests {
  let example = packagePath("docs/example-package")

  /// The code blocks of step 5 of docs/regression-testing.md.
  func blocks() throws -> [[String]] {
    let text = try String(
      contentsOfFile: packagePath("docs/regression-testing.md"), encoding: .utf8)
    let step = try #require(
      text.components(separatedBy: "**5. Run `swift test`.**").dropFirst().first)
    let section = step.components(separatedBy: "\n## ")[0]
    return section.components(separatedBy: "```\n").enumerated().filter { $0.offset % 2 == 1 }.map {
      $0.element.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
        String.init)
    }
  }

  @Test func theGoldenFailureIsTheLibrarys() throws {
    let scratch = try ScratchFolder()
    var kills = try String(contentsOfFile: "\(example)/Golden/morning/kills.csv", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    kills.swapAt(1, 2)
    try scratch.write("Golden/morning/kills.csv", kills.joined(separator: "\n") + "\n")
    try scratch.write(
      "Golden/morning/run.json",
      try String(contentsOfFile: "\(example)/Golden/morning/run.json", encoding: .utf8))
    let message = try #require(
      KillOrderAssertion.failure(
        ofScenarioAt: "\(example)/Scenarios/morning.json",
        matchesGoldenIn: "\(scratch.path)/Golden/morning", events: false, numbers: false,
        recording: false))
    let documented = try #require(blocks().first).joined(separator: "\n") + "\n"
    #expect(
      documented.replacingOccurrences(of: "/path/to/YourPackage", with: scratch.path) == message)
  }

  @Test func theSpelledOutOrderFailureIsTheLibrarys() throws {
    let scenario = try ProfileLoader.scenario(at: "\(example)/Scenarios/morning.json")
    let message = KillOrderAssertion.failure(
      of: scenario, toBe: ["com.example.ourapp", "com.example.browser"])
    let documented = try #require(blocks().dropFirst().first).joined(separator: "\n")
    #expect(documented == message)
  }
}
