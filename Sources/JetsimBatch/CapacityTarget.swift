import JetsimCore
import JetsimIO
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A capacity target such as `warm-resume-ratio>=0.9@p95`: a summary metric, a comparison, a value,
/// and what is asked of it over the seeds (a share of days, the mean, or every seed).
public struct CapacityTarget: Sendable, CustomStringConvertible {
  /// How the metric must compare with the value.
  public enum Comparison: String, Sendable, CaseIterable {
    /// `>=`
    case atLeast = ">="
    /// `<=`
    case atMost = "<="
    /// `>`
    case above = ">"
    /// `<`
    case below = "<"
  }

  /// The summary metric the target is about.
  public var metric: SummaryMetric
  /// How the metric must compare with `value`.
  public var comparison: Comparison
  /// The value the metric is compared with.
  public var value: Double
  /// What is asked of the metric over the seeds: `@p95` unless given.
  public var statistic = TargetStatistic.standard

  /// A target on `metric`, asked of `statistic` over the seeds.
  public init(
    metric: SummaryMetric, comparison: Comparison, value: Double,
    statistic: TargetStatistic = .standard
  ) {
    self.metric = metric
    self.comparison = comparison
    self.value = value
    self.statistic = statistic
  }

  /// Parses `METRIC OP VALUE[@STATISTIC]` (metric names as in `summary.csv`, with `-` or `_`;
  /// `@p95` unless given, or `@pNN`, `@mean`, `@all`); nil if it is not one, with `problem` saying
  /// why.
  public static func parse(_ text: String) -> (target: CapacityTarget?, problem: String?) {
    var compact = text.filter { $0 != " " }
    var statistic = TargetStatistic.standard
    if let at = compact.lastIndex(of: "@") {
      let suffix = String(compact[compact.index(after: at)...])
      guard let parsed = TargetStatistic.parse(suffix) else {
        return (
          nil,
          "'@\(suffix)' is not a statistic; write @p95 (or another share of days, @p50 to @p99.9), @mean or @all"
        )
      }
      statistic = parsed
      compact = String(compact[..<at])
    }
    for comparison in [Comparison.atLeast, .atMost, .above, .below] {
      let sides = compact.components(separatedBy: comparison.rawValue)
      guard sides.count > 1 else { continue }
      let name = sides[0].components(separatedBy: "-").joined(separator: "_")
      guard let metric = SummaryMetric.named(name) else {
        let hint =
          Suggestion.closest(to: name, in: SummaryMetric.all.map(\.name)).map {
            "; did you mean '\($0)'?"
          } ?? ""
        return (nil, "'\(name)' is not a summary metric\(hint)")
      }
      let number = sides.dropFirst().joined(separator: comparison.rawValue)
      guard let value = Double(number), value.isFinite else {
        return (nil, "'\(number)' is not a number")
      }
      return (
        CapacityTarget(
          metric: metric, comparison: comparison, value: value, statistic: statistic), nil
      )
    }
    return (
      nil, "write it as METRIC>=VALUE[@p95] (or <=, >, <), such as warm-resume-ratio>=0.9@p95"
    )
  }

  /// Whether a run's value meets the target (an undefined value never does).
  public func holds(_ measured: Double?) -> Bool {
    guard let measured else { return false }
    switch comparison {
    case .atLeast: return measured >= value
    case .atMost: return measured <= value
    case .above: return measured > value
    case .below: return measured < value
    }
  }

  public var description: String {
    "\(metric.name) \(comparison.rawValue) \(Units.decimal(value, digits: 4)) @\(statistic)"
  }
}

extension KillReason {
  /// Why a kill of this reason stays whatever the device's memory, or nil for a memory-pressure
  /// kill, which more memory makes rarer.
  public var whyMemoryDoesNotHelp: String? {
    switch self {
    case .vmPageshortage, .highwater, .longIdleExit, .procThrashing, .lowSwap, .idleExit,
      .sustainedPressure,
      .lmkPressureAfterKill, .lmkNotResponding, .lmkLowSwapAndThrashing, .lmkLowMemAndSwap,
      .lmkLowMemAndThrashing, .lmkDirectReclAndThrashing, .lmkLowMemAndSwapUtil,
      .lmkLowFilecacheAfterThrashing, .lmkLowMem, .lmkDirectReclStuck, .lmkNone:
      nil
    case .exitOnSuspend: "it exits on suspend each time it leaves the screen, whatever the memory"
    case .userForceQuit: "the workload force-quits it"
    case .reboot: "the workload reboots the device"
    case .amTooManyCached, .amTooManyEmpty, .amTrimEmpty:
      "ActivityManager keeps at most so many cached and empty processes, whatever the memory"
    case .watchdog: "its didEnterBackground outlasts the watchdog's timeout"
    case .backgroundTaskExpired: "its background task outlasts the device's limit"
    case .perProcessLimit: "its footprint goes over its own per-app limit"
    }
  }
}
