import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// No input dropped without a word: what a run does not play is counted and said, and `--trace`
/// replaces the whole workload.
@Suite struct UnplayedInputTests {
  @Test func traceLinesAfterTheEndAreCountedInTheTextAndRunJSON() throws {
    let scratch = try ScratchFolder()
    let trace = packagePath("Profiles/traces/evening-social.csv")
    let end = 600_000
    let after = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
      .dropFirst().compactMap { Int($0.split(separator: ",").first ?? "") }.filter { $0 > end }
    try #require(!after.isEmpty, "the trace runs past ten minutes")
    let run = try jetsim([
      "run", scenarioPath("evening-social"), "--trace", trace, "--duration", "10m", "--out",
      scratch.file("out"),
    ])
    #expect(run.status == 0, "\(run.errors)")
    let line = run.output.split(separator: "\n").filter { $0.contains("not played") }
    #expect(
      line == [
        "  not played       \(after.count) trace lines after the run's end (\(Units.clock(end))), the first at \(Units.clock(after[0])); a longer --duration plays them"
      ])
    let provenance = try #require(Provenance(json: Array(try scratch.read("out/run.json").utf8)))
    #expect(
      provenance.unplayed == UnplayedActions(script: 0, trace: after.count, firstMs: after[0]))
    #expect(provenance.endMs == end)
    // Played to its end, the trace leaves nothing: no line, no key.
    let whole = try jetsim([
      "run", scenarioPath("evening-social"), "--trace", trace, "--out", scratch.file("whole"),
    ])
    #expect(!whole.output.contains("not played"))
    #expect(!(try scratch.read("whole/run.json")).contains("not_played"))
  }

  @Test func scriptActionsAfterTheEndAreCountedByTheLibrary() throws {
    var scenario = try ProfileLoader.scenario(at: scenarioPath("worked-example"))
    let last = try #require(scenario.actions.last?.timeMs)
    let after = scenario.actions.filter { $0.timeMs > last / 2 }
    scenario.durationMs = last / 2
    let summary = try Simulator.run(scenario).summary
    #expect(summary.unplayed.script == after.count && summary.unplayed.trace == 0)
    #expect(summary.unplayed.firstMs == after.first?.timeMs)
    scenario.durationMs = nil
    #expect(try Simulator.run(scenario).summary.unplayed == UnplayedActions())
  }

  @Test func aTraceReplacesTheUserModelToo() throws {
    // light-user-2gb draws its workload from a user model (hundreds of opens in its 8 hours);
    // with --trace only the trace's two opens play.
    let scratch = try ScratchFolder()
    let scenario = scenarioPath("light-user-2gb")
    let trace = try scratch.write(
      "t.csv", "time_ms,action,app,value\n0,open,com.example.mail,\n60000,open,com.example.notes,\n"
    )
    let run = try jetsim(["run", scenario, "--trace", trace, "--out", scratch.file("out")])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.contains("  opens            2 (cold launches 2, warm resumes 0)"))
  }
}
