import Jetsim

/// The options of `jetsim check`.
struct CheckOptions: Subcommand, Equatable {
  var scenario: String
  /// The golden folder.
  var expect: String
  /// Compare the whole event log, not only the kills.
  var events = false
  /// Compare the numbers too, not only the order.
  var numbers = false
  /// With `numbers`, how far a number may be from the golden's.
  var tolerance: NumberTolerance?
  /// Re-record the golden files instead of comparing.
  var update = false
  /// `--policy` and `--seed`.
  var overrides = ScenarioOverrides()
  /// `--duration`.
  var durationMs: Int?
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension CheckOptions {
  static let expect = OptionSpec(
    "expect", value: "DIR", help: "the golden folder (kills.csv, and events.csv with --events)",
    completion: .directory
  ).required("the folder of golden reports")
  static let events = OptionSpec("events", help: "compare the whole event log too")
  static let numbers = OptionSpec(
    "numbers", help: "compare the numbers too (times, sizes, free memory), not only the order")
  static let tolerance = OptionSpec(
    "tolerance", value: "5%|1MB",
    help: "compare the numbers too (--numbers), letting them differ by a share of the golden's"
      + " (0% to 100%), or sizes by a size")
  static let update = OptionSpec(
    "update", help: "re-record the golden files that changed, and say which")

  static let spec = CommandSpec(
    name: "check",
    abstract:
      "Re-run a scenario and compare its kill order (or whole event log) with golden reports.",
    discussion: """
      Runs SCENARIO in memory and compares its kill order (who died, why, in which state, in which \
      order) with the golden kills.csv in DIR, and with --events its whole event log with \
      events.csv; --numbers compares times, sizes and free memory too. The sequences are aligned, \
      so one kill too many is one difference, and a kill both have at other places one move \
      ("com.example.browser moved from #6 to #10"); the first line counts the moves, insertions \
      and deletions. Exit 0 when they match; otherwise exit 1 and print \
      the differences in words, and whether the scenario or its profiles changed since the golden \
      was recorded (from DIR/run.json: its scenario, policy, seed, input digests and, for a run \
      cut short, where it ended) or the \
      behaviour did. A golden that cannot be compared (empty, not CSV, not jetsim's header, a \
      run.json jetsim did not write) is bad input (exit 65): re-record it. --update records \
      kills.csv and run.json, and events.csv with --events, writing only those that changed; in \
      a folder that already holds a run's apps.csv, summary.csv, events.csv or report.html it \
      re-records those too.
      """,
    arguments: [.scenario],
    options: [
      expect, events, numbers, tolerance, update, CommonOptions.policy, CommonOptions.seed,
      RunOptions.duration,
    ],
    examples: [
      "jetsim check Profiles/scenarios/daily-commute.json --expect Reports/golden/daily-commute",
      "jetsim check Profiles/scenarios/daily-commute.json --expect Reports/golden/daily-commute --events",
      "jetsim check Profiles/scenarios/daily-commute.json --expect Reports/golden/daily-commute --update",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(scenario: parsed.first, expect: parsed.required(Self.expect))
    events = parsed.has(Self.events)
    numbers = parsed.has(Self.numbers)
    if let text = parsed.value(Self.tolerance) {
      guard let tolerance = NumberTolerance(text) else {
        throw UsageError(
          "--tolerance '\(text.excerpt(limit: 40))' is not a share from 0% to 100%, such as 5%, or a size such as 1MB",
          help: Self.spec.name)
      }
      self.tolerance = tolerance
      numbers = true
    }
    update = parsed.has(Self.update)
    overrides = try ScenarioOverrides(parsed)
    durationMs = try parsed.duration(RunOptions.duration)
    printing = try OutputOptions(parsed)
  }

  /// Compares a fresh run with the golden folder (exit 1 on a difference), or re-records it.
  func execute() throws(JetsimError) -> CommandResult {
    var scenario = try ProfileLoader.scenario(at: self.scenario)
    overrides.apply(to: &scenario)
    let options = GoldenCheckOptions(
      events: events, numbers: numbers, tolerance: tolerance, durationMs: durationMs)
    // A file where the golden folder should be: neither checked nor recorded there, and
    // --update would not help.
    if FileSystem.entry(at: expect) == .file {
      return CommandResult(
        errors:
          "jetsim: \(expect): a file, not a folder; --expect names the folder of golden reports (kills.csv, run.json): give a folder\n",
        code: update ? .cannotCreate : .noInput)
    }
    guard update else {
      let result: GoldenCheckResult
      do {
        result = try GoldenCheck.check(scenario, against: expect, options: options)
      } catch .goldenMissing(let path) {
        // No golden yet: say how to record it.
        return CommandResult(
          errors:
            "jetsim: \(path): no golden report yet; record it with: jetsim check \(self.scenario) --expect \(expect) --update\(events ? " --events" : "")\n",
          code: .noInput)
      }
      let code: ExitCode = result.passed ? .success : .failure
      switch printing.format {
      case _ where printing.quiet: return CommandResult(code: code)
      case .text:
        return CommandResult(
          output: result.report(remedy: Self.remedy) + (result.rerecordingHelps ? Self.hint : ""),
          code: code)
      case .json: return CommandResult(output: Self.json(result), code: code)
      }
    }
    return try record(scenario, options: options)
  }

  /// Re-records the golden folder (`--update`) and says which files changed, and what the golden
  /// it replaced differed in.
  func record(_ scenario: Scenario, options: GoldenCheckOptions) throws(JetsimError)
    -> CommandResult
  {
    let before = try? GoldenCheck.check(scenario, against: expect, options: options)
    let files: [(file: String, written: Bool)]
    do {
      files = try GoldenCheck.update(scenario, in: expect, events: events, durationMs: durationMs)
    } catch .outputNotWritable(let path, let reason, let output, let remedy) {
      // The golden folder is --expect's: name that flag, not --out.
      let error = JetsimError.outputNotWritable(
        path: path, reason: reason, output: output, remedy: remedy)
      return CommandResult(
        errors: ErrorMessage.line(for: error, flag: "--expect"), code: .cannotCreate)
    }
    let written = files.filter(\.written).map(\.file)
    let unchanged = files.filter { !$0.written }.map(\.file)
    guard !printing.quiet else { return CommandResult() }
    if printing.format == .json {
      return CommandResult(
        output: updateJSON(
          scenario: scenario.name, before: before, written: written, unchanged: unchanged))
    }
    var text =
      written.isEmpty
      ? "\(expect): already up to date"
      : "\(expect): \(before == nil ? "recorded" : "updated") \(written.joined(separator: ", "))"
    if !unchanged.isEmpty, !written.isEmpty {
      text += "; unchanged: \(unchanged.joined(separator: ", "))"
    }
    text += "\n"
    if let before, let first = before.differences.first {
      let count = before.differences.count
      text +=
        "  what changed: \(count) \(count == 1 ? "difference" : "differences"), the first: \(first)\n"
    }
    return CommandResult(output: text)
  }

  /// What `--update` did as one JSON document, with the keys of the check's own where they mean
  /// the same: the golden as it was (`passed` and `differences`, null when there was none that
  /// could be compared), what was done (`update`: `recorded`, `updated` or `up_to_date`, as the
  /// text says it) and the files re-recorded (`written`) or left as they were (`unchanged`).
  func updateJSON(
    scenario: String, before: GoldenCheckResult?, written: [String], unchanged: [String]
  ) -> String {
    JSONText.render(
      .fields([
        ("scenario", .string(scenario)), ("golden", .string(expect)),
        (
          "update",
          .string(written.isEmpty ? "up_to_date" : before == nil ? "recorded" : "updated")
        ),
        ("written", .list(written.map { .string($0) })),
        ("unchanged", .list(unchanged.map { .string($0) })),
        ("passed", before.map { .bool($0.passed) } ?? .null),
        ("differences", before.map { .list($0.differences.map { .string($0) }) } ?? .null),
      ]))
  }

  /// What to do about a cause of a difference, in the command line's words.
  static func remedy(_ remedy: GoldenCheckResult.Remedy) -> String? {
    switch remedy {
    case .seed(let seed): "pass --seed \(seed)"
    case .duration(let ms): "pass --duration \(Units.formatDuration(ms))"
    case .rerecord: "re-record it with --update"
    }
  }

  /// What to do about a difference, in the command line's words.
  static let hint =
    "  if the new behaviour is right: re-record with --update, and review the diff\n"

  /// An order's edits as a JSON object: moves, insertions, deletions, number changes.
  static func edits(_ edits: OrderEdits) -> JSONValue {
    .fields([
      ("moves", .integer(edits.moves)), ("insertions", .integer(edits.insertions)),
      ("deletions", .integer(edits.deletions)), ("changes", .integer(edits.changes)),
    ])
  }

  /// The result as one JSON document.
  static func json(_ result: GoldenCheckResult) -> String {
    // Where the golden's run and this one were told to end, when not at the same time (null for
    // a run that ended where its scenario does).
    let ends: JSONValue =
      result.endedElsewhere.map {
        .fields([
          ("golden_ms", $0.golden.map { .integer($0) } ?? .null),
          ("run_ms", $0.run.map { .integer($0) } ?? .null),
        ])
      } ?? .null
    return JSONText.render(
      .fields([
        ("scenario", .string(result.scenario)), ("golden", .string(result.folder)),
        ("passed", .bool(result.passed)), ("kills", .integer(result.kills)),
        ("events", result.events.map { .integer($0) } ?? .null),
        ("differences", .list(result.differences.map { .string($0) })),
        ("kill_edits", edits(result.killEdits)),
        ("event_edits", result.eventEdits.map(edits) ?? .null),
        ("changed_inputs", result.changedInputs.map { .list($0.map { .string($0) }) } ?? .null),
        ("ended_elsewhere", ends),
        // What the golden was recorded with where it is not this run's: each a cause the text names.
        (
          "recorded_with",
          .fields([
            ("scenario", result.goldenScenario.map { .string($0) } ?? .null),
            ("policy", result.goldenPolicy.map { .string($0) } ?? .null),
            ("seed", result.goldenSeed.map { .integer(Int($0)) } ?? .null),
            ("jetsim", result.goldenVersion.map { .string($0) } ?? .null),
          ])
        ),
      ]))
  }
}
