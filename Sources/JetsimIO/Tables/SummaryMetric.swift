import JetsimCore

/// One numeric column of `summary.csv`: its name, how to read it from a run, whether it is a whole
/// number or a ratio, and which way is better. `summary.csv`, `compare.csv` and the per-policy
/// aggregates all follow this one list.
public struct SummaryMetric: Sendable {
  /// The column name.
  public let name: String
  /// Whether the value is a ratio (written with four decimals) rather than a whole number.
  public let isRatio: Bool
  /// Whether a larger value is better (nil where neither is).
  public let higherIsBetter: Bool?
  /// The value in a run (nil where it is undefined, such as a ratio over no opens).
  public let value: @Sendable (RunMetrics) -> Double?

  init(
    _ name: String, ratio: Bool = false, better: Bool? = nil,
    _ value: @escaping @Sendable (RunMetrics) -> Double?
  ) {
    self.name = name
    self.isRatio = ratio
    self.higherIsBetter = better
    self.value = value
  }

  init(_ name: String, better: Bool? = nil, integer: @escaping @Sendable (RunMetrics) -> Int) {
    self.init(name, better: better) { Double(integer($0)) }
  }

  /// The metric `jetsim compare` ranks by unless told: the warm-resume ratio.
  public static var rankDefault: SummaryMetric {
    all.first { $0.name == "warm_resume_ratio" } ?? all[0]
  }

  /// Every metric, in column order.
  public static let all: [SummaryMetric] =
    [
      SummaryMetric("duration_ms") { $0.durationMs },
      SummaryMetric("events") { $0.events },
      SummaryMetric("opens") { $0.opens },
      SummaryMetric("cold_launches", better: false) { $0.coldLaunches },
      SummaryMetric("warm_resumes", better: true) { $0.warmResumes },
      SummaryMetric("warm_resume_ratio", ratio: true, better: true) { $0.warmResumeRatio },
      SummaryMetric("launch_time_ms", better: false) { $0.launchTimeMs },
      SummaryMetric("memory_warnings", better: false) { $0.memoryWarnings },
      SummaryMetric("kills", better: false) { $0.totalKills },
      SummaryMetric("kills_per_hour", ratio: true, better: false) { $0.killsPerHour },
    ]
    + KillReason.allCases.map { reason in
      SummaryMetric("kills_\(reason.columnName)", better: false) { $0.kills(reason) }
    }
    + [
      SummaryMetric("system_process_kills") { $0.systemProcessKills },
      SummaryMetric("relaunches") { $0.relaunches },
      SummaryMetric("launches_waited", better: false) { $0.launchesWaited },
      SummaryMetric("shortfalls", better: false) { $0.shortfalls },
      SummaryMetric("max_shortfall_kb", better: false) { $0.maxShortfallKB },
      SummaryMetric("mean_apps_resident", ratio: true, better: true) { $0.meanAppsResident },
      SummaryMetric("peak_apps_resident") { $0.peakAppsResident },
      SummaryMetric("peak_used_kb") { $0.peakUsedKB },
      SummaryMetric("min_free_kb", better: true) { $0.minFreeKB },
      SummaryMetric("time_warning_ms", better: false) { $0.timeWarningMs },
      SummaryMetric("time_critical_ms", better: false) { $0.timeCriticalMs },
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

  /// `value` as written in a report: a whole number, four decimals for a ratio, empty when undefined.
  package func text(_ value: Double?) -> String {
    guard let value else { return "" }
    return isRatio ? FixedPoint.format(value) : String(Int(value))
  }
}
