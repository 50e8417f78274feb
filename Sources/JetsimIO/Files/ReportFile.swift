/// Every file jetsim writes at the top of an output folder, declared once: its name, the kinds of
/// folder that hold it, and what it holds. Writers name their files by these cases; what an
/// existing folder may hold before jetsim replaces it (`ReportFolder.Kind.files`), the files a
/// golden check compares, and the table in docs/reports.md (a test) all follow this list, so a new
/// report file is one case here and its writer.
public enum ReportFile: String, CaseIterable, Sendable {
  case events = "events.csv"
  case kills = "kills.csv"
  case apps = "apps.csv"
  case summary = "summary.csv"
  case provenance = "run.json"
  case metricKit = "metrickit.json"
  case html = "report.html"
  case compare = "compare.csv"
  case compareSummary = "compare-summary.csv"
  case compareHTML = "compare.html"
  case plan = "plan.csv"
  case planJSON = "plan.json"
  case planHTML = "plan.html"
  case replay = "replay.csv"
  case replaySummary = "replay-summary.csv"
  case bands = "bands.csv"
  case levels = "levels.csv"
  case replayHTML = "replay.html"
  case imported = "imported.csv"
  case device = "device.json"
  case scenario = "scenario.json"
  case sweepManifest = "sweep-manifest.json"
  case sweep = "sweep.csv"
  case sweepSummary = "sweep-summary.csv"
  case sweepHTML = "sweep.html"
  case whatIf = "what-if.csv"
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
    case .compareSummary: "one row a policy: each metric's mean and interval, its rank and verdict"
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
