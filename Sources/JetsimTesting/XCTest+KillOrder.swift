import Jetsim
import XCTest

/// Fails the current XCTest test, with `jetsim check`'s words, unless the scenario file at `path`
/// kills the processes its golden `kills.csv` in `folder` names, for the same reasons, in the same
/// states and order (with `events`, its event log matches the golden `events.csv` the same way; with
/// `numbers`, times, sizes and ranks must match too). `RECORD_SNAPSHOTS=1` records instead.
///
/// ```swift
/// func testKillOrderIsUnchanged() {
///   XCTAssertKillOrder(ofScenarioAt: "Scenarios/morning.json", matchesGoldenIn: "Golden/morning")
/// }
/// ```
public func XCTAssertKillOrder(
  ofScenarioAt path: String, matchesGoldenIn folder: String, events: Bool = false,
  numbers: Bool = false, file: StaticString = #filePath, line: UInt = #line
) {
  if let message = KillOrderAssertion.failure(
    ofScenarioAt: path, matchesGoldenIn: folder, events: events, numbers: numbers)
  {
    XCTFail(message, file: file, line: line)
  }
}

/// Fails the current XCTest test unless `scenario` kills exactly the processes `expected` names (app
/// ids or system process names), in that order.
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

/// Fails the current XCTest test unless every one of `expectations` holds for the kills of
/// `scenario` (see `KillExpectation`), with the same messages as `expectKills`.
///
/// ```swift
/// XCTAssertKills(of: scenario, .diesBefore("com.example.game", "com.example.maps"))
/// ```
public func XCTAssertKills(
  of scenario: Scenario, _ expectations: KillExpectation..., file: StaticString = #filePath,
  line: UInt = #line
) {
  assertKills(of: scenario, expectations) { XCTFail($0, file: file, line: line) }
}

/// The check of `XCTAssertKills`, reporting a failure to `fail`: its tests see the message this way.
func assertKills(of scenario: Scenario, _ expectations: [KillExpectation], fail: (String) -> Void) {
  if let message = KillOrderAssertion.failure(of: scenario, expectations) { fail(message) }
}

/// Fails the current XCTest test unless `app` has at most `limit` exits of `exit` in the run of
/// `scenario` on every one of `seeds`, with the same messages as `expectMetricKitExits`.
///
/// ```swift
/// XCTAssertMetricKitExits(of: scenario, app: "com.example.myapp", atMost: 2, seeds: [1, 2, 3])
/// ```
public func XCTAssertMetricKitExits(
  of scenario: Scenario, app: String, _ exit: MetricKitExit = .backgroundMemoryPressure,
  atMost limit: Int, seeds: [UInt64] = [], file: StaticString = #filePath, line: UInt = #line
) {
  if let message = MetricKitAssertion.failure(
    of: scenario, app: app, exit: exit, atMost: limit, seeds: seeds)
  {
    XCTFail(message, file: file, line: line)
  }
}
