import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

/// `jetsim check`'s comparison: exact, readable, and telling behaviour from inputs apart.
@Suite struct GoldenCheckTests {
  let scratch: ScratchFolder
  let scenario: Scenario
  let golden: String

  init() throws {
    scratch = try ScratchFolder()
    scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    golden = scratch.path + "/golden"
    _ = try GoldenCheck.update(scenario, in: golden, events: true)
  }

  func editKills(_ edit: (inout [String]) -> Void) throws {
    var lines = try String(contentsOfFile: golden + "/kills.csv", encoding: .utf8).split(
      separator: "\n"
    ).map(String.init)
    edit(&lines)
    try scratch.write("golden/kills.csv", lines.joined(separator: "\n") + "\n")
  }

  @Test func passesOnUnchangedOutput() throws {
    let result = try GoldenCheck.check(scenario, against: golden, events: true)
    #expect(result.passed)
    #expect(
      result.report()
        == "daily-commute: kill order matches \(golden) (11 kills; 573 events match)\n")
  }

  @Test func aSwappedKillIsDescribedInWords() throws {
    try editKills { $0.swapAt(1, 2) }
    let result = try GoldenCheck.check(scenario, against: golden)
    #expect(!result.passed)
    #expect(
      result.differences.first
        == "kill #1 at 00:31:00.000: expected com.example.shortvideo (373.3 MB, suspended), got com.example.photofeed (242.0 MB, suspended) at 00:22:30.000"
    )
    #expect(result.differences.count == 2)
    #expect(
      result.report().contains(
        "cause: behaviour changed; the scenario and its profiles are the ones the golden was recorded with"
      ))
  }

  @Test func aMissingKillAndAnExtraKill() throws {
    try editKills { $0.remove(at: 5) }
    let missing = try GoldenCheck.check(scenario, against: golden)
    #expect(
      missing.differences.contains {
        $0.hasSuffix("got com.example.bank (85.0 MB, background, exit-on-suspend) at 00:53:00.000")
      })
    #expect(missing.differences.last?.contains("expected no kill, got com.example.arena") == true)
    try editKills { $0.removeAll { $0.contains("com.example.arena") } }
    _ = try GoldenCheck.update(scenario, in: golden)
    try editKills { $0.append($0[1]) }
    let extra = try GoldenCheck.check(scenario, against: golden)
    #expect(
      extra.differences == [
        "kill #12 at 00:22:30.000: expected com.example.photofeed (242.0 MB, suspended), got no kill"
      ])
  }

  @Test func aChangedProfileIsNamedAsTheCause() throws {
    var changed = scenario
    changed.apps[6].residentKB += 5 * 1024
    changed.inputs[8].sha256 = String(repeating: "0", count: 64)
    let result = try GoldenCheck.check(changed, against: golden)
    #expect(!result.passed)
    #expect(result.changedInputs == ["app com.example.photofeed (photofeed.json)"])
    #expect(
      result.report().contains(
        "cause: the inputs changed since the golden was recorded: app com.example.photofeed (photofeed.json)"
      ))
  }

  @Test func manyDifferencesAreCounted() throws {
    try editKills { lines in lines = [lines[0]] }
    let result = try GoldenCheck.check(scenario, against: golden)
    #expect(result.differences.count == 11)
    #expect(result.report(limit: 3).contains("  and 8 more differences\n"))
  }

  @Test func eventDifferencesNameTheEvent() {
    let header = ReportTables.eventColumns.joined(separator: ",")
    let expected =
      "\(header)\n1,0,a,launch,notRunning,inactive,willFinishLaunching,,100,900,normal\n"
    let differentSize =
      "\(header)\n1,0,a,launch,notRunning,inactive,willFinishLaunching,,120,880,normal\n"
    #expect(
      GoldenCheck.eventDifferences(expected: expected, actual: differentSize) == [
        "event #1 at 00:00:00.000, a launch notRunning>inactive willFinishLaunching: footprint_kb expected 100, got 120; free_kb expected 900, got 880"
      ])
    let differentEvent =
      "\(header)\n1,0,a,launch,notRunning,background,willFinishLaunching,,100,900,normal\n"
    #expect(
      GoldenCheck.eventDifferences(expected: expected, actual: differentEvent).first?.contains(
        "expected 'a launch notRunning>inactive willFinishLaunching', got 'a launch notRunning>background willFinishLaunching'"
      )
        == true)
  }

  @Test func updateRewritesExactlyTheChangedFiles() throws {
    try editKills { $0.swapAt(1, 2) }
    let before =
      try FileManager.default.attributesOfItem(atPath: golden + "/events.csv")[.modificationDate]
      as? Date
    let outcome = try GoldenCheck.update(scenario, in: golden, events: true)
    #expect(outcome.filter(\.written).map(\.file) == ["kills.csv"])
    #expect(
      outcome.map(\.file) == ["kills.csv", "events.csv", "run.json"], "the files the golden holds")
    let after =
      try FileManager.default.attributesOfItem(atPath: golden + "/events.csv")[.modificationDate]
      as? Date
    #expect(before == after)
    #expect(try GoldenCheck.check(scenario, against: golden, events: true).passed)
    #expect(try GoldenCheck.update(scenario, in: golden).allSatisfy { !$0.written })
  }

  @Test func aMissingGoldenIsAClearError() {
    #expect(throws: JetsimError.fileNotFound(path: scratch.path + "/none/kills.csv")) {
      try GoldenCheck.check(scenario, against: scratch.path + "/none")
    }
  }

  @Test func runJSONRoundTrips() throws {
    let result = try Simulator.run(scenario)
    let provenance = Provenance(scenario: scenario, summary: result.summary)
    #expect(Provenance(json: Data(provenance.json.utf8)) == provenance)
    #expect(provenance.inputs.count == 16)
    #expect(provenance.changedInputs(comparedTo: scenario.inputs).isEmpty)
  }
}
