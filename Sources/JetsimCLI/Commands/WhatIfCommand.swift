import Jetsim

/// The options of `jetsim what-if`.
struct WhatIfOptions: Subcommand, Equatable {
  var scenario: String
  var app: String
  /// The app's resident sizes to try, in KB, in the given order.
  var residentsKB: [Int]
  /// Device profiles to run on; empty for the scenario's own device.
  var devices: [String] = []
  /// The seeds; nil for ten with a user model, else the scenario's.
  var seeds: [UInt64]?
  var out: String?
  var jobs: Int?
  /// `--policy` and `--seed`.
  var overrides = ScenarioOverrides()
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension WhatIfOptions {
  static let app = OptionSpec("app", value: "ID", help: "the app whose memory changes (its id)")
    .required("the app whose memory changes")
  static let resident = OptionSpec(
    "resident", value: "SIZES",
    help: "its resident memory to try (without caches, backing stores or growth): 300MB,150MB"
  ).required("such as --resident 300MB,150MB")
  static let devices = OptionSpec(
    "devices", value: "FILES",
    help: "device profiles to run on, comma-separated (default: the scenario's device)",
    completion: .file(["json"]))
  static let out = CommonOptions.out(defaultFolder: "<scenario name>-what-if")

  static let spec = CommandSpec(
    name: "what-if",
    abstract: "Run a workload with one app at several memory sizes and devices, read as MetricKit.",
    discussion: """
      Runs SCENARIO with the app's resident memory at each size, on each device, for every seed, and \
      reports what MetricKit would tell the app's developers: background exits to free up memory per \
      day (MXBackgroundExitData.cumulativeMemoryPressureExitCount), with its 95 % interval across \
      seeds, and the memory-limit exits. Writes what-if.csv, metrickit.json (each point's payload) \
      and what-if.html. See docs/metrickit.md.
      """,
    arguments: [.scenario],
    options: [
      app, resident, devices, CommonOptions.policy, CommonOptions.scenarioSeeds, out,
      CommonOptions.jobs,
    ],
    examples: [
      "jetsim what-if day.json --app com.example.photofeed --resident 300MB,150MB",
      "jetsim what-if day.json --app com.example.photofeed --resident 300MB --devices a.json,b.json",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    let app = parsed.required(Self.app)
    let list = parsed.required(Self.resident)
    var sizes: [Int] = []
    for item in list.split(separator: ",", omittingEmptySubsequences: false) {
      guard let size = Units.kilobytes(String(item)), size > 0 else {
        throw UsageError(
          "--resident '\(String(item).excerpt())' is not \(Units.sizeForm)", help: "what-if")
      }
      sizes.append(size)
    }
    guard Set(sizes).count == sizes.count else {
      throw UsageError("--resident names a size twice: \(list.excerpt())", help: "what-if")
    }
    self.init(scenario: parsed.first, app: app, residentsKB: sizes)
    devices = parsed.value(Self.devices).map { $0.split(separator: ",").map(String.init) } ?? []
    seeds = try parsed.seeds(CommonOptions.scenarioSeeds)
    out = parsed.value(Self.out)
    jobs = try parsed.jobs(CommonOptions.jobs)
    overrides = try ScenarioOverrides(parsed)
    printing = try OutputOptions(parsed)
  }

  /// Runs the grid on every core, writes the what-if folder and prints the table.
  func execute() throws(JetsimError) -> CommandResult {
    var scenario = try ProfileLoader.scenario(at: self.scenario)
    overrides.apply(to: &scenario)
    var profiles: [DeviceProfile] = []
    for path in devices { profiles.append(try ProfileLoader.device(at: path)) }
    let seeds = self.seeds ?? CompareOptions.defaultSeeds(scenario)
    let destination = out ?? "\(Defaults.reportsFolder)/\(scenario.name)-what-if"
    let progress = printing.quiet ? nil : Progress.onTerminal(label: "what-if")
    let points = try WhatIf.run(
      scenario, app: app, residentsKB: residentsKB, devices: profiles, seeds: seeds,
      jobs: jobs ?? Progress.cores, progress: progress?.runs)
    progress?.finish()
    try WhatIfReport.write(
      points, app: app, scenario: scenario.name, seeds: seeds.count, to: destination)
    var result = CommandResult(wrote: [destination])
    guard !printing.quiet else { return result }
    switch printing.format {
    case .text:
      result.output = Self.text(
        points, app: app, scenario: scenario, seeds: seeds, folder: destination)
    case .json: result.output = Self.json(points, app: app, folder: destination)
    }
    return result
  }

  static func text(
    _ points: [WhatIf.Point], app: String, scenario: Scenario, seeds: [UInt64], folder: String
  ) -> String {
    let exit = MetricKitExit.backgroundMemoryPressure
    var lines = [
      "\(scenario.name): \(app) at \(points.count.counted("point")) × \(seeds.count.counted("seed")), policy \(scenario.policy)",
      "  MetricKit background memory-pressure exits a day (cumulativeMemoryPressureExitCount; a day: 24 h of simulated time), mean ± 95 % CI:",
    ]
    let width = points.map(\.device.count).max() ?? 0
    for point in points {
      let summary = point.summary(exit)
      let value =
        summary.map {
          Units.decimal($0.mean, digits: 2)
            + ($0.ci95.map { " ± " + Units.decimal($0, digits: 2) } ?? "")
        } ?? "n/a"
      let limits =
        point.payload.count(.backgroundMemoryResourceLimit)
        + point.payload.count(.foregroundMemoryResourceLimit)
      let suspended = point.payload.averageSuspendedKB.map(Units.megabytes) ?? "n/a"
      lines.append(
        "  \(point.device.padded(width))  \(Units.formatSize(point.residentKB).padded(8, left: true))  \(value.padded(13))  average suspended \(suspended)"
          + (limits > 0 ? "; \(limits) memory-limit exits in all" : ""))
    }
    lines.append("  reports: \(folder)/ (what-if.csv, metrickit.json, what-if.html)")
    return lines.joined(separator: "\n") + "\n"
  }

  static func json(_ points: [WhatIf.Point], app: String, folder: String) -> String {
    JSONText.render(
      .fields([
        ("app", .string(app)),
        (
          "points",
          .list(
            points.map { point in
              .fields(
                [("device", .string(point.device)), ("resident_kb", .integer(point.residentKB))]
                  + WhatIf.exits.map { exit in
                    let summary = point.summary(exit)
                    return (
                      "\(exit.column)_per_day",
                      .fields([
                        ("mean", .decimal(summary?.mean)), ("ci95", .decimal(summary?.ci95)),
                      ])
                    )
                  })
            })
        ),
        ("reports", .string(folder)),
      ]))
  }
}
