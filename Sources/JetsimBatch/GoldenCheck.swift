import JetsimCore
import JetsimIO

/// What `GoldenCheck` compares.
public struct GoldenCheckOptions: Sendable, Equatable {
  /// Compare the whole event log, not only the kills.
  public var events = false
  /// Compare the numbers too (times, sizes, free memory, ranks), not only the order: who died, why,
  /// in which state, in which order (for events: what happened to whom).
  public var numbers = false
  /// With `numbers`, how far a number may be from the golden's (nil: exactly).
  public var tolerance: NumberTolerance?
  /// Where the run ends, in milliseconds, in place of the scenario's own end (nil: where the
  /// scenario ends); `update` records it in `run.json`.
  public var durationMs: Int?

  /// Options: compare `events.csv` too, and compare numbers, not only order, within `tolerance`;
  /// end the run at `durationMs`.
  public init(
    events: Bool = false, numbers: Bool = false, tolerance: NumberTolerance? = nil,
    durationMs: Int? = nil
  ) {
    self.events = events
    self.numbers = numbers
    self.tolerance = tolerance
    self.durationMs = durationMs
  }
}

/// The result of comparing a run with the golden reports in a folder (`jetsim check`).
public struct GoldenCheckResult: Sendable, Equatable {
  /// The scenario checked.
  public var scenario: String
  /// The golden folder.
  public var folder: String
  /// What was compared.
  public var options: GoldenCheckOptions
  /// Every difference, in words, kills first, the sequences aligned so that one kill too many is
  /// one difference: `kill #3 (00:12:05.200): expected com.example.game (412.0 MB, suspended), got
  /// com.example.maps (388.0 MB, suspended)`, and a kill in both at other positions one move:
  /// `com.example.browser moved from #6 to #10 (00:57:00.000)`.
  public var differences: [String]
  /// The kills' differences counted: moves, insertions, deletions (and number changes).
  public var killEdits = OrderEdits()
  /// The events' differences counted, when `events.csv` was compared.
  public var eventEdits: OrderEdits?
  /// The number of kills and (if checked) events in the run.
  public var kills: Int
  /// The number of events compared, when `events.csv` was.
  public var events: Int?
  /// The inputs whose digests differ from the golden's `run.json`; nil if it has none.
  public var changedInputs: [String]?
  /// The policy the golden was recorded under, when it is not the run's.
  public var goldenPolicy: String?
  /// The seed the golden was recorded with, when it is not the run's (`seed`).
  public var goldenSeed: UInt64?
  /// The run's seed.
  public var seed: UInt64 = 0
  /// The scenario the golden was recorded for, when it is not this one.
  public var goldenScenario: String?
  /// The jetsim version that recorded the golden, when it wrote other columns than this one.
  public var goldenVersion: String?
  /// Where the golden's run and this one were told to end, when not at the same time; nil else.
  public var endedElsewhere: Ends?

  /// Where the golden's run and this one were told to end, in milliseconds, each nil for a run
  /// that ended where its scenario does: the golden's from its `run.json` (`duration_ms`; from a
  /// jetsim that did not record it, the end its `not_played` gives, for a run that ended before
  /// its workload did), this one's from `GoldenCheckOptions.durationMs`.
  public struct Ends: Sendable, Equatable {
    /// The golden's run's end, or nil.
    public var golden: Int?
    /// This run's end, or nil.
    public var run: Int?
  }

  /// Whether the run matched the golden reports.
  public var passed: Bool { differences.isEmpty }

  /// Whether recording the run as the golden could be the fix: it differs, and the golden is this
  /// scenario's (recording over another scenario's golden would lose it).
  public var rerecordingHelps: Bool { !passed && goldenScenario == nil }

  /// `2 moves, 1 insertion`, or with events `kills: 2 moves; events: 1 insertion`; the number of
  /// differences when no edit is counted (only the columns differ).
  public var counts: String {
    let noun = differences.count == 1 ? "difference" : "differences"
    guard let eventEdits else {
      return killEdits.isEmpty ? "\(differences.count) \(noun)" : killEdits.summary
    }
    guard !killEdits.isEmpty || !eventEdits.isEmpty else { return "\(differences.count) \(noun)" }
    return "kills: \(killEdits.summary); events: \(eventEdits.summary)"
  }

  /// What a front end may tell a user to do about a cause, in its own words (`remedy` of
  /// `report`).
  public enum Remedy: Sendable, Equatable {
    /// Run with the seed the golden was recorded with.
    case seed(UInt64)
    /// Run for the time the golden's run lasted, in milliseconds.
    case duration(Int)
    /// Record the golden again.
    case rerecord
  }

  /// What happened, for people: the first `limit` differences, a count of the rest, and whether the
  /// behaviour or the inputs changed; a cause a front end knows how to fix ends with `remedy`'s
  /// words for it.
  public func report(limit: Int = 8, remedy: (Remedy) -> String? = { _ in nil }) -> String {
    let compared =
      (options.events ? "kill order and event log" : "kill order")
      + (options.numbers
        ? " (numbers included\(options.tolerance.map { ", within \($0)" } ?? ""))" : "")
    let plural = options.events
    if passed {
      var text =
        "\(scenario): \(compared) \(plural ? "match" : "matches") \(folder) (\(kills) \(kills == 1 ? "kill" : "kills")"
      text += events.map { ", \($0) events" } ?? ""
      text += ")\n"
      if let changedInputs, !changedInputs.isEmpty {
        text +=
          "  note: the inputs changed since the golden was recorded (\(changedInputs.joined(separator: ", "))), but the \(compared) did not\n"
      }
      if let goldenVersion {
        text +=
          "  note: \(Self.otherColumns(goldenVersion)), compared on the columns both have; \(remedy(.rerecord) ?? "re-record it")\n"
      }
      return text
    }
    var lines = [
      "\(scenario): the \(compared) \(plural ? "differ" : "differs") from \(folder) (\(counts))"
    ]
    lines += differences.prefix(limit).map { "  \($0)" }
    if differences.count > limit {
      let rest = differences.count - limit
      lines.append("  and \(rest) more \(rest == 1 ? "difference" : "differences")")
    }
    lines += causes(remedy: remedy).map { "  \($0)" }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Why the run may differ from the golden, a line each: another scenario, another jetsim's
  /// columns, another policy or seed, changed inputs; else a change of behaviour.
  func causes(remedy: (Remedy) -> String?) -> [String] {
    if let goldenScenario {
      return [
        "cause: the golden was recorded for the scenario \(goldenScenario), not \(scenario); check each scenario against its own golden"
      ]
    }
    var causes: [String] = []
    if let goldenVersion {
      causes.append(
        "cause: \(Self.otherColumns(goldenVersion)); \(remedy(.rerecord) ?? "re-record it")")
    }
    if let goldenPolicy {
      causes.append("cause: the golden was recorded under the policy \(goldenPolicy)")
    }
    if let goldenSeed {
      causes.append(
        "cause: the golden was recorded with seed \(goldenSeed) (this run: \(seed))\(remedy(.seed(goldenSeed)).map { "; \($0)" } ?? "")"
      )
    }
    if let ends = endedElsewhere {
      let golden =
        ends.golden.map { "was cut short at \(Units.clock($0))" } ?? "ran to its scenario's end"
      let run =
        ends.run.map { "is cut short at \(Units.clock($0))" } ?? "runs to its scenario's end"
      let fix = ends.golden.flatMap { remedy(.duration($0)) }.map { "; \($0)" } ?? ""
      causes.append("cause: the golden's run \(golden); this one \(run)\(fix)")
    }
    switch changedInputs {
    case nil:
      causes.append(
        "cause unknown: the golden folder has no run.json to tell whether the inputs changed")
    case let changes? where changes.isEmpty:
      if causes.isEmpty {
        causes.append(
          "cause: behaviour changed; the scenario and its profiles are the ones the golden was recorded with"
        )
      }
    case let changes?:
      causes.append(
        "cause: the inputs changed since the golden was recorded: \(changes.joined(separator: ", "))"
      )
    }
    return causes
  }

  /// `the golden was recorded by jetsim 0.2.0, whose reports have other columns`.
  static func otherColumns(_ version: String) -> String {
    "the golden was recorded by jetsim \(version.excerpt(limit: 40)), whose reports have other columns"
  }
}

/// Compares runs with golden reports, and records them.
public enum GoldenCheck {
  /// The report files `update` records, in the order they are compared and written: those
  /// `ReportFile` says `check` writes (kills.csv and run.json, events.csv with `events`).
  public static let files = ReportFile.written(by: "check")
  /// A run's other report files `update` re-records when the golden folder already holds them
  /// (as jetsim's own goldens do), so that the folder stays one run's; it never creates them.
  /// (metrickit.json is not one: it is left as it is.)
  public static let keptFiles: [ReportFile] = [.apps, .summary, .html]

  /// Runs `scenario` and compares its kills (and with `options.events`, its event log) with the
  /// golden `kills.csv` (and `events.csv`) in `folder`. A folder with no golden `kills.csv` is a
  /// `goldenMissing` error: record one first; a golden that cannot be compared (empty, not CSV, a
  /// header that is not this jetsim's, a `run.json` jetsim did not write) is a `badGolden` error.
  /// A golden another jetsim version recorded with other columns is compared on the columns both
  /// have, and the result says so (`goldenVersion`).
  public static func check(
    _ scenario: Scenario, against folder: String, options: GoldenCheckOptions = GoldenCheckOptions()
  ) throws(JetsimError) -> GoldenCheckResult {
    var scenario = scenario
    if let durationMs = options.durationMs { scenario.durationMs = durationMs }
    let recorded = try provenance(in: folder)
    let otherVersion = recorded.map { $0.jetsimVersion != JetsimVersion.current } ?? false
    let expectedKills = try golden(.kills, in: folder, otherColumns: otherVersion)
    let expectedEvents =
      options.events ? try golden(.events, in: folder, otherColumns: otherVersion) : nil
    let result =
      try options.events ? Simulator.run(scenario) : Simulator.runKeepingKills(scenario)
    let kills = KillOrder.compare(
      .kills, expected: expectedKills, actual: result.killsCSV, numbers: options.numbers,
      tolerance: options.tolerance)
    let events = expectedEvents.map {
      KillOrder.compare(
        .events, expected: $0, actual: result.eventsCSV, numbers: options.numbers,
        tolerance: options.tolerance)
    }
    let otherColumns =
      expectedKills.columns != ReportTables.killColumns
      || expectedEvents.map { $0.columns != ReportTables.eventColumns } ?? false
    var checked = GoldenCheckResult(
      scenario: scenario.name, folder: folder, options: options,
      differences: kills.lines + (events?.lines ?? []), killEdits: kills.edits,
      eventEdits: events?.edits, kills: result.kills.count,
      events: options.events ? result.events.count : nil,
      changedInputs: recorded?.changedInputs(comparedTo: scenario.inputs),
      goldenPolicy: recorded.flatMap { $0.policy == scenario.policy.rawValue ? nil : $0.policy })
    checked.goldenSeed = recorded.flatMap { $0.seed == scenario.seed ? nil : $0.seed }
    checked.seed = scenario.seed
    checked.goldenScenario = recorded.flatMap { $0.scenario == scenario.name ? nil : $0.scenario }
    checked.goldenVersion = otherColumns ? recorded?.jetsimVersion : nil
    checked.endedElsewhere = recorded.flatMap { endedElsewhere($0, result.summary, options) }
    return checked
  }

  /// Where the golden's run (`recorded`) and this one (`summary`, run with `options`) were told to
  /// end, if not at the same time. A golden's `duration_ms` says where it was told to end; without
  /// it, a golden that left actions unplayed ended where its `not_played` says (its scenario's own
  /// end, or a `--duration` of a jetsim that did not record it), which must be this run's end.
  private static func endedElsewhere(
    _ recorded: Provenance, _ summary: RunSummary, _ options: GoldenCheckOptions
  ) -> GoldenCheckResult.Ends? {
    let ends = GoldenCheckResult.Ends(
      golden: recorded.durationMs ?? (recorded.unplayed.total > 0 ? recorded.endMs : nil),
      run: options.durationMs)
    if recorded.durationMs == nil, recorded.unplayed.total > 0 {
      return recorded.endMs == summary.metrics.durationMs ? nil : ends
    }
    return ends.golden == ends.run ? nil : ends
  }

  /// Records the golden reports of `scenario` in `folder`: `kills.csv` and `run.json`, plus
  /// `events.csv` with `events` or when the folder holds one, plus those of `keptFiles` the folder
  /// already holds, writing only those whose content changed. Returns `(file, written)` for each
  /// file considered.
  public static func update(
    _ scenario: Scenario, in folder: String, events: Bool = false, durationMs: Int? = nil
  )
    throws(JetsimError)
    -> [(file: String, written: Bool)]
  {
    var scenario = scenario
    if let durationMs { scenario.durationMs = durationMs }
    let result = try Simulator.run(scenario)
    let csv = result.csv
    var provenance = Provenance(scenario: scenario, summary: result.summary)
    provenance.durationMs = durationMs
    let contents: [ReportFile: String] = [
      .kills: csv.kills, .events: csv.events, .apps: csv.apps, .summary: csv.summary,
      .provenance: provenance.json,
      .html: HTMLReport.render(result, device: scenario.device),
    ]
    var chosen = (files + keptFiles).filter {
      FileSystem.entry(at: "\(folder)/\($0.name)") == .file
    }
    for required in [ReportFile.kills, .provenance] + (events ? [.events] : [])
    where !chosen.contains(required) {
      chosen.append(required)
    }
    do {
      try FileSystem.makeDirectories(folder)
    } catch {
      throw error.notWritable(folder)
    }
    var outcome: [(String, Bool)] = []
    for file in ReportFile.allCases where chosen.contains(file) {
      let text = contents[file] ?? ""
      let path = "\(folder)/\(file.name)"
      let changed = (try? InputFile.bytes(at: path)) != Array(text.utf8)
      if changed { try AtomicFile.write(text, to: path) }
      outcome.append((file.name, changed))
    }
    return outcome
  }

  /// The golden `file` in `folder`, read as a table of this jetsim's columns (or, with
  /// `otherColumns`, of another version's).
  private static func golden(_ file: ReportFile, in folder: String, otherColumns: Bool)
    throws(JetsimError) -> KillOrder.Table
  {
    let path = "\(folder)/\(file.name)"
    guard FileSystem.entry(at: path) == .file else { throw .goldenMissing(path: path) }
    // A golden is read whole; a long run's event log can outgrow what that allows.
    let advice =
      file == .events
      ? "a golden is read whole: compare the kill order alone, not the whole event log, or check a shorter run"
      : "a golden is read whole: check a shorter run"
    return try KillOrder.Table(
      golden: try InputFile.text(at: path, tooLarge: advice),
      of: file == .events ? .events : .kills,
      at: path, otherColumns: otherColumns)
  }

  /// What the golden folder's `run.json` says of its recording; nil if it has none.
  private static func provenance(in folder: String) throws(JetsimError) -> Provenance? {
    let path = "\(folder)/\(ReportFile.provenance.name)"
    guard FileSystem.entry(at: path) == .file else { return nil }
    let bytes = try InputFile.bytes(at: path)
    if let recorded = Provenance(json: bytes) { return recorded }
    let problem =
      (try? JSONParser.parse(bytes)) == nil
      ? "not valid JSON"
      : "not a run.json jetsim wrote (it needs jetsim, scenario, device, policy, seed and inputs)"
    throw .badGolden(path: path, line: nil, problem: problem)
  }
}
