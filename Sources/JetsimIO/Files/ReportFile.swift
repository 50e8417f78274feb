/// Every file jetsim writes at the top of an output folder, declared once: its name, the kinds of
/// folder that hold it, the subcommands that write it, and what it holds. Writers name their files
/// by these cases; what an existing folder may hold before jetsim replaces it
/// (`ReportFolder.Kind.files`), the files a golden check records (`GoldenCheck.files`),
/// the lists of files the subcommands print and their `--help`, and the table in docs/reports.md (a
/// test) all follow this list, so a new report file is one case here and its writer.
public enum ReportFile: String, CaseIterable, Sendable {
  /// A run's kills, one row each: the file a golden check compares first.
  case kills = "kills.csv"
  /// A run's event log, one row an event.
  case events = "events.csv"
  /// A run's apps and system processes, one row each.
  case apps = "apps.csv"
  /// A run's metrics, in one row.
  case summary = "summary.csv"
  /// What a run ran: jetsim's version, the inputs and their digests, the options.
  case provenance = "run.json"
  /// Each app's exits and memory as MetricKit payloads would report them (a run, a what-if).
  case metricKit = "metrickit.json"
  /// A run as a page.
  case html = "report.html"
  /// A comparison's runs, one row a policy and seed.
  case compare = "compare.csv"
  /// A comparison's policies, one row each with every metric's interval, rank and verdict.
  case compareSummary = "compare-summary.csv"
  /// A comparison as a page.
  case compareHTML = "compare.html"
  /// A plan's memory sizes tried, one row each.
  case plan = "plan.csv"
  /// A plan's answer, its interval, the rounds of seeds and the curve.
  case planJSON = "plan.json"
  /// A plan as a page.
  case planHTML = "plan.html"
  /// A replay's kills, one row a kill of a report under a policy.
  case replay = "replay.csv"
  /// A replay's agreement, one row a policy (and the shuffled control).
  case replaySummary = "replay-summary.csv"
  /// A replay's processes with their real and predicted jetsam bands.
  case bands = "bands.csv"
  /// A replay's reports, their available memory beside the device's levels.
  case levels = "levels.csv"
  /// A replay as a page.
  case replayHTML = "replay.html"
  /// The JetsamEvent reports an import read, one row each.
  case imported = "imported.csv"
  /// An imported report's device profile, in the report's own folder.
  case device = "device.json"
  /// An imported report's snapshot scenario, in the report's own folder.
  case scenario = "scenario.json"
  /// A sweep's definition and runs, read to resume and to merge.
  case sweepManifest = "sweep-manifest.json"
  /// A sweep's runs, one row each.
  case sweep = "sweep.csv"
  /// A sweep's points, one row each with every metric over its seeds.
  case sweepSummary = "sweep-summary.csv"
  /// A sweep as a page.
  case sweepHTML = "sweep.html"
  /// A what-if's points, one row an app size and device.
  case whatIf = "what-if.csv"
  /// A what-if as a page.
  case whatIfHTML = "what-if.html"

  /// The file's name in its folder.
  public var name: String { rawValue }

  /// The kinds of folder that hold it.
  public var folders: [ReportFolder.Kind] {
    switch self {
    case .events, .kills, .apps, .summary, .provenance, .html: [.run]
    case .metricKit: [.run, .whatIf]
    case .compare, .compareSummary, .compareHTML: [.comparison]
    case .plan, .planJSON, .planHTML: [.plan]
    case .replay, .replaySummary, .bands, .levels, .replayHTML: [.replay]
    case .imported, .device, .scenario: [.imported]
    case .sweepManifest, .sweep, .sweepSummary, .sweepHTML: [.sweep]
    case .whatIf, .whatIfHTML: [.whatIf]
    }
  }

  /// The jetsim subcommands that write it (`check --update` records the golden kills.csv and
  /// run.json, and events.csv with `--events`; it re-records apps.csv, summary.csv and report.html
  /// only in a golden folder that already holds them, so they are not its files; `merge` writes a
  /// sweep's files from its shards).
  public var commands: [String] {
    switch self {
    case .events, .kills, .provenance: ["run", "check"]
    case .apps, .summary, .html: ["run"]
    case .metricKit: ["run", "what-if"]
    case .compare, .compareSummary, .compareHTML: ["compare"]
    case .plan, .planJSON, .planHTML: ["plan"]
    case .replay, .replaySummary, .bands, .levels, .replayHTML: ["replay"]
    case .imported, .device, .scenario: ["import-jetsam"]
    case .sweepManifest, .sweep, .sweepSummary, .sweepHTML: ["sweep", "merge"]
    case .whatIf, .whatIfHTML: ["what-if"]
    }
  }

  /// The files the subcommand `command` writes, in this table's order (none for one that writes
  /// no report file).
  public static func written(by command: String) -> [ReportFile] {
    allCases.filter { $0.commands.contains(command) }
  }

  /// The names of `files`, as a command prints them: `compare.csv, compare-summary.csv, compare.html`.
  public static func list(_ files: [ReportFile]) -> String {
    files.map(\.name).joined(separator: ", ")
  }

  /// What it holds, in a few words (docs/reports.md has the columns).
  public var contents: String {
    switch self {
    case .events: "every transition, callback, warning, purge and kill, in order"
    case .kills: "one row a kill: victim, reason, rank, memory before and after"
    case .apps: "one row an app or system process: launches, kills by reason, time in each state"
    case .summary: "one row: the run's metrics"
    case .provenance: "what ran: jetsim's version, the inputs and their SHA-256, the options"
    case .metricKit: "each app's exits and memory as MetricKit payloads would report them"
    case .html: "the run as a page: memory over time and each process's lane"
    case .compare: "one row a policy and seed"
    case .compareSummary:
      "one row a policy: each metric's mean and interval, its rank and verdict, and its paired difference from the best"
    case .compareHTML: "the comparison as a page"
    case .plan:
      "one row a memory size tried: its seeds, the target's statistic with its 95 % interval, the share of seeds meeting the target, the metric's mean, range and each seed's value"
    case .planJSON:
      "the answer with its interval and meaning, the target, the rounds of seeds and the curve"
    case .planHTML:
      "the plan as a page: the metric's median and p5–p95 band against memory, the target and the answer"
    case .replay:
      "one row a kill of each report under each policy: the real victim beside the predicted one"
    case .replaySummary: "one row a policy (and the shuffled control): agreement over every report"
    case .bands: "each process's real and predicted jetsam band"
    case .levels: "each report's available memory beside the device's levels"
    case .replayHTML: "the replay as a page"
    case .imported: "one row an imported report: device, processes, kills"
    case .device: "an imported report's device profile (in the report's folder)"
    case .scenario: "an imported report's snapshot scenario (in the report's folder)"
    case .sweepManifest: "the sweep's definition and runs, for resuming and merging"
    case .sweep: "one row a run of the sweep"
    case .sweepSummary: "one row a point of the sweep: each metric over its seeds"
    case .sweepHTML: "the sweep as a page"
    case .whatIf:
      "one row an app size and device: exits per 24 h simulated, their paired difference from today's size, and memory"
    case .whatIfHTML: "the what-if as a page"
    }
  }
}
