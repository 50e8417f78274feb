import Jetsim

/// The options of `jetsim what-if`.
struct WhatIfOptions: Subcommand, Equatable {
  var scenario: String
  var app: String
  /// The app's sizes to try, in the given order: sizes, or changes of today's size.
  var sizes: [WhatIf.Size]
  /// Device profiles to run on; empty for the scenario's own device.
  var devices: [String] = []
  /// The seeds; nil for ten with a user model, else the scenario's.
  var seeds: [UInt64]?
  /// A user model to run instead of the scenario's workload (for a snapshot without one).
  var userModel: String?
  var out: String?
  var jobs: Int?
  /// `--policy` and `--seed`.
  var overrides = ScenarioOverrides()
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension WhatIfOptions {
  static let app = OptionSpec(
    "app", value: "ID", help: "the app whose memory changes (its id; any app of a snapshot)"
  )
  .required("the app whose memory changes")
  static let resident = OptionSpec(
    "resident", value: "SIZES",
    help:
      "its resident memory to try (its footprint in a snapshot): sizes such as 300MB, or changes of today's such as +30%, -100MB; comma-separated"
  ).required("such as --resident 300MB,150MB")
  static let devices = CommonOptions.devices(to: "run on")
  static let userModel = OptionSpec(
    "user-model", value: "FILE",
    help:
      "a user model (a scenario's userModel keys, docs/user-model.md) to run for a day (24 h simulated unless the scenario gives a duration), as a device snapshot needs",
    completion: .file(["json"]))
  static let out = OutFolder(suffix: "-what-if")

  static let spec = CommandSpec(
    name: "what-if",
    abstract: "Run a workload with one app at several memory sizes and devices, read as MetricKit.",
    discussion: """
      Runs SCENARIO with the app's resident memory at each size and at its size today, on each \
      device, for every seed, and reports what MetricKit would tell the app's developers: \
      background exits to free up memory per 24 h of simulated time \
      (MXBackgroundExitData.cumulativeMemoryPressureExitCount) with its 95 % interval across \
      seeds, its paired difference from today's size (the same seeds and workload), and the \
      memory-limit exits (per 24 h with their paired difference, when there are any; a size over \
      the app's memory limit, its memoryLimit or else the device's foreground limit, is killed at \
      every launch, so its fewer pressure exits are no saving, and a warning says so). The runs \
      counted include today's size on each device. In a device snapshot (import-jetsam) the size replaces the app's \
      footprint; a snapshot has no workload, so it needs --user-model FILE. Writes the files \
      under FILES (metrickit.json with each point's payload). See docs/metrickit.md.
      """,
    arguments: [.scenario],
    options: [
      app, resident, devices, CommonOptions.policy, userModel, CommonOptions.scenarioSeeds,
      out.option, CommonOptions.jobs,
    ],
    examples: [
      "jetsim what-if day.json --app com.example.photofeed --resident 300MB,150MB",
      "jetsim what-if day.json --app com.example.photofeed --resident +30%,-100MB --devices a.json,b.json",
      "jetsim what-if imp/scenario.json --app FindMy --resident 50MB,800MB --user-model everyday.json",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    let app = parsed.required(Self.app)
    let sizes =
      try parsed.list(Self.resident, of: "size", identity: \WhatIf.Size.description) {
        (item: String) throws(UsageError) -> WhatIf.Size in
        guard let size = WhatIf.Size.parse(item) else {
          throw UsageError(
            "--resident '\(item.excerpt())' is not \(Units.sizeForm), nor a change such as +30% or -100MB",
            help: "what-if")
        }
        return size
      } ?? []
    self.init(scenario: parsed.first, app: app, sizes: sizes)
    devices = parsed.files(Self.devices)
    seeds = try parsed.seeds(CommonOptions.scenarioSeeds)
    userModel = parsed.value(Self.userModel)
    out = parsed.value(Self.out.option)
    jobs = try parsed.jobs(CommonOptions.jobs)
    overrides = try ScenarioOverrides(parsed)
    printing = try OutputOptions(parsed)
  }

  /// Runs the grid on every core, writes the what-if folder and prints the table.
  func execute() throws(JetsimError) -> CommandResult {
    let scenario = try loadScenario()
    var profiles: [DeviceProfile] = []
    for path in devices { profiles.append(try ProfileLoader.device(at: path)) }
    let seeds = self.seeds ?? CompareOptions.defaultSeeds(scenario)
    let residentsKB = try sizesKB(in: scenario)
    let destination = Self.out.folder(out, name: scenario.name)
    let progress = printing.quiet ? nil : Progress.onTerminal(label: "what-if")
    let points = try WhatIf.run(
      scenario, app: app, residentsKB: residentsKB, devices: profiles, seeds: seeds,
      jobs: jobs ?? Progress.cores, progress: progress?.runs)
    progress?.finish()
    try WhatIfReport.write(
      points, app: app, scenario: scenario.name, seeds: seeds.count, to: destination)
    var result = CommandResult(wrote: [destination])
    guard !printing.quiet else { return result }
    let today = WhatIf.todayKB(of: try WhatIf.index(of: app, in: scenario), in: scenario)
    let runs =
      max(profiles.count, 1) * WhatIf.sizesRun(residentsKB, todayKB: today).count * seeds.count
    switch printing.format {
    case .text:
      result.output = Self.text(
        points, app: app, scenario: scenario, seeds: seeds, runs: runs, folder: destination)
    case .json: result.output = Self.json(points, app: app, runs: runs, folder: destination)
    }
    return result
  }

  /// The scenario with the overrides, and the user model of `--user-model` run for its duration
  /// or a day; an error when it has no workload to read as days.
  func loadScenario() throws(JetsimError) -> Scenario {
    var scenario = try ProfileLoader.scenario(at: self.scenario)
    overrides.apply(to: &scenario)
    if let userModel {
      scenario.userModel = try ProfileLoader.userModel(at: userModel, apps: scenario.apps)
      scenario.durationMs = scenario.durationMs ?? 86_400_000
    }
    guard WhatIf.hasWorkload(scenario) else {
      throw .invalidValue(
        path: self.scenario, keyPath: "workload",
        value: "none (a device snapshot alone runs minutes of timers, not a day of use)",
        expected:
          "a workload to read as days: give --user-model FILE, such as Profiles/user-models/everyday.json"
      )
    }
    return scenario
  }

  /// `--resident`'s sizes in KB, changes applied to the app's size today.
  func sizesKB(in scenario: Scenario) throws(JetsimError) -> [Int] {
    let index = try WhatIf.index(of: app, in: scenario)
    let today = WhatIf.todayKB(of: index, in: scenario)
    var sizes: [Int] = []
    for size in self.sizes {
      guard let kilobytes = size.kilobytes(today: today) else {
        throw .invalidValue(
          path: self.scenario, keyPath: "--resident",
          value: "\(size) of \(app)'s \(Units.megabytes(today)) today",
          expected: "a change that leaves it some memory")
      }
      sizes.append(kilobytes)
    }
    return sizes
  }

  /// The table: a line a point with its paired difference from today, its memory-limit exits
  /// when it has some, and a note for each point whose size is over the app's memory limit.
  /// `runs` counts every run, today's size on each device included.
  static func text(
    _ points: [WhatIf.Point], app: String, scenario: Scenario, seeds: [UInt64], runs: Int,
    folder: String
  ) -> String {
    let exit = MetricKitExit.backgroundMemoryPressure
    let today = points.first.map { Units.megabytes($0.todayKB) } ?? "n/a"
    let hours =
      points.first.map {
        Units.decimal(
          Double($0.payload.durationMs) / 3_600_000 / Double(max(seeds.count, 1)), digits: 1)
      } ?? "0"
    var lines = [
      "\(scenario.name): \(app) at \(points.count.counted("point")) × \(seeds.count.counted("seed"))"
        + (runs > points.count * seeds.count
          ? " and at today's size on each device, \(runs) runs" : "")
        + ", policy \(scenario.policy); \(app) is \(today) today",
      "  MetricKit background memory-pressure exits per 24 h of simulated time (cumulativeMemoryPressureExitCount; each run \(hours) h simulated), mean ± 95 % CI, and the paired difference from \(today) today (same seeds and workload):",
    ]
    let width = points.map(\.device.count).max() ?? 0
    for point in points {
      let value = cell(point.summary(exit), none: "n/a (no run had simulated time)")
      let paired = cell(point.vsToday(exit), sign: true, none: "n/a (no run at today's size)")
      let limits =
        point.payload.count(.backgroundMemoryResourceLimit)
        + point.payload.count(.foregroundMemoryResourceLimit)
      let suspended =
        point.payload.averageSuspendedKB.map(Units.megabytes) ?? "n/a (never suspended)"
      let limitExits =
        limits > 0 || (point.limitExitsVsToday?.mean ?? 0) != 0
        ? "; memory-limit exits per 24 h \(cell(point.limitExitsSummary, none: "n/a")), vs today \(cell(point.limitExitsVsToday, sign: true, none: "n/a"))"
          + (point.isOverLimit ? " (over its limit: see below)" : "")
        : ""
      lines.append(
        "  \(point.device.padded(width))  \(Units.megabytes(point.residentKB).padded(9, left: true))  \(value.padded(13))  vs today \(paired.padded(15))  average suspended \(suspended)"
          + limitExits)
    }
    for point in points where point.isOverLimit {
      let whose = point.limitIsTheDevices ? "the device's foreground limit" : "its memoryLimit"
      lines.append(
        "  warning: at \(Units.megabytes(point.residentKB)) on \(point.device), \(app) is over its memory limit, \(Units.megabytes(point.limitKB)) (\(whose)): every launch is killed (per-process-limit, MetricKit's memory-resource-limit exits), so it is rarely in the background for memory pressure to push out, and its fewer pressure exits are no saving"
      )
    }
    if seeds.count < 2 {
      lines.append(
        "  note: one seed gives no interval, so no difference is shown to be real; give --seeds 10 or more"
      )
    }
    lines.append("  reports: \(folder)/ (\(ReportFile.list([.whatIf, .metricKit, .whatIfHTML])))")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A mean ± its 95 % CI half-width with two decimals (a `+` before a positive mean with
  /// `sign`), or `none` (a reason) without a value.
  static func cell(_ summary: SampleSummary?, sign: Bool = false, none: String) -> String {
    guard let summary else { return none }
    let mean = (sign && summary.mean >= 0 ? "+" : "") + Units.decimal(summary.mean, digits: 2)
    return mean + (summary.ci95.map { " ± " + Units.decimal($0, digits: 2) } ?? "")
  }

  /// The table as one JSON document: each point with its counters per 24 h, its memory limit and
  /// whether its size is over it; `runs` as for `text`.
  static func json(_ points: [WhatIf.Point], app: String, runs: Int, folder: String) -> String {
    JSONText.render(
      .fields([
        ("app", .string(app)), ("runs", .integer(runs)),
        ("today_kb", points.first.map { .integer($0.todayKB) } ?? .null),
        (
          "points",
          .list(
            points.map { point in
              .fields(
                [
                  ("device", .string(point.device)), ("resident_kb", .integer(point.residentKB)),
                  ("simulated_days", .decimal(Double(point.payload.durationMs) / 86_400_000)),
                  ("memory_limit_kb", .integer(point.limitKB)),
                  ("over_memory_limit", .bool(point.isOverLimit)),
                ]
                  + WhatIf.exits.map { exit in
                    let summary = point.summary(exit)
                    let paired = point.vsToday(exit)
                    return (
                      "\(exit.column)_per_24h_simulated",
                      .fields([
                        ("mean", .decimal(summary?.mean)), ("ci95", .decimal(summary?.ci95)),
                        ("vs_today_mean", .decimal(paired?.mean)),
                        ("vs_today_ci95", .decimal(paired?.ci95)),
                      ])
                    )
                  })
            })
        ),
        ("reports", .string(folder)),
      ]))
  }
}
