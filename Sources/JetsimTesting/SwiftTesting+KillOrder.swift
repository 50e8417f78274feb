import Jetsim
import Testing

/// Fails the current Swift Testing test, with `jetsim check`'s words, unless the scenario file at
/// `path` kills the processes its golden `kills.csv` in `folder` names, for the same reasons, in the
/// same states and order (with `events`, its event log matches the golden `events.csv` the same way;
/// with `numbers`, times, sizes and ranks must match too). Paths are relative to the working
/// directory, which `swift test` sets to the package's root.
///
/// Run the tests with `RECORD_SNAPSHOTS=1` to record the golden reports instead: the test writes
/// them, fails once so that you review the diff, and passes when run again without it.
///
/// ```swift
/// @Test func killOrderIsUnchanged() {
///   expectKillOrder(ofScenarioAt: "Scenarios/morning.json", matchesGoldenIn: "Golden/morning")
/// }
/// ```
public func expectKillOrder(
  ofScenarioAt path: String, matchesGoldenIn folder: String, events: Bool = false,
  numbers: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) {
  if let message = KillOrderAssertion.failure(
    ofScenarioAt: path, matchesGoldenIn: folder, events: events, numbers: numbers)
  {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}

/// Fails the current Swift Testing test unless `scenario` kills exactly the processes `expected`
/// names (app ids or system process names), in that order.
///
/// ```swift
/// expectKillOrder(of: scenario, toBe: ["com.example.game", "com.example.maps"])
/// ```
public func expectKillOrder(
  of scenario: Scenario, toBe expected: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
  if let message = KillOrderAssertion.failure(of: scenario, toBe: expected) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}

/// Fails the current Swift Testing test unless every one of `expectations` holds for the kills of
/// `scenario`: its first victims, one process dying before another, a process never killed, no
/// kill before a time. Each failure is one line in `jetsim check`'s words.
///
/// ```swift
/// expectKills(of: scenario, .firstVictims(["com.example.game"]), .neverKilled("com.example.music"),
///   .noKillBefore(ms: 60_000))
/// ```
public func expectKills(
  of scenario: Scenario, _ expectations: KillExpectation...,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  if let message = KillOrderAssertion.failure(of: scenario, expectations) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}

/// Fails the current Swift Testing test unless `app` has at most `limit` exits of `exit` (by default
/// MetricKit's background memory-pressure exits, `cumulativeMemoryPressureExitCount`) in the run
/// of `scenario` on every one of `seeds` (its own seed when empty): a memory regression gate in
/// MetricKit's words. The message names each failing seed and the kills behind the count.
///
/// ```swift
/// var scenario = try ProfileLoader.scenario(at: "Scenarios/day.json")
/// scenario.device = try ProfileLoader.device(at: "Devices/iphone-12.json")
/// expectMetricKitExits(of: scenario, app: "com.example.myapp", atMost: 2, seeds: Array(1...10))
/// ```
public func expectMetricKitExits(
  of scenario: Scenario, app: String, _ exit: MetricKitExit = .backgroundMemoryPressure,
  atMost limit: Int, seeds: [UInt64] = [], sourceLocation: SourceLocation = #_sourceLocation
) {
  if let message = MetricKitAssertion.failure(
    of: scenario, app: app, exit: exit, atMost: limit, seeds: seeds)
  {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}
