import Jetsim

/// The options of `jetsim plan`.
struct PlanOptions: Subcommand, Equatable {
  var scenario: String
  var target: String
  /// The seeds of the first round (nil: seeds 1 to 20, or to `maxSeeds` if fewer, doubled up to
  /// `maxSeeds` or 320 until the answer settles).
  var seeds: [UInt64]?
  /// The most seeds to run; nil runs the seeds given only (or up to 320 when none are given).
  var maxSeeds: Int?
  /// The memory range searched; nil derives it from the device.
  var minKB: Int?
  var maxKB: Int?
  var precisionKB = 64 * 1024
  /// `--policy`.
  var overrides = ScenarioOverrides()
  var jobs: Int?
  var out: String?
  /// Also write plan.html.
  var curve = false
  /// Device profiles to plan for, one plan each; empty for the scenario's device.
  var devices: [String] = []
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension PlanOptions {
  static let target = OptionSpec(
    "target", value: "METRIC>=VALUE",
    help:
      "what must hold, e.g. kills-per-hour<=1 (also >=, >, <), on 95 % of days (seeds) unless it ends in @pNN (a share of days), @mean or @all (every seed)"
  ).required("such as --target \"warm-resume-ratio>=0.9\"")
  static let seeds = CommonOptions.seeds(
    "seeds of the first round (one seed is one simulated day)",
    default: "20, or --max-seeds if fewer, doubled until the answer settles, up to --max-seeds")
  static let maxSeeds = OptionSpec(
    "max-seeds", value: "N",
    help:
      "run rounds of twice the seeds until the answer moves by no more than --precision, up to N seeds (default: 320 without --seeds; with --seeds, the seeds given only); without --seeds, below 20 it is the first round's too"
  )
  static let min = OptionSpec(
    "min", value: "SIZE",
    help:
      "smallest memory to try (default: the smallest at which the device validates and the scenario starts, its system processes and snapshot beside the reserved memory; at least the reserved memory plus the precision)"
  )
  static let max = OptionSpec(
    "max", value: "SIZE",
    help: "largest memory to try (default: 16GB, or twice the device's memory)")
  static let precision = OptionSpec(
    "precision", value: "SIZE", help: "how close the answer is (default: 64MB)")
  static let out = OutFolder(
    "where to write plan.csv and plan.json (with several --devices, a folder for each device in it, named after its file without .json)",
    suffix: "-plan")
  static let curve = OptionSpec(
    "curve",
    help:
      "also write plan.html: the metric's median and p5-p95 band against memory, the target and the answer"
  )
  static let devices = CommonOptions.devices(to: "plan for", each: "one plan each")

  static let spec = CommandSpec(
    name: "plan",
    abstract:
      "Find the smallest device memory for which a target holds on a share of days.",
    discussion: """
      One seed is one simulated day. Bisects the device's memory between --min and --max, running \
      every seed at each size tried, for the smallest size whose statistic over the seeds (the \
      95th percentile on the target's bad side unless the target says @pNN, @mean or @all) meets \
      the target; then bisects for the ends of the answer's 95 % interval (the quantile's \
      interval from order statistics, distribution-free). Without --seeds it runs 20 seeds, then \
      40, 80, ... until the answer moves by no more than --precision (up to --max-seeds) and says \
      whether it settled. An answer at the smallest size tried is said to be one, with a warning \
      when opens failed or memory pressure killed apps there: the metric may not grow with memory \
      (cold_launches counts only the opens that reached the screen). Prints the answer, what it \
      means and the measured curve, and writes the \
      files under FILES to the output folder (plan.html with --curve). Exits 1 when the target does not hold even at --max, so CI \
      can see it. The output depends on the inputs only, not on --jobs. See docs/planning.md.
      """,
    arguments: [.scenario],
    options: [
      target, seeds, maxSeeds, min, max, precision, devices, curve, CommonOptions.policy,
      CommonOptions.jobs, out.option,
    ],
    examples: [
      "jetsim plan Profiles/scenarios/light-user-2gb.json --target \"warm-resume-ratio>=0.9\"",
      "jetsim plan Profiles/scenarios/heavy-social-4gb.json --target \"kills-per-hour<=1@p99\" --max 8GB",
      "jetsim plan Profiles/scenarios/heavy-social-4gb.json --target \"kills-per-hour<=1\" --seeds 80",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    let target = parsed.required(Self.target)
    if let problem = CapacityTarget.parse(target).problem {
      throw UsageError("--target '\(target.excerpt(limit: 60))': \(problem)", help: "plan")
    }
    self.init(scenario: parsed.first, target: target)
    seeds = try parsed.seeds(Self.seeds)
    maxSeeds = try parsed.value(Self.maxSeeds, expected: "a whole number of at least 1") {
      Int($0).flatMap { $0 >= 1 ? $0 : nil }
    }
    if let maxSeeds, let seeds, maxSeeds < seeds.count {
      throw UsageError(
        "--max-seeds \(maxSeeds) is below the \(seeds.count) seeds of --seeds; give at least \(seeds.count), or fewer --seeds",
        help: "plan")
    }
    minKB = try parsed.size(Self.min)
    maxKB = try parsed.size(Self.max)
    if let precision = try parsed.size(Self.precision) { precisionKB = precision }
    if let minKB, let maxKB, minKB >= maxKB {
      throw UsageError("--min must be below --max", help: "plan")
    }
    overrides = try ScenarioOverrides(parsed)
    jobs = try parsed.jobs(CommonOptions.jobs)
    out = parsed.value(Self.out.option)
    curve = parsed.has(Self.curve)
    devices = parsed.files(Self.devices)
    try Self.checkFolders(devices)
    printing = try OutputOptions(parsed)
  }

  /// The folder of a device's plan under `--out` (with several devices): its file's name without
  /// `.json`, so `a.v1.json` and `a.v2.json` plan into `a.v1` and `a.v2`.
  static func folder(of path: String) -> String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    return file.hasSuffix(".json") && file.count > 5 ? String(file.dropLast(5)) : file
  }

  /// Refuses two `--devices` whose plans would go to one folder (files of one name in two
  /// folders, or one file twice), naming both, as a sweep refuses a device twice on its axis:
  /// the second plan would replace the first.
  static func checkFolders(_ devices: [String]) throws(UsageError) {
    var first: [String: String] = [:]
    for path in devices {
      let name = folder(of: path)
      guard let earlier = first[name] else {
        first[name] = path
        continue
      }
      throw UsageError(
        "--devices '\(earlier.excerpt())' and '\(path.excerpt())' would both plan into the folder '\(name.excerpt())' under --out; give each device a file of its own name",
        help: "plan")
    }
  }

  /// Bisects device memory for each device, writes the curves and the answers, and prints them;
  /// exit 1 when a target is not met.
  func execute() throws(JetsimError) -> CommandResult {
    var scenario = try ProfileLoader.scenario(at: self.scenario)
    overrides.apply(to: &scenario)
    guard let target = CapacityTarget.parse(target).target else { return CommandResult() }
    var profiles: [(name: String, profile: DeviceProfile)] = []
    for path in devices {
      profiles.append((Self.folder(of: path), try ProfileLoader.device(at: path)))
    }
    if profiles.isEmpty { profiles = [("", scenario.device)] }
    let destination = Self.out.folder(out, name: scenario.name)
    var result = CommandResult()
    var texts: [String] = []
    var documents: [String] = []
    for (name, profile) in profiles {
      scenario.device = profile
      let folder = profiles.count > 1 ? "\(destination)/\(name)" : destination
      let plan = try planOne(scenario, target: target, to: folder)
      if plan.answerKB == nil { result.code = .failure }
      let files = ([ReportFile.plan, .planJSON] + (curve ? [.planHTML] : [])).map {
        "\(folder)/\($0.name)"
      }
      result.wrote += files
      texts.append(
        PlanText.text(plan, scenario: scenario)
          + "  curve and answer: \(files.joined(separator: ", "))\n")
      documents.append(PlanReport.json(plan, scenario: scenario))
    }
    guard !printing.quiet else { return result }
    switch printing.format {
    case .text: result.output = texts.joined(separator: "\n")
    case .json:
      result.output =
        documents.count == 1
        ? documents[0]
        : "[\n" + documents.map { $0.trimmingSuffixNewline }.joined(separator: ",\n") + "\n]\n"
    }
    return result
  }

  /// The seeds of the first round: `--seeds`, else seeds 1 to 20, or to `--max-seeds` if fewer.
  var firstSeeds: [UInt64] { seeds ?? Array(1...UInt64(Swift.min(20, maxSeeds ?? 20))) }

  /// One plan on the scenario's device, with progress on a terminal, written to `folder`.
  func planOne(_ scenario: Scenario, target: CapacityTarget, to folder: String)
    throws(JetsimError) -> CapacityPlan
  {
    let range = Planner.defaultRange(for: scenario, precisionKB: precisionKB)
    let progress = printing.quiet ? nil : Progress.onTerminal(label: "plan")
    var report: (@Sendable (Int) -> Void)?
    if let progress { report = { progress.note("\($0) memory sizes tried") } }
    let plan = try Planner.plan(
      scenario, target: target, seeds: firstSeeds, minKB: minKB ?? range.minKB,
      maxKB: maxKB ?? range.maxKB, precisionKB: precisionKB, jobs: jobs ?? Progress.cores,
      maxSeeds: maxSeeds ?? (seeds == nil ? 320 : nil), progress: report)
    progress?.finish()
    try PlanReport.write(plan, scenario: scenario, to: folder, curve: curve)
    return plan
  }
}

extension String {
  /// The text without its last newline, if it ends in one.
  fileprivate var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
