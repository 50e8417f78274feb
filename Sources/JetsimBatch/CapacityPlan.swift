import JetsimCore
import JetsimIO

/// The smallest device memory meeting a target over a fleet of days, the 95 % interval of that
/// answer, and the curve measured on the way.
public struct CapacityPlan: Sendable {
  /// One memory size tried: the metric on each seed, its statistic with the statistic's interval,
  /// and whether the target holds on each.
  public struct Probe: Sendable {
    /// The device memory tried, in KB.
    public var memoryKB: Int
    /// The metric on each seed it was run with (nil where undefined): the first `values.count` of
    /// the plan's seeds, fewer than all when it was tried in an earlier round only.
    public var values: [Double?]
    /// The target's statistic of `values` and its interval.
    public var estimate: TargetEstimate
    /// Whether the statistic meets the target.
    public var holds: Bool
    /// Whether the interval's good end meets the target (so the answer may be here or below).
    public var holdsOptimistic: Bool
    /// Whether the interval's bad end meets the target (so the answer is here or below).
    public var holdsPessimistic: Bool
    /// App kills over all seeds, by reason (`KillReason.rawValue` index).
    public var killsByReason: [Int] = Array(repeating: 0, count: KillReason.allCases.count)
    /// App kills over all seeds by app and reason, most first (ties by app, then reason).
    public var appKills: [AppKills] = []
    /// Opens over all seeds that were neither cold launches nor warm resumes: the app died before
    /// it reached the screen (no room even after kills, or a fatal limit).
    public var failedOpens = 0

    /// How many seeds it was run with.
    public var seedCount: Int { values.count }

    /// Kills for `reason` over all seeds.
    public func kills(_ reason: KillReason) -> Int { killsByReason[Int(reason.rawValue)] }

    /// Memory-pressure kills of apps over all seeds (`KillReason.isMemoryPressure`).
    public var pressureKills: Int {
      KillReason.allCases.filter(\.isMemoryPressure).reduce(0) { $0 + kills($1) }
    }
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

  /// One round of seeds: the answer and its interval with that many seeds.
  public struct Round: Sendable, Equatable {
    /// The seeds of the round.
    public var seeds: Int
    /// The answer, in KB (nil when not met at the largest memory).
    public var answerKB: Int?
    /// The interval's lower end (nil when the seeds cannot bound it).
    public var lowKB: Int?
    /// The interval's upper end (nil when the seeds cannot bound it).
    public var highKB: Int?
  }

  /// The target.
  public var target: CapacityTarget
  /// The seeds of the last round, which every size it tried was run with.
  public var seeds: [UInt64]
  /// The grid the memory was searched on, in KB.
  public var precisionKB: Int
  /// The probes, by memory.
  public var probes: [Probe]
  /// The answer, or nil if even the largest memory tried misses the target.
  public var answerKB: Int? { rounds.last?.answerKB }
  /// The 95 % interval of the answer: the smallest memory whose statistic's interval meets the
  /// target at its good end, and at its bad end (nil where the seeds cannot bound it).
  public var interval: (lowKB: Int?, highKB: Int?) { (rounds.last?.lowKB, rounds.last?.highKB) }
  /// Each round of seeds, the last one's being the answer.
  public var rounds: [Round]
  /// The most seeds the plan could run (nil when it ran the seeds given only).
  public var maxSeeds: Int?

  /// Whether the answer settled: it moved by no more than the precision between the last two
  /// rounds (nil with one round).
  public var settled: Bool? {
    guard rounds.count > 1 else { return nil }
    let last = rounds[rounds.count - 1].answerKB
    let before = rounds[rounds.count - 2].answerKB
    switch (last, before) {
    case (nil, nil): return true
    case let (a?, b?): return abs(a - b) <= precisionKB
    default: return false
    }
  }

  /// Why an end of the interval is missing (nil when both are there or there is no answer).
  public var intervalNote: String? {
    guard let answer = answerKB else { return nil }
    let (low, high) = interval
    if answerIsSmallestTried, low == answer {
      return "the answer is the smallest size tried, so the interval cannot reach below it"
    }
    guard low == nil || high == nil else { return nil }
    let largest = Units.formatSize(probes.last?.memoryKB ?? answer)
    switch target.statistic {
    case .all:
      return "@all is the worst of the seeds run, which has no interval and grows with more seeds"
    case .mean:
      return seeds.count < 2
        ? "one seed gives no interval"
        : "the interval's bad end misses the target even at \(largest)"
    case .quantile:
      let needed = target.statistic.seedsForBoundedInterval ?? 0
      if high == nil && seeds.count < needed {
        return
          "\(seeds.count.counted("seed")) cannot bound \(target.statistic) from the bad side: that takes at least \(needed)"
      }
      if low == nil { return "one seed gives no interval" }
      return "the interval's bad end misses the target even at \(largest)"
    }
  }

  /// Whether the answer is the smallest size tried: the target held there, so the search never
  /// saw it unmet, and the answer only says that no smaller size was tried.
  public var answerIsSmallestTried: Bool {
    guard let answer = answerKB, let smallest = probes.first?.memoryKB else { return false }
    return answer == smallest
  }

  /// Metrics that count only the opens that reached the screen, so they fall as memory starves
  /// and opens fail: a target that asks them to be low is met by too little memory.
  public static let metricsOfOpensThatReachedTheScreen: Set<String> = [
    "cold_launches", "warm_resumes", "pressure_cold_launches", "launch_time_ms",
  ]

  /// What to make of an answer at the smallest size tried, in one sentence: that the search never
  /// saw the target unmet, and, where opens failed there (memory starved), the failed opens and
  /// memory-pressure kills a run and that the metric may not grow with memory (nil when the answer
  /// is not the smallest size tried).
  public var smallestTriedWarning: String? {
    guard answerIsSmallestTried, let probe = probes.first else { return nil }
    let size = Units.formatSize(probe.memoryKB)
    var text =
      "the target already holds at \(size), the smallest size tried: the search never saw it unmet"
    guard probe.failedOpens > 0 else { return text }
    let runs = Double(max(probe.seedCount, 1))
    let failed = Units.decimal(Double(probe.failedOpens) / runs, digits: 1)
    let pressure = Units.decimal(Double(probe.pressureKills) / runs, digits: 1)
    text +=
      "; there, \(failed) opens a run failed (the app died before reaching the screen) and memory pressure killed \(pressure) apps a run, so \(target.metric.name) may not grow with memory"
    if Self.metricsOfOpensThatReachedTheScreen.contains(target.metric.name) {
      text +=
        " (it counts only the opens that reached the screen, and fewer do as memory starves)"
    }
    return text
  }

  /// The kills that remain at the largest memory tried when the target is not met there, most
  /// first: what keeps the target out of reach (empty when it is met).
  public var remainingKills: [AppKills] {
    guard answerKB == nil, let largest = probes.last else { return [] }
    return largest.appKills
  }
}
