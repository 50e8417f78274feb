import Foundation
import Jetsim

/// The checks behind `expectKillOrder` and `XCTAssertKillOrder`: each returns nil when the kill order
/// is as expected, or the message a failing test shows, in `jetsim check`'s words (with the test's
/// own way to record, not command-line flags).
///
/// Set the environment variable `RECORD_SNAPSHOTS=1` to record the golden reports instead of
/// comparing (as jetsim's own tests and swift-snapshot-testing do): the assertion then writes them
/// and fails once, to remind you to review the diff and run again without it.
public enum KillOrderAssertion {
  /// The environment variable that switches to recording.
  public static let recordVariable = "RECORD_SNAPSHOTS"

  /// Whether the tests are recording golden reports (`RECORD_SNAPSHOTS=1`).
  public static var isRecording: Bool {
    ProcessInfo.processInfo.environment[recordVariable] == "1"
  }

  /// Runs the scenario file at `path` and compares it with the golden reports in `folder`: its kill
  /// order, and with `events` its event log; with `numbers`, the numbers too. In record mode, records
  /// them instead.
  public static func failure(
    ofScenarioAt path: String, matchesGoldenIn folder: String, events: Bool = false,
    numbers: Bool = false
  ) -> String? {
    failure(
      ofScenarioAt: path, matchesGoldenIn: folder, events: events, numbers: numbers,
      recording: isRecording)
  }

  /// The check, recording when `recording` is true whatever the environment says.
  static func failure(
    ofScenarioAt path: String, matchesGoldenIn folder: String, events: Bool, numbers: Bool,
    recording: Bool
  ) -> String? {
    let scenario: Scenario
    do {
      scenario = try ProfileLoader.scenario(at: path)
    } catch {
      return "jetsim: \(error)"
    }
    if recording {
      do {
        let files = try GoldenCheck.update(scenario, in: folder, events: events)
        let written = files.filter(\.written).map(\.file)
        return written.isEmpty
          ? "recording is on (\(recordVariable)=1) and \(folder) was already up to date; run again without it"
          : "recorded \(written.joined(separator: ", ")) in \(folder) (\(recordVariable)=1); review the diff, then run again without \(recordVariable)"
      } catch {
        return "jetsim: \(error)"
      }
    }
    do {
      let result = try GoldenCheck.check(
        scenario, against: folder, options: GoldenCheckOptions(events: events, numbers: numbers))
      guard !result.passed else { return nil }
      let remedy = { (remedy: GoldenCheckResult.Remedy) -> String? in
        remedy == .rerecord ? "re-record it with \(recordVariable)=1" : nil
      }
      return result.report(remedy: remedy)
        + (result.rerecordingHelps
          ? "  if the new behaviour is right: record it with \(recordVariable)=1 and review the diff\n"
          : "")
    } catch .goldenMissing {
      return
        "jetsim: no golden report in \(folder) yet; run this test once with \(recordVariable)=1 to record it"
    } catch .badGolden(let path, let line, let problem) {
      let error = JetsimError.badGolden(path: path, line: line, problem: problem)
      return "jetsim: \(error) (run this test once with \(recordVariable)=1)"
    } catch {
      return "jetsim: \(error)"
    }
  }

  /// Runs `scenario` and compares the processes it kills, in order, with `expected` (app ids or
  /// system process names). The sequences are aligned, so one kill too many is one difference.
  public static func failure(of scenario: Scenario, toBe expected: [String]) -> String? {
    failure(ofRunning: scenario) { failure(of: $0, named: scenario.name, toBe: expected) }
  }

  /// Runs `scenario` and checks its result, its kills without its events, with `check`; a run that
  /// fails is a failure too.
  static func failure(ofRunning scenario: Scenario, _ check: (RunResult) -> String?) -> String? {
    let result: RunResult
    do {
      result = try Simulator.runKeepingKills(scenario)
    } catch {
      return "jetsim: \(error)"
    }
    return check(result)
  }

  /// The aligned comparison of `result`'s kills (the first `expected.count` with `prefix`) with
  /// `expected`.
  static func failure(
    of result: RunResult, named name: String, toBe expected: [String], prefix: Bool = false
  ) -> String? {
    let all = result.kills.map { result.summary.appIDs[$0.app] }
    let actual = prefix ? Array(all.prefix(expected.count)) : all
    guard actual != expected else { return nil }
    let heading =
      prefix
      ? "\(name): the first victims differ (expected \(expected.count.counted("kill")) first, got \(actual.count.counted("kill")))"
      : "\(name): the kill order differs (expected \(expected.count.counted("kill")), got \(actual.count))"
    guard let steps = SequenceDiff.align(expected, actual, limit: 2_000) else {
      return "\(heading): they differ in more than 2000 places"
    }
    let elements = KillOrder.Elements(
      noun: "kill", expectedKey: { expected[$0] }, actualKey: { actual[$0] },
      name: { actual[$0] }, expected: { expected[$0] },
      actual: { index in
        let kill = result.kills[index]
        return
          "\(actual[index]) (\(Units.megabytes(kill.footprintKB)), \(kill.state), \(kill.reason))"
      }, expectedTime: { _ in nil }, actualTime: { Units.clock(result.kills[$0].timeMs) })
    let words = KillOrder.words(for: steps, elements)
    let differences = words.lines
    let shown = differences.prefix(5).map { "  \($0)" }.joined(separator: "\n")
    let rest = differences.count > 5 ? "\n  and \(differences.count - 5) more differences" : ""
    return "\(heading), \(words.edits.summary):\n\(shown)\(rest)"
  }

  /// Runs `scenario` and checks each of `expectations` against its kills; nil when all hold, else
  /// every failure, one a line, in the words of `jetsim check`.
  public static func failure(of scenario: Scenario, _ expectations: [KillExpectation]) -> String? {
    failure(ofRunning: scenario) { result in
      let failures = expectations.compactMap { $0.failure(in: result, named: scenario.name) }
      return failures.isEmpty ? nil : failures.joined(separator: "\n")
    }
  }
}

/// A narrower question about a run's kills than its whole order, for `expectKills` and
/// `XCTAssertKills`.
public enum KillExpectation: Sendable, Equatable {
  /// The run's first victims are these, in this order (more may follow).
  case firstVictims([String])
  /// Both die, the first before the second.
  case diesBefore(String, String)
  /// The process is never killed.
  case neverKilled(String)
  /// No process is killed before this time, in milliseconds.
  case noKillBefore(ms: Int)

  /// Why `result` does not meet it, or nil.
  func failure(in result: RunResult, named name: String) -> String? {
    let victims = result.kills.map { result.summary.appIDs[$0.app] }
    /// `kill #3 at 00:01:05.000: com.example.maps (180.0 MB, suspended, vm-pageshortage)`.
    func describe(_ index: Int) -> String {
      let kill = result.kills[index]
      return
        "kill #\(index + 1) at \(Units.clock(kill.timeMs)): \(victims[index]) (\(Units.megabytes(kill.footprintKB)), \(kill.state), \(kill.reason))"
    }
    switch self {
    case .firstVictims(let expected):
      return KillOrderAssertion.failure(of: result, named: name, toBe: expected, prefix: true)
    case .diesBefore(let first, let second):
      guard let a = victims.firstIndex(of: first) else {
        return "\(name): \(first) was to die before \(second) but is never killed"
      }
      guard let b = victims.firstIndex(of: second) else {
        return "\(name): \(second) was to die after \(first) but is never killed"
      }
      return a < b
        ? nil : "\(name): \(second) dies before \(first): \(describe(b)); then \(describe(a))"
    case .neverKilled(let process):
      return victims.firstIndex(of: process).map {
        "\(name): \(process) is killed: \(describe($0))"
      }
    case .noKillBefore(let time):
      guard let index = result.kills.firstIndex(where: { $0.timeMs < time }) else { return nil }
      return "\(name): a kill before \(Units.clock(time)): \(describe(index))"
    }
  }
}
