import Jetsim

/// The options of `jetsim import-metrickit`.
struct ImportMetricKitOptions: Subcommand, Equatable {
  var payloads: [String]
  var app: String
  var profile: String
  /// Where to write the profile with its resident memory from the payloads; nil to only check.
  var out: String?
  /// A scenario to run, whose simulated exits go beside the payloads' real ones.
  var scenario: String?
  var seeds: [UInt64]?
  var jobs: Int?
  /// `--policy` and `--seed`.
  var overrides = ScenarioOverrides()
  /// `--quiet` and `--format`.
  var printing = OutputOptions()

  init(payloads: [String], app: String, profile: String) {
    self.payloads = payloads
    self.app = app
    self.profile = profile
  }
}

extension ImportMetricKitOptions {
  static let app = OptionSpec(
    "app", value: "ID", help: "the app's id: payloads naming another bundleIdentifier are skipped"
  ).required()
  static let profile = OptionSpec(
    "profile", value: "APP.json",
    help: "the app's profile (its id is ID) to check, and fill with --out",
    completion: .file(["json"])
  ).required("the profile to check")
  static let out = OptionSpec(
    "out", short: "o", value: "FILE",
    help: "write the profile with its resident memory set from the payloads to FILE",
    completion: .file(["json"]))
  static let scenario = OptionSpec(
    "scenario", value: "SCENARIO",
    help: "also run this scenario and put its simulated exits a day beside the payloads' real ones",
    completion: .file(["json"]))
  static let seeds = CommonOptions.seeds.helped(
    "seeds for --scenario (default: \(CommonOptions.scenarioSeedsDefault))")

  static let spec = CommandSpec(
    name: "import-metrickit",
    abstract: "Check or fill an app profile from real MetricKit payloads, and compare their exits.",
    discussion: """
      Reads each PAYLOAD (an MXMetricPayload as jsonRepresentation() writes it, or a list of \
      them), keeps those of APP, and puts their memory (peakMemoryUsage, averageSuspendedMemory) \
      beside the profile's. With --out, writes the profile with its resident memory set to the \
      payloads' average suspended memory. With --scenario, runs it with the profile given (in place \
      of the scenario's own) and prints each exit counter a day, real beside simulated; with --out \
      too, the growth the runs measure while suspended is taken off the resident memory written, \
      so that the profile simulates the payloads' average suspended memory. Payloads cannot give caches, backing stores, growth, launch \
      peaks, background modes or launch times: those stay the profile's. See docs/metrickit.md.
      """,
    arguments: [
      ArgumentSpec(
        name: "PAYLOAD", help: "MetricKit payload JSON files, each once", count: .oneOrMore,
        completion: .file(["json"]))
    ],
    options: [app, profile, out, scenario, seeds, CommonOptions.policy, CommonOptions.jobs],
    examples: [
      "jetsim import-metrickit payloads/*.json --app com.example.app --profile app.json",
      "jetsim import-metrickit p.json --app com.example.app --profile app.json --scenario day.json",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(
      payloads: parsed.positionals,
      app: parsed.required(Self.app), profile: parsed.required(Self.profile))
    // A file given twice (two patterns that overlap) would weigh its payloads twice: refused.
    try parsed.distinctPaths(each: "each payload file")
    out = parsed.value(Self.out)
    scenario = parsed.value(Self.scenario)
    seeds = try parsed.seeds(Self.seeds)
    jobs = try parsed.jobs(CommonOptions.jobs)
    overrides = try ScenarioOverrides(parsed)
    printing = try OutputOptions(parsed)
  }

  func execute() throws(JetsimError) -> CommandResult {
    let (real, used, skipped) = try readPayloads()
    let given = try ProfileLoader.app(at: profile)
    // Another app's profile would be checked against (or filled with) this app's memory.
    guard given.id == app else {
      throw .invalidValue(
        path: profile, keyPath: "id", value: "'\(given.id)'",
        expected:
          "\(app), the app given with --app; give that app's profile with --profile (or --app \(given.id) for this profile's payloads)"
      )
    }
    let check = MetricKitCheck(real: real, profile: given)
    var filled = given
    if out != nil {
      guard let average = real.averageSuspendedKB else { throw noAverage(payloads: used) }
      filled.residentKB = average
    }
    var simulated: MetricKitPayload?
    if let scenarioPath = scenario {
      var scenario = try ProfileLoader.scenario(at: scenarioPath)
      overrides.apply(to: &scenario)
      // The scenario runs with the profile the command checks (or fills), not its own copy.
      if out != nil, let target = real.averageSuspendedKB {
        (filled, simulated) = try fitted(filled, to: target, in: scenario)
      } else {
        simulated = try self.simulated(scenario, with: filled)
      }
    }
    if let out {
      do {
        try FileSystem.writeAtomically(ProfileWriter.json(filled, standalone: true) + "\n", to: out)
      } catch {
        throw error.notWritable(out, output: .profile)
      }
    }
    var result = CommandResult(wrote: out.map { [$0] } ?? [])
    guard !printing.quiet else { return result }
    let note = skipped > 0 ? "\(skipped.counted("payload")) of other apps skipped" : nil
    let wrote = out.map { (path: $0, residentKB: filled.residentKB) }
    switch printing.format {
    case .text:
      result.output = check.text(payloads: used, note: note, simulated: simulated, wrote: wrote)
    case .json: result.output = check.json(payloads: used, simulated: simulated, wrote: wrote)
    }
    return result
  }

  /// The payloads of the app, added together, with how many were used and how many skipped (of
  /// other apps).
  func readPayloads() throws(JetsimError) -> (MetricKitPayload, used: Int, skipped: Int) {
    var real: MetricKitPayload?
    var used = 0
    var skipped = 0
    var others: [String] = []
    for path in payloads {
      for payload in try MetricKitPayload.load(at: path) {
        if let other = payload.app, other != app, other != "" {
          skipped += 1
          if !others.contains(other) { others.append(other) }
          continue
        }
        used += 1
        guard used <= Units.maxPayloads else {
          throw .invalidValue(
            path: path, keyPath: "(top level)",
            value: "more than \(Units.maxPayloads) payloads in all",
            expected: "at most \(Units.maxPayloads) payloads, so their totals stay exact")
        }
        if real == nil { real = MetricKitPayload(app: app, device: nil, durationMs: 0) }
        real?.add(payload)
      }
    }
    guard let real else {
      // Every payload of every file is another app's: name the files and the apps they are of.
      let count = skipped == 1 ? "the payload" : "all \(skipped) payloads"
      throw .invalidValue(
        path: Self.files(payloads), keyPath: "metaData.bundleIdentifier",
        value: "\(others.joined(separator: ", ")) in \(count)",
        expected: "a payload of \(app), the app given with --app")
    }
    return (real, used, skipped)
  }

  /// The app's payloads in `scenario` with `profile` in place of the scenario's own profile of the
  /// app, added over the seeds.
  func simulated(_ scenario: Scenario, with profile: AppProfile) throws(JetsimError)
    -> MetricKitPayload
  {
    var scenario = scenario
    scenario.apps[try WhatIf.index(of: app, in: scenario)] = profile
    let seeds = self.seeds ?? CompareOptions.defaultSeeds(scenario)
    var total = MetricKitPayload(app: app, device: scenario.device.name, durationMs: 0)
    for payload in try WhatIf.payloads(
      scenario, app: app, seeds: seeds, jobs: jobs ?? Progress.cores)
    {
      total.add(payload)
    }
    return total
  }

  /// `profile` with its resident memory set so that its simulated average suspended memory (its
  /// resident memory plus what it grows while suspended) is the payloads' `target`: the growth the
  /// run measures is taken off the resident memory, for up to four rounds, until the two are within
  /// 1 % (or 1 MB). Returns the profile and its last simulation.
  func fitted(_ profile: AppProfile, to target: Int, in scenario: Scenario) throws(JetsimError)
    -> (AppProfile, MetricKitPayload)
  {
    var fitted = profile
    var simulated = try self.simulated(scenario, with: fitted)
    for _ in 0..<4 {
      guard let average = simulated.averageSuspendedKB else { break }
      let gap = average - target
      guard abs(gap) > max(1024, target / 100), fitted.residentKB - gap >= 0 else { break }
      fitted.residentKB -= gap
      simulated = try self.simulated(scenario, with: fitted)
    }
    return (fitted, simulated)
  }

  /// The payload files as an error names them: the first, and how many more.
  static func files(_ payloads: [String]) -> String {
    payloads.count == 1 ? payloads[0] : "\(payloads[0]) (and \(payloads.count - 1) more)"
  }

  /// The error when `--out` asks for a profile the payloads cannot fill: none of them gives an
  /// average suspended memory (no `memoryMetrics`, or `sampleCount` 0).
  private func noAverage(payloads used: Int) -> JetsimError {
    return .invalidValue(
      path: Self.files(payloads), keyPath: "memoryMetrics.averageSuspendedMemory",
      value:
        "absent or of 0 samples in \(used == 1 ? "the payload" : "all \(used) payloads") of \(app)",
      expected:
        "a payload whose averageSuspendedMemory has samples, to set the profile's resident memory from; nothing was written to \(out ?? "")"
    )
  }
}
