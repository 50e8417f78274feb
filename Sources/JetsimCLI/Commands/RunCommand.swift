import Jetsim

/// The options of `jetsim run`.
struct RunOptions: Subcommand, Equatable {
  var scenario: String
  /// `--policy` and `--seed`.
  var overrides = ScenarioOverrides()
  var out: String?
  var trace: String?
  var durationMs: Int?
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
  /// Skip `report.html`.
  var noHTML = false
}

extension RunOptions {
  static let policy = CommonOptions.policy.helped(
    "eviction policy (default: the scenario's, else largest-first)")
  static let out = OutFolder("report folder")
  static let trace = OptionSpec(
    "trace", value: "FILE",
    help:
      "replay this trace CSV instead of the scenario's whole workload (script, trace and user model)",
    completion: .file(["csv"]))
  static let duration = OptionSpec(
    "duration", value: "TIME", help: "end the run at this time, e.g. 30m (default: the scenario's)")
  static let noHTML = OptionSpec("no-html", help: "do not write report.html")

  static let spec = CommandSpec(
    name: "run", abstract: "Run a scenario and write its reports.",
    discussion: """
      Loads SCENARIO (a JSON file: see docs/profiles.md), runs it on its device with its apps and \
      workload under the eviction policy, and writes the reports under FILES (see \
      docs/reports.md) into the report folder, atomically: a failed or interrupted run leaves the folder as it was. The same scenario and \
      seed always give byte-identical reports.
      """,
    arguments: [.scenario],
    options: [policy, CommonOptions.seed, out.option, trace, duration, noHTML],
    examples: [
      "jetsim run Profiles/scenarios/daily-commute.json",
      "jetsim run Profiles/scenarios/worked-example.json -o /tmp/example --seed 7",
      "jetsim run Profiles/scenarios/evening-social.json --trace Profiles/traces/evening-social.csv",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(scenario: parsed.first)
    overrides = try ScenarioOverrides(parsed)
    out = parsed.value(Self.out.option)
    trace = parsed.value(Self.trace)
    durationMs = try parsed.duration(Self.duration)
    noHTML = parsed.has(Self.noHTML)
    printing = try OutputOptions(parsed)
  }

  /// Loads the scenario, applies the options, streams the reports into their folder and returns
  /// the summary for people (or as JSON).
  func execute() throws(JetsimError) -> CommandResult {
    let (summary, scenario, destination) = try simulate()
    var result = CommandResult(wrote: [destination])
    guard !printing.quiet else { return result }
    switch printing.format {
    case .text:
      result.output = RunReport.text(
        summary, device: scenario.device, folder: destination, html: !noHTML)
    case .json: result.output = JSONText.render(RunReport.json(summary, folder: destination))
    }
    return result
  }

  /// Runs the scenario with the options applied, its reports written; what it ran and where.
  func simulate() throws(JetsimError) -> (RunSummary, Scenario, folder: String) {
    // The trace, if any, is checked by the run as it reads it: read once, not twice.
    var (scenario, traceCheck) = try ProfileLoader.scenarioForOneRun(
      at: self.scenario, trace: trace)
    overrides.apply(to: &scenario)
    if let durationMs { scenario.durationMs = durationMs }
    let destination = Self.out.folder(out, name: scenario.name)
    var writer = try ReportWriter(
      folder: ReportFolder(destination: destination), scenario: scenario, html: !noHTML)
    if let durationMs { writer.record(durationMs: durationMs) }
    let summary: RunSummary
    do {
      summary = try Self.run(scenario, writer: &writer, quiet: printing.quiet)
      if let traceCheck { writer.add(input: try traceCheck.finish(summary)) }
    } catch {
      writer.discard()
      throw error
    }
    try writer.finish(summary)
    return (summary, scenario, destination)
  }

  /// Runs `scenario` into `writer`, with a progress line on standard error when it is a terminal,
  /// the run takes more than two seconds and the command is not `quiet`.
  static func run(_ scenario: Scenario, writer: inout ReportWriter, quiet: Bool)
    throws(JetsimError) -> RunSummary
  {
    guard !quiet, let progress = Progress.onTerminal(label: "run") else {
      return try Simulator.run(scenario, observer: &writer)
    }
    var observed = ProgressObserver(writer, progress: progress, endMs: scenario.durationMs)
    defer {
      writer = observed.inner
      progress.finish()
    }
    return try Simulator.run(scenario, observer: &observed)
  }
}
