import Jetsim
import Testing

/// Fails the current Swift Testing test, with `jetsim check`'s words, unless the scenario file at
/// `path` kills the apps its golden `kills.csv` in `folder` names, in that order (and with `events`,
/// produces exactly its golden `events.csv`). Paths are relative to the working directory, which
/// `swift test` sets to the package's root.
///
/// ```swift
/// @Test func killOrderIsUnchanged() {
///   expectKillOrder(ofScenarioAt: "Scenarios/morning.json", matchesGoldenIn: "Golden/morning")
/// }
/// ```
public func expectKillOrder(
  ofScenarioAt path: String, matchesGoldenIn folder: String, events: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  if let message = KillOrderAssertion.failure(
    ofScenarioAt: path, matchesGoldenIn: folder, events: events)
  {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}

/// Fails the current Swift Testing test unless `scenario` kills exactly the apps `expected` names, in
/// that order.
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
