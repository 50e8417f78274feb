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
      events: true)
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
          "kill #1 at 00:03:00.000: expected example.b, got example.a (300.0 MB, suspended, vm-pageshortage)"
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
      issue.comments.contains { $0.rawValue.contains("worked-example: the run differs from") }
    }
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
      "worked-example: the kill order differs (1 of 2 kills)\n  kill #2: expected example.c, got no kill"
    )
  }
}
