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
        $0.rawValue.contains("worked-example: the kill order differs from")
          && $0.rawValue.hasSuffix(
            "if the new behaviour is right: record it with RECORD_SNAPSHOTS=1 and review the diff\n"
          )
          && !$0.rawValue.contains("--update")
      }
    }
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

  @Test func aBadPathIsAFailureNotACrash() {
    withKnownIssue {
      expectKillOrder(ofScenarioAt: "nowhere.json", matchesGoldenIn: "nowhere")
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue
          == "jetsim: nowhere.json: no such file; check the path (relative paths start at the referring file)"
      }
    }
  }
}

final class XCTestHelperTests: XCTestCase {
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
      "worked-example: the kill order differs (expected 2 kills, got 1), 1 difference:\n  kill #2: expected example.c, got no kill there"
    )
  }
}
