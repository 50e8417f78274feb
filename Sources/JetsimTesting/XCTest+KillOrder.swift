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
  report(
    KillOrderAssertion.failure(ofScenarioAt: path, matchesGoldenIn: folder, events: events),
    file: file, line: line)
}

/// Fails the current XCTest test unless `scenario` kills exactly the apps `expected` names, in order.
public func XCTAssertKillOrder(
  of scenario: Scenario, toBe expected: [String], file: StaticString = #filePath, line: UInt = #line
) {
  report(KillOrderAssertion.failure(of: scenario, toBe: expected), file: file, line: line)
}

/// Where XCTest failures go; tests of this module replace it to see the message.
nonisolated(unsafe) var xctFail: (String, StaticString, UInt) -> Void = { message, file, line in
  XCTFail(message, file: file, line: line)
}

private func report(_ message: String?, file: StaticString, line: UInt) {
  if let message { xctFail(message, file, line) }
}
