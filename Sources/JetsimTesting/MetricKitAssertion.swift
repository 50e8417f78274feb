import Jetsim

/// The check behind `expectMetricKitExits` and `XCTAssertMetricKitExits`: what MetricKit would
/// report to an app for a workload, against a ceiling an app team sets.
public enum MetricKitAssertion {
  /// Runs `scenario` on each of `seeds` (its own seed when empty) and checks that `app` has at most
  /// `limit` exits of `exit` in every run; nil when it does, else one line a failing seed naming
  /// the kills behind the count, in the words of `jetsim check`.
  public static func failure(
    of scenario: Scenario, app: String, exit: MetricKitExit, atMost limit: Int, seeds: [UInt64]
  ) -> String? {
    var failures: [String] = []
    for seed in seeds.isEmpty ? [scenario.seed] : seeds {
      var run = scenario
      run.seed = seed
      let result: RunResult
      do {
        result = try Simulator.run(run)
      } catch {
        return "jetsim: \(error)"
      }
      guard let index = result.summary.appIDs.firstIndex(of: app), index < result.summary.appCount
      else {
        return "\(scenario.name): no app \(app) in the scenario"
      }
      let behind = result.kills.enumerated().filter { _, kill in
        kill.app == index
          && MetricKitExit.counter(for: kill.reason, foreground: kill.state.isForeground) == exit
      }
      guard behind.count > limit else { continue }
      let shown = behind.prefix(5).map { number, kill in
        "kill #\(number + 1) at \(Units.clock(kill.timeMs)) (\(kill.reason), \(kill.state), \(Units.megabytes(kill.footprintKB)))"
      }
      failures.append(
        "\(scenario.name): \(app) has \(behind.count) \(exit) exits on seed \(seed), more than \(limit): "
          + shown.joined(separator: "; ")
          + (behind.count > 5 ? "; and \(behind.count - 5) more" : ""))
    }
    return failures.isEmpty ? nil : failures.joined(separator: "\n")
  }
}
