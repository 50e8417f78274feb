import Jetsim
import XCTest

/// Fails the current XCTest test, with `jetsim check`'s words, unless the scenario file at `path`
/// kills the apps its golden `kills.csv` in `folder` names, in that order (and with `events`, produces
/// exactly its golden `events.csv`).
///
/// ```swift
/// func testKillOrderIsUnchanged() {
///   XCTAssertKillOrder(ofScenarioAt: "Scenarios/morning.json", matchesGoldenIn: "Golden/morning")
/// }
/// ```
public func XCTAssertKillOrder(
  ofScenarioAt path: String, matchesGoldenIn folder: String, events: Bool = false,
  file: StaticString = #filePath, line: UInt = #line
) {
  if let message = KillOrderAssertion.failure(
    ofScenarioAt: path, matchesGoldenIn: folder, events: events)
  {
    XCTFail(message, file: file, line: line)
  }
}

/// Fails the current XCTest test unless `scenario` kills exactly the apps `expected` names, in order.
public func XCTAssertKillOrder(
  of scenario: Scenario, toBe expected: [String], file: StaticString = #filePath, line: UInt = #line
) {
  assertKillOrder(of: scenario, toBe: expected) { XCTFail($0, file: file, line: line) }
}

/// The check of `XCTAssertKillOrder(of:toBe:)`, reporting a failure to `fail`: its tests see the
/// message this way.
func assertKillOrder(of scenario: Scenario, toBe expected: [String], fail: (String) -> Void) {
  if let message = KillOrderAssertion.failure(of: scenario, toBe: expected) { fail(message) }
}
