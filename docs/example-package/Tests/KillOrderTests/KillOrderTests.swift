import Foundation
import Jetsim
import JetsimTesting
import Testing
import XCTest

/// This package's root, found from this file, so the tests pass from any working directory.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().path

/// Swift Testing: one line compares the run with the recorded golden kills.
@Test func morningKillOrderIsUnchanged() {
  expectKillOrder(
    ofScenarioAt: "\(root)/Scenarios/morning.json", matchesGoldenIn: "\(root)/Golden/morning")
}

/// Or spell the expected order out.
@Test func ourAppIsNotTheFirstToGo() throws {
  let scenario = try ProfileLoader.scenario(at: "\(root)/Scenarios/morning.json")
  expectKillOrder(of: scenario, toBe: ["com.example.browser", "com.example.ourapp"])
}

/// XCTest works the same way.
final class MorningKillOrderTests: XCTestCase {
  func testKillOrderIsUnchanged() {
    XCTAssertKillOrder(
      ofScenarioAt: "\(root)/Scenarios/morning.json", matchesGoldenIn: "\(root)/Golden/morning")
  }
}
