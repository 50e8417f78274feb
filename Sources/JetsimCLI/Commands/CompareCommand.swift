import Jetsim

/// The options of `jetsim compare`.
struct CompareOptions: Subcommand, Equatable {
  var scenario: String
  /// The policies to compare; nil for every built-in one.
  var policies: [PolicyName]?
  /// The seeds; nil for the scenario's own.
  var seeds: [UInt64]?
  var out: String?
  /// Threads; nil for one per core.
  var jobs: Int?
  /// The metric to rank by.
  var rankBy = SummaryMetric.rankDefault.name
  /// Also write every run's full reports.
  var keepRuns = false
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension CompareOptions {
  static let policies = CommonOptions.policies(to: "compare")
  static let out = OutFolder(suffix: "-compare")
  static let keepRuns = OptionSpec(
    "keep-runs", help: "also write every run's full reports, in <policy>/seed-<n>/")
  static let rankBy = OptionSpec(
    "rank-by", value: "METRIC", help: "summary metric to rank by (default: warm-resume-ratio)",
    completion: .values(SummaryMetric.all.map(\.name)))

  static let spec = CommandSpec(
    name: "compare",
    abstract: "Run one scenario under several policies and seeds, and rank the policies.",
    discussion: """
      Runs the identical workload under each policy and seed, on every core, writes the files \
      under FILES (and with --keep-runs each run's reports), and prints the policies ranked by a \
      metric.
      """,
    arguments: [.scenario],
    options: [
      policies, CommonOptions.scenarioSeeds, out.option, keepRuns, CommonOptions.jobs, rankBy,
    ],
    examples: [
      "jetsim compare Profiles/scenarios/daily-commute.json",
      "jetsim compare Profiles/scenarios/heavy-social-4gb.json --policies lru,jetsam,lmkd --seeds 20",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(scenario: parsed.first)
    policies = try parsed.policies(Self.policies)
    seeds = try parsed.seeds(CommonOptions.scenarioSeeds)
    out = parsed.value(Self.out.option)
    jobs = try parsed.jobs(CommonOptions.jobs)
    if let name = try parsed.metric(Self.rankBy) { rankBy = name }
    keepRuns = parsed.has(Self.keepRuns)
    printing = try OutputOptions(parsed)
  }

  /// Runs every policy with every seed (in parallel), writes the comparison folder and returns the
  /// ranked table. Shows progress on standard error when it is a terminal.
  func execute() throws(JetsimError) -> CommandResult {
    let scenario = try ProfileLoader.scenario(at: self.scenario)
    let policies = self.policies ?? PolicyName.all
    let seeds = self.seeds ?? Self.defaultSeeds(scenario)
    let destination = Self.out.folder(out, name: scenario.name)
    if keepRuns, let warning = try Self.sizeWarning(scenario, runs: policies.count * seeds.count) {
      Progress.say(warning)
    }
    let progress = printing.quiet ? nil : Progress.onTerminal(label: "compare")
    let comparison = try Comparison.run(
      scenario, policies: policies, seeds: seeds, jobs: jobs ?? Progress.cores,
      destination: destination, keepRuns: keepRuns,
      rankBy: SummaryMetric.named(rankBy) ?? .rankDefault, progress: progress?.runs)
    progress?.finish()
    var result = CommandResult(wrote: [destination])
    guard !printing.quiet else { return result }
    switch printing.format {
    case .text:
      result.output = CompareReport.text(
        comparison, device: scenario.device.name, rankBy: rankBy, folder: destination,
        keptRuns: keepRuns)
    case .json:
      result.output = CompareReport.json(comparison, rankBy: rankBy, folder: destination)
    }
    return result
  }
}

extension CompareOptions {
  /// Seeds 1 to 10 when the scenario has a user model, whose draws change with the seed: enough for
  /// a 95 % interval that tells policies apart when they differ; a script or a trace draws nothing
  /// at random, so its own seed alone.
  static func defaultSeeds(_ scenario: Scenario) -> [UInt64] {
    scenario.userModel != nil ? Array(1...10) : [scenario.seed]
  }

  /// Above this, `--keep-runs` warns before writing.
  static let warnAboveBytes = 2 << 30

  /// A warning when every run's reports would come to more than `warnAboveBytes`: one run, in
  /// memory, gives the events per run; the reports take about 100 bytes an event (measured on the
  /// shipped scenarios: 95 to 144).
  static func sizeWarning(_ scenario: Scenario, runs: Int) throws(JetsimError) -> String? {
    var quiet = DiscardingObserver()
    let events = try Simulator.run(scenario, observer: &quiet).metrics.events
    let (bytes, overflow) = (events * 100).multipliedReportingOverflow(by: runs)
    guard overflow || bytes > warnAboveBytes else { return nil }
    let size =
      overflow
      ? "far more than 1 PB"
      : "about \(Units.decimal(Double(bytes) / Double(1 << 30), digits: 1)) GB"
    return
      "jetsim: warning: --keep-runs will write \(size) of reports (\(runs) runs of about \(events) events); without it, compare writes only the summaries\n"
  }
}

extension ParsedArguments {
  /// A summary metric's name (`warm-resume-ratio` or `warm_resume_ratio`), as `summary.csv` names it.
  func metric(_ option: OptionSpec) throws(UsageError) -> String? {
    guard let text = value(option) else { return nil }
    guard let metric = SummaryMetric.named(text) else {
      let names = SummaryMetric.all.map(\.name)
      let hint =
        Suggestion.closest(to: SummaryMetric.canonical(text), in: names).map {
          "did you mean '\($0)'? "
        } ?? ""
      throw UsageError(
        "\(option.flag) '\(text.excerpt(limit: 40))' is not a summary metric; \(hint)metrics: \(names.joined(separator: ", "))",
        help: command.name)
    }
    return metric.name
  }
}
