import Foundation
import JetsimTestSupport
import Testing

/// The priority actions (`assert`, `release`, `dirty`, `clean`) from a trace, as a user runs them:
/// what jetsam does with them, what events.csv shows, and the one-line errors for actions a process
/// cannot take.
@Suite struct PriorityActionsEndToEndTests {
  /// A 2 GB device whose app leaves available memory (188 MB) below the idle level (204.8 MB),
  /// with a managed idle daemon that starts dirty in band 80 and an unmanaged active daemon.
  static let scenario = """
    {
      "version": 1, "name": "priority",
      "device": {"name": "2 GB", "memory": "2048MB", "reserved": "1200MB",
        "systemProcesses": [
          {"name": "helperd", "kind": "idle-daemon", "footprint": "120MB", "band": 80,
           "agingTime": "10s", "managed": true},
          {"name": "locationd", "kind": "active-daemon", "footprint": "40MB"}
        ]},
      "apps": [{"id": "maps", "resident": "500MB"}],
      "trace": "trace.csv",
      "duration": "60s"
    }
    """

  static let trace = """
    time_ms,action,app,value
    0,open,maps,
    5000,assert,helperd,100
    6000,clean,helperd,
    20000,release,helperd,

    """

  /// Clean, the daemon would age 10 s and die (`idle-exit`) at 16 s; the assertion holds it in
  /// band 100 until it is released at 20 s, so it dies at 30 s, in IDLE.
  @Test func anAssertionHoldsACleanDaemonUntilItIsReleased() throws {
    let scratch = try ScratchFolder()
    let scenario = try scratch.write("s.json", Self.scenario)
    _ = try scratch.write("trace.csv", Self.trace)
    let run = try jetsim(["run", scenario, "--policy", "jetsam", "-o", scratch.path + "/out", "-q"])
    #expect(run.status == 0, "\(run.errors)")
    let kills = try String(contentsOfFile: scratch.path + "/out/kills.csv", encoding: .utf8)
    let rows = kills.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
    #expect(
      rows.map { "\($0[1]) \($0[2]) \($0[3]) band \($0[13])" } == [
        "30000 helperd idle-exit band 0"
      ])
    let events = try String(contentsOfFile: scratch.path + "/out/events.csv", encoding: .utf8)
    let priority = events.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    .filter { ["assert", "clean", "release"].contains($0[3]) }
    .map { "\($0[1]) \($0[2]) \($0[3]) \($0[7])" }
    #expect(
      priority == ["5000 helperd assert band 100", "6000 helperd clean ", "20000 helperd release "])
  }

  /// Without the assertion the same clean daemon dies when its aging ends, at 16 s.
  @Test func withoutTheAssertionItDiesWhenItsAgingEnds() throws {
    let scratch = try ScratchFolder()
    let scenario = try scratch.write("s.json", Self.scenario)
    _ = try scratch.write(
      "trace.csv", "time_ms,action,app,value\n0,open,maps,\n6000,clean,helperd,\n")
    let run = try jetsim(["run", scenario, "--policy", "jetsam", "-o", scratch.path + "/out", "-q"])
    #expect(run.status == 0, "\(run.errors)")
    let kills = try String(contentsOfFile: scratch.path + "/out/kills.csv", encoding: .utf8)
    #expect(
      kills.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] } == ["16000"])
  }

  /// Each action a process cannot take is refused before the run, exit 65, with one line naming the
  /// trace's line and what is expected; no reports are written.
  @Test(arguments: [
    (
      "25000,assert,helperd,5",
      "t.csv:6: 'assert' needs a band: 0 to give the assertion up, or 21 to 210"
    ),
    (
      "25000,dirty,maps,",
      "t.csv:6: 'dirty maps': an app is not dirty-tracked"
    ),
    ("25000,assert,locationd,100", "t.csv:6: 'assert locationd': RunningBoard does not manage it"),
    ("25000,clean,locationd,", "t.csv:6: 'clean locationd': it is not dirty-tracked"),
    ("25000,assert,nobody,100", "'nobody' is not an app or system process of the scenario"),
  ])
  func anActionAProcessCannotTakeIsRefused(line: String, message: String) throws {
    let scratch = try ScratchFolder()
    let scenario = try scratch.write(
      "s.json", Self.scenario.replacingOccurrences(of: "trace.csv", with: "t.csv"))
    _ = try scratch.write("t.csv", Self.trace + line + "\n")
    for command in [["validate", scenario], ["run", scenario, "-o", scratch.path + "/out", "-q"]] {
      let result = try jetsim(command)
      #expect(result.status == 65)
      #expect(result.errors.contains(message), "\(result.errors)")
      #expect(result.errors.split(separator: "\n").count == 1)
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/out"))
  }
}
