import JetsimCore

/// One numeric column of `summary.csv`: its name, how to read it from a run, whether it is a whole
/// number or a ratio, and which way is better. `summary.csv`, `compare.csv` and the per-policy
/// aggregates all follow this one list.
public struct SummaryMetric: Sendable {
  /// The column name.
  public let name: String
  /// What it counts, in a phrase: shown beside the value in report.html and docs/reports.md.
  public let meaning: String
  /// Whether the value is a ratio (written with four decimals) rather than a whole number.
  public let isRatio: Bool
  /// Whether a larger value is better (nil where neither is).
  public let higherIsBetter: Bool?
  /// The value in a run (nil where it is undefined, such as a ratio over no opens).
  public let value: @Sendable (RunMetrics) -> Double?

  init(
    _ name: String, ratio: Bool = false, better: Bool? = nil, _ meaning: String,
    _ value: @escaping @Sendable (RunMetrics) -> Double?
  ) {
    self.name = name
    self.meaning = meaning
    self.isRatio = ratio
    self.higherIsBetter = better
    self.value = value
  }

  init(
    _ name: String, better: Bool? = nil, _ meaning: String,
    integer: @escaping @Sendable (RunMetrics) -> Int
  ) {
    self.init(name, better: better, meaning) { Double(integer($0)) }
  }

  /// The metric `jetsim compare` ranks by unless told: the warm-resume ratio.
  public static var rankDefault: SummaryMetric {
    all.first { $0.name == "warm_resume_ratio" } ?? all[0]
  }

  /// Whether the value is a size in KB (its name ends in `_kb`).
  public var isSize: Bool { name.hasSuffix("_kb") }
  /// Whether the value is a time in milliseconds (its name ends in `_ms`).
  public var isTime: Bool { name.hasSuffix("_ms") }

  /// Every metric, in column order.
  public static let all: [SummaryMetric] =
    [
      SummaryMetric("duration_ms", "simulated time") { $0.durationMs },
      SummaryMetric("events", "rows of events.csv") { $0.events },
      SummaryMetric("opens", "apps opened by the user") { $0.opens },
      SummaryMetric("cold_launches", better: false, "opens that launched the app from scratch") {
        $0.coldLaunches
      },
      SummaryMetric("warm_resumes", better: true, "opens that found the app in memory") {
        $0.warmResumes
      },
      SummaryMetric(
        "warm_resume_ratio", ratio: true, better: true,
        "warm resumes ÷ opens of apps launched before in the run (any cold launch counts against it)"
      ) { $0.warmResumeRatio },
      SummaryMetric(
        "pressure_cold_launches", better: false,
        "cold launches of apps whose last life ended in a memory-pressure kill: warm resumes lost to pressure"
      ) { $0.pressureColdLaunches },
      SummaryMetric(
        "pressure_warm_resume_ratio", ratio: true, better: true,
        "warm resumes ÷ (warm resumes + pressure cold launches): only memory pressure counts against it"
      ) { $0.pressureWarmResumeRatio },
      SummaryMetric(
        "launch_time_ms", better: false, "user-visible launch and resume time, summed"
      ) { $0.launchTimeMs },
      SummaryMetric("memory_warnings", better: false, "didReceiveMemoryWarning callbacks") {
        $0.memoryWarnings
      },
      SummaryMetric(
        "kills", better: false,
        "apps: terminations, for any reason (system processes: system_process_kills; both: all_kills)"
      ) { $0.totalKills },
      SummaryMetric(
        "kills_per_hour", ratio: true, better: false,
        "apps: terminations the system chose (all but force-quits and reboots) per hour"
      ) { $0.killsPerHour },
      SummaryMetric(
        "pressure_kills", better: false,
        "apps: terminations to free memory (vm-pageshortage, highwater, long-idle-exit, proc-thrashing, low-swap, idle-exit, sustained-memory-pressure); with system processes: all_pressure_kills"
      ) { $0.pressureKills },
      SummaryMetric(
        "pressure_kills_per_hour", ratio: true, better: false,
        "apps: memory-pressure terminations per hour"
      ) { $0.pressureKillsPerHour },
    ]
    + KillReason.allCases.map { reason in
      SummaryMetric("kills_\(reason.columnName)", better: false, "apps: terminations for \(reason)")
      {
        $0.kills(reason)
      }
    }
    + RunMetrics.countedBands.map { band in
      SummaryMetric(
        "band_\(band)_kills", better: false,
        "jetsam: apps and system processes killed in band \(band) for memorystatus's causes (pressure, per-process-limit); empty under other policies"
      ) { $0.kills(inBand: band).map(Double.init) }
    }
    + [
      SummaryMetric(
        "other_band_kills", better: false,
        "jetsam: the same, in any other band; empty under other policies"
      ) { $0.kills(inBand: nil).map(Double.init) },
      SummaryMetric("system_process_kills", "system processes: terminations, for any reason") {
        $0.systemProcessKills
      },
      SummaryMetric("relaunches", "system processes relaunched by launchd") { $0.relaunches },
      SummaryMetric(
        "launches_waited", better: false, "launches whose memory waited for room made by kills"
      ) { $0.launchesWaited },
      SummaryMetric(
        "shortfalls", better: false,
        "times available memory stayed below critical with nothing to kill"
      ) { $0.shortfalls },
      SummaryMetric(
        "max_shortfall_kb", better: false, "the worst gap below the critical threshold"
      ) { $0.maxShortfallKB },
      SummaryMetric(
        "mean_apps_resident", ratio: true, better: true, "apps in memory, time-weighted mean"
      ) { $0.meanAppsResident },
      SummaryMetric("peak_apps_resident", "the most apps in memory at once") {
        $0.peakAppsResident
      },
      SummaryMetric("peak_used_kb", "the most device memory in use, reserved memory included") {
        $0.peakUsedKB
      },
      SummaryMetric(
        "min_free_kb", better: true, "the least free memory: pages nobody holds, not the page cache"
      ) { $0.minFreeKB },
      SummaryMetric(
        "min_available_kb", better: true,
        "the least available memory: free pages and the page cache, what the levels are compared with"
      ) { $0.minAvailableKB },
      SummaryMetric(
        "refault_kb", better: false, "file pages read again because the page cache was too small"
      ) { $0.refaultKB },
      SummaryMetric(
        "stall_ms", better: false, "time some task waited for file pages read again (PSI 'some')"
      ) { $0.stallMs },
      SummaryMetric("time_warning_ms", better: false, "time at the warning level or worse") {
        $0.timeWarningMs
      },
      SummaryMetric("time_critical_ms", better: false, "time at the critical level") {
        $0.timeCriticalMs
      },
      SummaryMetric(
        "all_kills", better: false,
        "apps and system processes: terminations, for any reason (the rows of kills.csv)"
      ) { $0.allKills },
      SummaryMetric(
        "all_pressure_kills", better: false,
        "apps and system processes: terminations to free memory (the rows of kills.csv with a memory-pressure reason)"
      ) { $0.allPressureKills },
    ]

  /// The metric named `name`, if any.
  /// Accepts the column name or its spelling with dashes, in any case: `warm_resume_ratio`,
  /// `warm-resume-ratio`, `Kills-Per-Hour`. Every command that takes a metric reads it here.
  public static func named(_ name: String) -> SummaryMetric? {
    let canonical = canonical(name)
    return all.first { $0.name == canonical }
  }

  /// `name` as a column name: lowercase, with underscores for dashes.
  package static func canonical(_ name: String) -> String {
    name.trimmingSpaces().lowercased().replacing("-", with: "_")
  }

  /// The name as people read it: words, without the unit suffix (`peak used` for `peak_used_kb`).
  public var title: String { Self.title(ofColumn: name) }

  /// A report column's name as people read it: words, without a `_kb` or `_ms` unit suffix.
  package static func title(ofColumn column: String) -> String {
    var name = column
    for suffix in ["_kb", "_ms"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
    return name.replacing("_", with: " ")
  }

  /// `value` as people read it: sizes in MB, times on a clock, otherwise as in the CSV; `n/a`
  /// when undefined.
  public func display(_ value: Double?) -> String {
    guard let value else { return "n/a" }
    if isSize { return Units.megabytes(Int(value)) }
    if isTime { return Units.clock(Int(value)) }
    return text(value)
  }

  /// `value` as written in a report: a whole number, four decimals for a ratio, empty when undefined.
  package func text(_ value: Double?) -> String {
    guard let value else { return "" }
    return isRatio ? FixedPoint.format(value) : String(Int(value))
  }
}
