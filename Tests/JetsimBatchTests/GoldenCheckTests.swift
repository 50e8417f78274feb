import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

/// `jetsim check`'s comparison: the kill order by default, the numbers when asked, aligned so that
/// one kill too many is one difference, and telling behaviour from inputs apart.
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

  /// Edits the golden `file`'s lines (the header is line 0).
  func edit(_ file: String = "kills.csv", _ change: (inout [String]) -> Void) throws {
    var lines = try String(contentsOfFile: "\(golden)/\(file)", encoding: .utf8).split(
      separator: "\n"
    ).map(String.init)
    change(&lines)
    try scratch.write("golden/\(file)", lines.joined(separator: "\n") + "\n")
  }

  func check(events: Bool = false, numbers: Bool = false) throws -> GoldenCheckResult {
    try GoldenCheck.check(
      scenario, against: golden, options: GoldenCheckOptions(events: events, numbers: numbers))
  }

  @Test func passesOnUnchangedOutput() throws {
    let kills = try check()
    #expect(kills.passed)
    #expect(kills.report() == "daily-commute: kill order matches \(golden) (12 kills)\n")
    let all = try check(events: true, numbers: true)
    #expect(all.passed)
    #expect(all.events ?? 0 > 500)
    #expect(
      all.report()
        == "daily-commute: kill order and event log (numbers included) match \(golden) (12 kills, \(all.events ?? 0) events)\n"
    )
  }

  @Test func theOrderIsCheckedAndTheNumbersOnlyWhenAsked() throws {
    // The same victims in the same order, every size off by 1 KB: the order still matches.
    try edit { lines in
      for index in lines.indices.dropFirst() {
        var fields = lines[index].split(separator: ",", omittingEmptySubsequences: false)
        fields[7] = Substring(String((Int(fields[7]) ?? 0) + 1))
        lines[index] = fields.joined(separator: ",")
      }
    }
    #expect(try check().passed)
    let numbers = try check(numbers: true)
    #expect(numbers.differences.count == 12)
    #expect(
      numbers.differences.first
        == "kill #1 (00:22:30.000), com.example.photofeed (242.0 MB, suspended): footprint_kb expected 242.0 MB (247809 KB), got 242.0 MB (247808 KB)"
    )
    // Within a tolerance the sizes match: 1 KB, or 1 % of each golden size.
    for tolerance in [NumberTolerance.kilobytes(1), .percent(1)] {
      let result = try GoldenCheck.check(
        scenario, against: golden, options: .init(numbers: true, tolerance: tolerance))
      #expect(result.passed, "\(tolerance): \(result.differences.prefix(2))")
    }
    // A tolerance too small, or on sizes only where a time is off, still fails.
    let strict = try GoldenCheck.check(
      scenario, against: golden, options: .init(numbers: true, tolerance: .percent(0.0001)))
    #expect(strict.differences.count == 12)
  }

  @Test func tolerancesReadAsAShareOrASize() {
    #expect(NumberTolerance("5%") == .percent(5))
    #expect(NumberTolerance("1MB") == .kilobytes(1024))
    #expect(NumberTolerance("101%") == nil && NumberTolerance("five") == nil)
    #expect(NumberTolerance.kilobytes(1024).matches("100", "1124", column: "free_kb"))
    #expect(!NumberTolerance.kilobytes(1024).matches("100", "101", column: "time_ms"))
    #expect(NumberTolerance.percent(10).matches("1000", "1100", column: "time_ms"))
    #expect(!NumberTolerance.percent(10).matches("1000", "1101", column: "time_ms"))
  }

  @Test func aSwappedPairIsOneMove() throws {
    try edit { $0.swapAt(1, 2) }
    let result = try check()
    // The golden kills mail first (#1), the run second (#2): one move, not a missing and an extra.
    #expect(result.differences == ["com.example.mail moved from #1 to #2 (00:30:00.000)"])
    #expect(result.killEdits == OrderEdits(moves: 1))
    #expect(
      result.report().hasPrefix("daily-commute: the kill order differs from \(golden) (1 move)\n"))
    #expect(
      result.report().contains(
        "cause: behaviour changed; the scenario and its profiles are the ones the golden was recorded with"
      ))
  }

  @Test func aKillMovedFarNamesBothPositionsAndBothTimes() throws {
    // The golden's third kill moved to its end, its time changed: the run kills it third.
    var moved = ""
    try edit { lines in
      let time = lines[0].split(separator: ",").firstIndex(of: "time_ms") ?? 0
      moved = lines.remove(at: 3)
      var fields = moved.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      fields[time] = String((Int(fields[time]) ?? 0) + 3_600_000)
      lines.append(fields.joined(separator: ","))
    }
    let app = moved.split(separator: ",", omittingEmptySubsequences: false)[2]  // kills.csv's app
    let result = try check()
    let count = result.kills
    #expect(
      result.differences == [
        "\(app) moved from #\(count) (01:31:00.000) to #3 (00:31:00.000)"
      ])
    #expect(result.killEdits == OrderEdits(moves: 1))
  }

  @Test func aKillInAnotherStateIsNotAMove() throws {
    // The same app at the same place but in another state: a replaced kill, not a move.
    try edit { lines in
      lines[3] = lines[3].replacingOccurrences(of: "suspended", with: "background")
    }
    let result = try check()
    #expect(result.differences.count == 1)
    #expect(
      result.differences.first?.contains(
        "expected com.example.shortvideo (373.3 MB, background), got com.example.shortvideo (373.3 MB, suspended)"
      ) == true)
    #expect(result.killEdits == OrderEdits(insertions: 1, deletions: 1))
  }

  @Test func oneInsertedKillIsOneDifference() throws {
    try edit { $0.remove(at: 5) }
    let missing = try check()
    #expect(missing.killEdits == OrderEdits(insertions: 1))
    #expect(
      missing.differences == [
        "an extra kill after kill #4 (00:53:00.000): com.example.bank (85.0 MB, background, exit-on-suspend)"
      ])
    try edit { $0.insert($0[2], at: 3) }
    #expect(
      try check().differences.count == 2,
      "one inserted kill, and the bank removed before")
  }

  @Test func aReplacedKillNamesBoth() throws {
    try edit { lines in lines[3] = lines[3].replacingOccurrences(of: "shortvideo", with: "game") }
    #expect(
      try check().differences == [
        "kill #3 (00:31:00.000): expected com.example.game (373.3 MB, suspended), got com.example.shortvideo (373.3 MB, suspended)"
      ])
  }

  @Test func anExtraEventIsOneDifferenceEvenInTheEventLog() throws {
    try edit("events.csv") { $0.remove(at: 38) }
    let result = try check(events: true)
    #expect(result.differences.count == 1)
    #expect(
      result.differences.first?.hasPrefix(
        "an extra event after event #37 (00:12:30.000): 'com.example.photofeed become-active")
        == true, "\(result.differences)")
  }

  @Test func aChangedProfileIsNamedAsTheCause() throws {
    var changed = scenario
    changed.apps[6].residentKB += 5 * 1024
    changed.inputs[8].sha256 = String(repeating: "0", count: 64)
    let result = try GoldenCheck.check(changed, against: golden, options: .init(numbers: true))
    #expect(!result.passed)
    #expect(result.changedInputs == ["app com.example.photofeed (photofeed.json)"])
    #expect(
      result.report().contains(
        "cause: the inputs changed since the golden was recorded: app com.example.photofeed (photofeed.json)"
      ))
  }

  @Test func aGoldenFromAnotherPolicySaysSo() throws {
    var other = scenario
    other.policy = .lru
    let result = try GoldenCheck.check(other, against: golden)
    #expect(!result.passed)
    #expect(result.goldenPolicy == "largest-first")
    #expect(
      result.report().contains("cause: the golden was recorded under the policy largest-first"))
  }

  @Test func manyDifferencesAreCounted() throws {
    try edit { lines in lines = [lines[0]] }
    let result = try check()
    #expect(result.differences.count == 12)
    #expect(result.report(limit: 3).contains("  and 9 more differences\n"))
  }

  @Test func eventDifferencesNameTheEvent() {
    let header = ReportTables.eventColumns.joined(separator: ",")
    let expected =
      "\(header)\n1,0,a,launch,notRunning,inactive,willFinishLaunching,,100,900,0,900,0,normal\n"
    let differentSize =
      "\(header)\n1,0,a,launch,notRunning,inactive,willFinishLaunching,,120,880,0,880,0,normal\n"
    #expect(
      KillOrder.differences(in: .events, expected: expected, actual: differentSize, numbers: false)
        == [])
    #expect(
      KillOrder.differences(in: .events, expected: expected, actual: differentSize, numbers: true)
        == [
          "event #1 (00:00:00.000), 'a launch notRunning>inactive willFinishLaunching': footprint_kb expected 0.0 MB, got 0.1 MB; free_kb expected 0.8 MB (900 KB), got 0.8 MB (880 KB); available_kb expected 0.8 MB (900 KB), got 0.8 MB (880 KB)"
        ])
    let differentEvent =
      "\(header)\n1,0,a,launch,notRunning,background,willFinishLaunching,,100,900,0,900,0,normal\n"
    #expect(
      KillOrder.differences(in: .events, expected: expected, actual: differentEvent, numbers: false)
        == [
          "event #1 (00:00:00.000): expected 'a launch notRunning>inactive willFinishLaunching', got 'a launch notRunning>background willFinishLaunching'"
        ])
  }

  /// The error `check` throws for the golden, if any.
  func badGolden(events: Bool = false) -> JetsimError? {
    do throws(JetsimError) {
      _ = try GoldenCheck.check(
        scenario, against: golden, options: GoldenCheckOptions(events: events))
      return nil
    } catch {
      return error
    }
  }

  @Test func aGoldenThatCannotBeComparedIsBadInputNotADifference() throws {
    let kills = golden + "/kills.csv"
    let header = "jetsim's kills.csv header (\(ReportTables.killColumns.joined(separator: ",")))"
    try scratch.write("golden/kills.csv", "")
    #expect(
      badGolden()
        == .badGolden(path: kills, line: nil, problem: "the file is empty; expected \(header)"))
    try scratch.write("golden/kills.csv", "seq,time,app\n1,2,a\n")
    #expect(
      badGolden()
        == .badGolden(
          path: kills, line: 1, problem: "the header seq,time,app is not \(header)"))
    try scratch.write("golden/kills.csv", "seq,app\n1,\"unterminated\n")
    #expect(
      badGolden()
        == .badGolden(path: kills, line: 2, problem: "it is not CSV (a quote is not closed)"))
    try scratch.write("golden/kills.csv", "seq,app\n1,\"a\"b\n")
    #expect(
      badGolden()
        == .badGolden(
          path: kills, line: 2, problem: "it is not CSV (text follows a closing quote)"))
    try scratch.write(
      "golden/kills.csv", ReportTables.killColumns.joined(separator: ",") + "\n1,2\n")
    #expect(
      badGolden()
        == .badGolden(
          path: kills, line: 2,
          problem: "2 fields where the header has \(ReportTables.killColumns.count)"))
    #expect(
      "\(badGolden()!)"
        == "\(kills):2: 2 fields where the header has \(ReportTables.killColumns.count); re-record the golden"
    )
  }

  /// A golden is read whole, up to `InputFile.maxBytes`: a longer run's event log is refused with
  /// what to do instead, not taken for the wrong file. (The file is sparse: its size is read
  /// before any byte.)
  @Test func aGoldenEventLogTooLargeToReadSaysWhatToDo() throws {
    let events = golden + "/events.csv"
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: events))
    try handle.truncate(atOffset: UInt64(InputFile.maxBytes + 1))
    try handle.close()
    #expect(try check().passed, "the kill order alone reads no event log")
    let error = #expect(throws: JetsimError.self) { try check(events: true) }
    #expect(
      error.map { "\($0)" }
        == "\(events): cannot be read (larger than 256 MB; a golden is read whole: compare the kill order alone, not the whole event log, or check a shorter run)"
    )
  }

  /// The kill order alone is checked on a run that keeps no event log: it reads as the same check
  /// with the event log does, kill for kill.
  @Test func theKillOrderAloneReadsAsWithTheEventLog() throws {
    try edit { lines in lines.swapAt(1, 3) }
    let alone = try check()
    let both = try check(events: true)
    #expect(alone.killEdits.moves > 0)
    #expect(alone.killEdits == both.killEdits)
    #expect(alone.kills == both.kills)
    #expect(Array(both.differences.prefix(alone.differences.count)) == alone.differences)
    #expect(alone.events == nil && both.events ?? 0 > 0)
  }

  /// Tables that cannot be aligned say why, through the comparison's own entry point.
  @Test func tablesThatCannotBeAlignedSaySo() {
    let header = ReportTables.killColumns.joined(separator: ",")
    #expect(
      KillOrder.differences(
        in: .kills, expected: "x;y\n1;2\n", actual: "\(header)\n", numbers: false)
        == ["the golden kills.csv and the run's have no column in common"])
    #expect(
      KillOrder.differences(
        in: .kills, expected: "\(header)\n1,2\n", actual: "\(header)\n", numbers: false)
        == ["the golden kills.csv is not CSV of the header's width"])
  }

  @Test func aCorruptRunJSONIsBadInputNotAbsent() throws {
    let path = golden + "/run.json"
    try scratch.write("golden/run.json", "{")
    #expect(badGolden() == .badGolden(path: path, line: nil, problem: "not valid JSON"))
    try scratch.write("golden/run.json", "{\"jetsim\": \"0.3.0\"}")
    #expect(
      badGolden()
        == .badGolden(
          path: path, line: nil,
          problem:
            "not a run.json jetsim wrote (it needs jetsim, scenario, device, policy, seed and inputs)"
        ))
  }

  @Test func aGoldenOfAnotherSeedSaysSoNotThatBehaviourChanged() throws {
    var seven = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/heavy-social-4gb.json")
    let one = seven
    seven.seed = 7
    let folder = scratch.path + "/seven"
    _ = try GoldenCheck.update(seven, in: folder)
    let result = try GoldenCheck.check(one, against: folder)
    #expect(!result.passed, "seeds 1 and 7 kill differently")
    #expect(result.goldenSeed == 7)
    let report = result.report()
    #expect(report.contains("  cause: the golden was recorded with seed 7 (this run: 1)\n"))
    #expect(!report.contains("behaviour changed"))
    #expect(
      result.report(remedy: { _ in "pass --seed 7" }).contains(
        "  cause: the golden was recorded with seed 7 (this run: 1); pass --seed 7\n"))
    #expect(try GoldenCheck.check(seven, against: folder).passed)
  }

  /// A golden recorded from a run told to end early (its run.json's `duration_ms`) is not taken
  /// for a change of behaviour: the cause says where each run was told to end, and the same end
  /// passes. This holds for a user model, whose run leaves nothing unplayed whatever its end.
  @Test(arguments: ["daily-commute", "light-user-2gb"])
  func aGoldenOfAShorterRunSaysWhereItEnded(name: String) throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/\(name).json")
    let folder = scratch.path + "/short-\(name)"
    _ = try GoldenCheck.update(scenario, in: folder, durationMs: 1_800_000)
    #expect(try scratch.read("short-\(name)/run.json").contains("\n  \"duration_ms\": 1800000,\n"))
    let result = try GoldenCheck.check(scenario, against: folder)
    #expect(!result.passed, "the whole run kills more")
    #expect(result.endedElsewhere == GoldenCheckResult.Ends(golden: 1_800_000, run: nil))
    let report = result.report { remedy in
      guard case .duration(let ms) = remedy else { return nil }
      return "pass --duration \(Units.formatDuration(ms))"
    }
    #expect(
      report.contains(
        "  cause: the golden's run was cut short at 00:30:00.000; this one runs to its scenario's end; pass --duration 30m\n"
      ))
    #expect(!report.contains("behaviour changed"))
    let same = GoldenCheckOptions(durationMs: 1_800_000)
    #expect(try GoldenCheck.check(scenario, against: folder, options: same).passed)
    // A run told to end early against a golden of the whole run says so too.
    let whole = scratch.path + "/whole-\(name)"
    _ = try GoldenCheck.update(scenario, in: whole)
    #expect(try !scratch.read("whole-\(name)/run.json").contains("duration_ms"))
    let cut = try GoldenCheck.check(scenario, against: whole, options: same)
    #expect(cut.endedElsewhere == GoldenCheckResult.Ends(golden: nil, run: 1_800_000))
    #expect(
      cut.report().contains(
        "  cause: the golden's run ran to its scenario's end; this one is cut short at 00:30:00.000\n"
      ))
    #expect(try GoldenCheck.check(scenario, against: whole).endedElsewhere == nil)
  }

  /// A golden from a jetsim that did not record `duration_ms`: a run that left actions unplayed
  /// says where it ended (`not_played`), and that is taken as where it was told to end.
  @Test func anOlderGoldenOfAShorterRunIsReadFromWhatItLeftUnplayed() throws {
    let folder = scratch.path + "/older"
    _ = try GoldenCheck.update(scenario, in: folder, durationMs: 1_800_000)
    let text = try scratch.read("older/run.json")
    #expect(text.contains("\"not_played\""))
    try scratch.write(
      "older/run.json", text.replacingOccurrences(of: "\n  \"duration_ms\": 1800000,", with: ""))
    let result = try GoldenCheck.check(scenario, against: folder)
    #expect(result.endedElsewhere == GoldenCheckResult.Ends(golden: 1_800_000, run: nil))
    let same = GoldenCheckOptions(durationMs: 1_800_000)
    #expect(try GoldenCheck.check(scenario, against: folder, options: same).passed)
  }

  @Test func aGoldenOfAnotherScenarioNamesIt() throws {
    let tour = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/lifecycle-tour.json")
    let result = try GoldenCheck.check(tour, against: golden)
    #expect(result.goldenScenario == "daily-commute")
    #expect(!result.rerecordingHelps, "recording would lose daily-commute's golden")
    #expect(
      result.report().hasSuffix(
        "  cause: the golden was recorded for the scenario daily-commute, not lifecycle-tour; check each scenario against its own golden\n"
      ))
    #expect(!result.report().contains("inputs changed"))
  }

  /// The golden as jetsim 0.2.0 recorded it: free_before_kb and free_after_kb, no band or lmkd
  /// columns.
  func recordAsVersion020(version: String = "0.2.0") throws {
    let old = [
      "seq", "time_ms", "app", "reason", "policy", "rank", "state", "footprint_kb", "freed_kb",
      "free_before_kb", "free_after_kb", "pending_kb", "callback",
    ]
    let table = try #require(KillOrder.Table(try scratch.read("golden/kills.csv")))
    let renamed = ["free_before_kb": "available_before_kb", "free_after_kb": "available_after_kb"]
    let rows = table.rows.map { row in
      old.map { row[renamed[$0] ?? $0] ?? "" }.joined(separator: ",")
    }
    try scratch.write(
      "golden/kills.csv", ([old.joined(separator: ",")] + rows).joined(separator: "\n") + "\n")
    let json = try scratch.read("golden/run.json")
    try scratch.write(
      "golden/run.json",
      json.replacingOccurrences(
        of: "\"jetsim\": \"\(JetsimVersion.current)\"", with: "\"jetsim\": \"\(version)\""))
  }

  @Test func aGoldenOfAnOlderJetsimSaysSoAndListsNoEqualCells() throws {
    try recordAsVersion020()
    let order = try check()
    #expect(order.passed, "the order is compared on the columns both have")
    #expect(order.goldenVersion == "0.2.0")
    #expect(
      order.report().contains(
        "  note: the golden was recorded by jetsim 0.2.0, whose reports have other columns, compared on the columns both have; re-record it\n"
      ))
    let numbers = try check(numbers: true)
    #expect(numbers.differences.count == 1, "only the columns line: \(numbers.differences)")
    #expect(numbers.differences.first?.hasPrefix("kills.csv columns differ: expected ") == true)
    #expect(!numbers.report().contains("expected , got"))
    #expect(
      numbers.report(remedy: { $0 == .rerecord ? "re-record it with X" : nil }).contains(
        "  cause: the golden was recorded by jetsim 0.2.0, whose reports have other columns; re-record it with X\n"
      ))
    #expect(!numbers.report().contains("behaviour changed"))
  }

  @Test func otherColumnsFromThisJetsimAreABadGolden() throws {
    try recordAsVersion020(version: JetsimVersion.current)
    let error = badGolden()
    let problem = if case .badGolden(_, 1, let problem)? = error { problem } else { "" }
    #expect(
      problem.hasPrefix("the header seq,time_ms,app,"), "a bad golden: \(String(describing: error))"
    )
  }

  @Test func updateKeepsARunsOtherFilesOnlyWhereTheFolderHoldsThem() throws {
    let fresh = scratch.path + "/fresh"
    let recorded = try GoldenCheck.update(scenario, in: fresh)
    #expect(recorded.map(\.file) == ["kills.csv", "run.json"])
    #expect(try scratch.contents("fresh").sorted() == ["kills.csv", "run.json"])
    try scratch.write("fresh/apps.csv", "")
    try scratch.write("fresh/metrickit.json", "[]")
    let again = try GoldenCheck.update(scenario, in: fresh)
    #expect(again.filter(\.written).map(\.file) == ["apps.csv"])
    #expect(try !scratch.read("fresh/apps.csv").isEmpty)
    #expect(try scratch.read("fresh/metrickit.json") == "[]", "metrickit.json is left as it is")
  }

  @Test func updateRewritesExactlyTheChangedFiles() throws {
    try edit { $0.swapAt(1, 2) }
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
    #expect(try check(events: true, numbers: true).passed)
    #expect(try GoldenCheck.update(scenario, in: golden).allSatisfy { !$0.written })
  }

  @Test func aMissingGoldenIsItsOwnError() {
    #expect(throws: JetsimError.goldenMissing(path: scratch.path + "/none/kills.csv")) {
      try GoldenCheck.check(scenario, against: scratch.path + "/none")
    }
  }

  @Test func runJSONRoundTrips() throws {
    let result = try Simulator.run(scenario)
    var provenance = Provenance(scenario: scenario, summary: result.summary)
    #expect(Provenance(json: Data(provenance.json.utf8)) == provenance)
    provenance.durationMs = 1_800_000
    #expect(Provenance(json: Data(provenance.json.utf8)) == provenance)
    #expect(provenance.inputs.count == 16)
    #expect(provenance.changedInputs(comparedTo: scenario.inputs).isEmpty)
  }
}

/// The alignment under the kill-order check.
@Suite struct SequenceDiffTests {
  func edits(_ a: String, _ b: String) -> Int? {
    SequenceDiff.align(Array(a), Array(b))?.filter {
      if case .keep = $0 { return false } else { return true }
    }.count
  }

  @Test func findsTheShortestEdit() {
    #expect(edits("abcabba", "cbabac") == 5, "Myers' own example: D = 5")
    #expect(edits("", "") == 0)
    #expect(edits("abc", "") == 3)
    #expect(edits("", "abc") == 3)
    #expect(edits("abcd", "abxcd") == 1)
  }

  @Test func theStepsRebuildBothSequences() {
    var generator = RandomStream(seed: 7, stream: 0)
    for _ in 0..<200 {
      let a = (0..<Int(generator.next() % 30)).map { _ in generator.next() % 4 }
      let b = (0..<Int(generator.next() % 30)).map { _ in generator.next() % 4 }
      let steps = SequenceDiff.align(a, b) ?? []
      var fromA: [UInt64] = []
      var fromB: [UInt64] = []
      for step in steps {
        switch step {
        case .keep(let i, let j):
          #expect(a[i] == b[j])
          fromA.append(a[i])
          fromB.append(b[j])
        case .delete(let i): fromA.append(a[i])
        case .insert(let j): fromB.append(b[j])
        }
      }
      #expect(fromA == a)
      #expect(fromB == b)
    }
  }

  @Test func movesInsertionsAndDeletionsAccountForEveryElement() {
    // Seeded sweep: every element not kept is a move (one of each side), an insertion or a
    // deletion; a move pairs equal elements; no element has both an unpaired copy deleted and one
    // inserted (that pair would have been a move).
    var generator = RandomStream(seed: 11, stream: 0)
    for _ in 0..<300 {
      let a = (0..<Int(generator.next() % 25)).map { _ in "app\(generator.next() % 6)" }
      let b = (0..<Int(generator.next() % 25)).map { _ in "app\(generator.next() % 6)" }
      let steps = SequenceDiff.align(a, b) ?? []
      let kept = steps.filter { if case .keep = $0 { true } else { false } }.count
      let elements = KillOrder.Elements(
        noun: "kill", expectedKey: { a[$0] }, actualKey: { b[$0] }, name: { b[$0] },
        expected: { a[$0] }, actual: { b[$0] }, expectedTime: { _ in nil }, actualTime: { _ in nil }
      )
      let words = KillOrder.words(for: steps, elements)
      #expect(words.edits.moves + words.edits.deletions == a.count - kept, "\(a) \(b)")
      #expect(words.edits.moves + words.edits.insertions == b.count - kept, "\(a) \(b)")
      let moves = KillOrder.moves(in: steps, elements)
      #expect(moves.count == words.edits.moves)
      for (w, g) in moves { #expect(a[w] == b[g]) }
      let unpairedDeleted = Set(
        steps.compactMap { if case .delete(let w) = $0, moves[w] == nil { a[w] } else { nil } })
      let paired = Set(moves.values)
      let unpairedInserted = Set(
        steps.compactMap { if case .insert(let g) = $0, !paired.contains(g) { b[g] } else { nil } })
      #expect(unpairedDeleted.isDisjoint(with: unpairedInserted), "\(a) \(b)")
    }
  }

  @Test func givesUpBeyondTheLimit() {
    #expect(SequenceDiff.align(Array(0..<50), Array(50..<100), limit: 10) == nil)
    #expect(SequenceDiff.align(Array(0..<50), Array(50..<100), limit: 100)?.count == 100)
  }
}
