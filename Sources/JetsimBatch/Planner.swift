import Foundation
import JetsimCore
import JetsimIO

/// A capacity target such as `warm-resume-ratio>=0.9`: a summary metric, a comparison and a value.
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

  /// Parses `METRIC OP VALUE` (metric names as in `summary.csv`, with `-` or `_`); nil if it is not
  /// one, with `problem` saying why.
  public static func parse(_ text: String) -> (target: CapacityTarget?, problem: String?) {
    let compact = text.filter { $0 != " " }
    for comparison in [Comparison.atLeast, .atMost, .above, .below] {
      guard let range = compact.range(of: comparison.rawValue) else { continue }
      let name = compact[..<range.lowerBound].replacingOccurrences(of: "-", with: "_")
      guard let metric = SummaryMetric.named(name) else {
        let hint =
          Suggestion.closest(to: name, in: SummaryMetric.all.map(\.name)).map {
            "; did you mean '\($0)'?"
          } ?? ""
        return (nil, "'\(name)' is not a summary metric\(hint)")
      }
      guard let value = Double(compact[range.upperBound...]), value.isFinite else {
        return (nil, "'\(compact[range.upperBound...])' is not a number")
      }
      return (CapacityTarget(metric: metric, comparison: comparison, value: value), nil)
    }
    return (nil, "write it as METRIC>=VALUE (or <=, >, <), such as warm-resume-ratio>=0.9")
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
    "\(metric.name) \(comparison.rawValue) \(Units.decimal(value, digits: 4))"
  }
}

/// The smallest device memory meeting a target on every seed, and the curve measured on the way.
public struct CapacityPlan: Sendable {
  /// One memory size tried: the metric on each seed and whether all met the target.
  public struct Probe: Sendable {
    /// The device memory tried, in KB.
    public var memoryKB: Int
    /// The metric on each seed (nil where undefined).
    public var values: [Double?]
    /// Whether the target held on every seed.
    public var holds: Bool
    /// App kills over all seeds, by reason (`KillReason.rawValue` index).
    public var killsByReason: [Int] = Array(repeating: 0, count: KillReason.allCases.count)
    /// App kills over all seeds by app and reason, most first (ties by app, then reason).
    public var appKills: [AppKills] = []

    /// Kills for `reason` over all seeds.
    public func kills(_ reason: KillReason) -> Int { killsByReason[Int(reason.rawValue)] }
  }

  /// One app's kills for one reason over every seed of a probe.
  public struct AppKills: Sendable, Equatable {
    /// The app's id.
    public var app: String
    /// Why it was killed.
    public var reason: KillReason
    /// How many times, over every seed.
    public var count: Int
  }

  /// The target.
  public var target: CapacityTarget
  /// The seeds every memory size was run with.
  public var seeds: [UInt64]
  /// The grid the memory was searched on, in KB.
  public var precisionKB: Int
  /// The probes, by memory.
  public var probes: [Probe]
  /// The answer, or nil if even the largest memory tried misses the target.
  public var answerKB: Int?

  /// The kills that remain at the largest memory tried when the target is not met there, most
  /// first: what keeps the target out of reach (empty when it is met).
  public var remainingKills: [AppKills] {
    guard answerKB == nil, let largest = probes.last else { return [] }
    return largest.appKills
  }
}

extension KillReason {
  /// Why a kill of this reason stays whatever the device's memory, or nil for a memory-pressure
  /// kill, which more memory makes rarer.
  public var whyMemoryDoesNotHelp: String? {
    switch self {
    case .vmPageshortage, .highwater, .longIdleExit, .procThrashing, .lowSwap,
      .lmkPressureAfterKill, .lmkNotResponding, .lmkLowSwapAndThrashing,
      .lmkLowMemAndSwap, .lmkLowMemAndThrashing, .lmkDirectReclAndThrashing, .lmkLowMemAndSwapUtil,
      .lmkLowFilecacheAfterThrashing, .lmkLowMem, .lmkNone:
      nil
    case .exitOnSuspend: "it exits on suspend each time it leaves the screen, whatever the memory"
    case .userForceQuit: "the workload force-quits it"
    case .reboot: "the workload reboots the device"
    case .watchdog: "its didEnterBackground outlasts the watchdog's timeout"
    case .backgroundTaskExpired: "its background task outlasts the device's limit"
    case .perProcessLimit: "its footprint goes over its own per-app limit"
    }
  }
}

/// Finds the smallest memory for a target by bisection (`jetsim plan`).
public enum Planner {
  /// The memory range searched when none is given: from the smallest size above the device's
  /// reserved memory (plus one step of the precision) to 16 GB, or twice the device's memory if
  /// that is more.
  public static func defaultRange(for device: DeviceProfile, precisionKB: Int) -> (
    minKB: Int, maxKB: Int
  ) {
    let step = max(precisionKB, 1)
    let minimum = (device.reservedKB + step + step - 1) / step * step
    let maximum = max(16 * 1_048_576, 2 * device.memoryKB, minimum + step)
    return (minimum, maximum)
  }

  /// Bisects device memory between `minKB` and `maxKB` until the bracket is `precisionKB` wide,
  /// running every seed at each size (on `jobs` threads). The target must hold on every seed. Memory
  /// sizes are multiples of `precisionKB`; thresholds the device does not set follow the memory.
  /// Bisection assumes that more memory never hurts; the curve shows whether it did.
  ///
  /// - Complexity: O(log((*max* − *min*) / *precision*)) memory sizes, each *s* runs for *s* seeds.
  public static func plan(
    _ scenario: Scenario, target: CapacityTarget, seeds: [UInt64], minKB: Int, maxKB: Int,
    precisionKB: Int, jobs: Int,
    progress: (@Sendable (Int) -> Void)? = nil
  ) throws(JetsimError) -> CapacityPlan {
    let floor = scenario.device.reservedKB + precisionKB
    guard precisionKB > 0, minKB < maxKB, minKB >= floor else {
      throw .invalidValue(
        path: scenario.origin, keyPath: "memory range",
        value:
          "\(Units.megabytes(minKB)) to \(Units.megabytes(maxKB)) in steps of \(Units.megabytes(precisionKB))",
        expected:
          "a minimum of at least the device's reserved memory plus one step (\(Units.megabytes(floor))), below the maximum"
      )
    }
    var probes: [CapacityPlan.Probe] = []
    func probe(_ memoryKB: Int) throws(JetsimError) -> Bool {
      if let known = probes.first(where: { $0.memoryKB == memoryKB }) { return known.holds }
      var resized = scenario
      resized.device = scenario.device.withMemory(memoryKB)
      let sized = resized
      let summaries: [RunSummary]
      summaries = try ParallelMap.runs(of: scenario, count: seeds.count, jobs: jobs) { index in
        var run = sized.unshared
        run.seed = seeds[index]
        var quiet = DiscardingObserver()
        return try Simulator.run(run, observer: &quiet)
      }
      probes.append(probeResult(memoryKB, target: target, summaries: summaries))
      let holds = probes[probes.count - 1].holds
      progress?(probes.count)
      return holds
    }
    let grid = { (kb: Int) in (kb + precisionKB - 1) / precisionKB * precisionKB }
    var low = grid(minKB)
    var high = grid(maxKB)
    var answer: Int?
    if try probe(high) {
      if try probe(low) {
        answer = low
      } else {
        while high - low > precisionKB {
          let middle = low + (high - low) / 2 / precisionKB * precisionKB
          if try probe(middle) { high = middle } else { low = middle }
        }
        answer = high
      }
    }
    return CapacityPlan(
      target: target, seeds: seeds, precisionKB: precisionKB,
      probes: probes.sorted { $0.memoryKB < $1.memoryKB },
      answerKB: answer)
  }

  /// A probe from its seeds' summaries: the metric on each, and the kills by reason and by app.
  static func probeResult(_ memoryKB: Int, target: CapacityTarget, summaries: [RunSummary])
    -> CapacityPlan.Probe
  {
    let values = summaries.map { target.metric.value($0.metrics) }
    var probe = CapacityPlan.Probe(
      memoryKB: memoryKB, values: values, holds: values.allSatisfy(target.holds))
    var byApp: [String: [Int]] = [:]
    for summary in summaries {
      for (index, count) in summary.metrics.killsByReason.enumerated() {
        probe.killsByReason[index] += count
      }
      for (app, stats) in summary.apps.prefix(summary.appCount).enumerated() {
        for (index, count) in stats.killsByReason.enumerated() where count > 0 {
          byApp[
            summary.appIDs[app], default: Array(repeating: 0, count: KillReason.allCases.count)][
              index] += count
        }
      }
    }
    probe.appKills = byApp.flatMap { app, counts in
      KillReason.allCases.compactMap { reason in
        let count = counts[Int(reason.rawValue)]
        return count > 0 ? CapacityPlan.AppKills(app: app, reason: reason, count: count) : nil
      }
    }.sorted { ($1.count, $0.app, $0.reason.rawValue) < ($0.count, $1.app, $1.reason.rawValue) }
    return probe
  }
}
