import Jetsim

/// The checks behind `expectKillOrder` and `XCTAssertKillOrder`: each returns nil when the kill order
/// is as expected, or the message a failing test shows, the same words `jetsim check` prints.
public enum KillOrderAssertion {
  /// Runs the scenario file at `path` and compares it with the golden reports in `folder`
  /// (`kills.csv`, and `events.csv` with `events`).
  public static func failure(
    ofScenarioAt path: String, matchesGoldenIn folder: String, events: Bool = false
  ) -> String? {
    do {
      let scenario = try ProfileLoader.scenario(at: path)
      let result = try GoldenCheck.check(scenario, against: folder, events: events)
      return result.passed ? nil : result.report()
    } catch {
      return "jetsim: \(error)"
    }
  }

  /// Runs `scenario` and compares the apps it kills, in order, with `expected` (app ids).
  public static func failure(of scenario: Scenario, toBe expected: [String]) -> String? {
    let result: RunResult
    do {
      result = try Simulator.run(scenario)
    } catch {
      return "jetsim: \(error)"
    }
    let actual = result.kills
    var differences: [String] = []
    for index in 0..<max(expected.count, actual.count) {
      let want = index < expected.count ? expected[index] : nil
      let got = index < actual.count ? actual[index] : nil
      let gotID = got.map { result.summary.appIDs[$0.app] }
      guard want != gotID else { continue }
      let time = got.map { " at \(Units.clock($0.timeMs))" } ?? ""
      let gotText =
        got.map {
          "\(result.summary.appIDs[$0.app]) (\(Units.megabytes($0.footprintKB)), \($0.state), \($0.reason))"
        } ?? "no kill"
      differences.append("kill #\(index + 1)\(time): expected \(want ?? "no kill"), got \(gotText)")
    }
    guard !differences.isEmpty else { return nil }
    let shown = differences.prefix(5).map { "  \($0)" }.joined(separator: "\n")
    let rest = differences.count > 5 ? "\n  and \(differences.count - 5) more differences" : ""
    return
      "\(scenario.name): the kill order differs (\(differences.count) of \(max(expected.count, actual.count)) kills)\n\(shown)\(rest)"
  }
}
