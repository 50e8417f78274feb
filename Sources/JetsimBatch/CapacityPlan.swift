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

    /// How many seeds it was run with.
    public var seedCount: Int { values.count }

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

  /// The kills that remain at the largest memory tried when the target is not met there, most
  /// first: what keeps the target out of reach (empty when it is met).
  public var remainingKills: [AppKills] {
    guard answerKB == nil, let largest = probes.last else { return [] }
    return largest.appKills
  }
}
