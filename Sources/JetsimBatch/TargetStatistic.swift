import JetsimCore

/// What a capacity target is asked of over a fleet of days (one seed is one simulated day of use):
/// that it holds on a share of them (`@p95`, the default), on average (`@mean`), or on every seed
/// run (`@all`, the worst day seen, which only grows with more seeds).
public enum TargetStatistic: Sendable, Equatable, CustomStringConvertible {
  /// The target holds on at least this share of days, in percent (0 < share < 100): the metric's
  /// quantile on the target's bad side (the 95th percentile of kills a hour, the 5th of a ratio
  /// that must be high).
  case quantile(Double)
  /// The metric's mean across seeds meets the target.
  case mean
  /// The target holds on every seed run.
  case all

  /// The default: 95 % of days.
  public static let standard = TargetStatistic.quantile(95)

  /// Parses `p95`, `p99.5`, `mean` or `all` (the text after `@`); nil if it is none of them.
  public static func parse(_ text: String) -> TargetStatistic? {
    switch text.lowercased() {
    case "mean": return .mean
    case "all": return .all
    default:
      guard text.lowercased().hasPrefix("p"), let share = Double(text.dropFirst()), share > 0,
        share < 100
      else { return nil }
      return .quantile(share)
    }
  }

  /// `p95`, `mean` or `all`, as written after `@`.
  public var description: String {
    switch self {
    case .quantile(let share): "p" + Units.decimal(share, digits: share.rounded() == share ? 0 : 1)
    case .mean: "mean"
    case .all: "all"
    }
  }

  /// The statistic in words, for the sentence that says what an answer means.
  public var meaning: String {
    switch self {
    case .quantile(let share):
      "on \(Units.decimal(share, digits: share.rounded() == share ? 0 : 1)) % of days"
    case .mean: "on average over days"
    case .all: "on every one of the days run (the worst day seen, which only grows with more seeds)"
    }
  }

  /// The fewest seeds for which the quantile's 95 % interval has an end on the bad side (the
  /// worst seed is then unlikely to be better than the quantile); nil for the mean and `all`.
  public var seedsForBoundedInterval: Int? {
    guard case .quantile(let share) = self else { return nil }
    var n = 1
    var power = share / 100
    while power > 0.025 && n < 1_000_000 {
      n += 1
      power *= share / 100
    }
    return n
  }
}

/// The statistic of one memory size's seeds and the ends of its 95 % interval, on the target's
/// good side (`optimistic`) and bad side (`pessimistic`); an end is nil where the seeds cannot
/// bound it.
public struct TargetEstimate: Sendable, Equatable {
  /// The statistic (nil when undefined, such as a quantile that falls on a seed without a value).
  public var value: Double?
  /// The interval's end on the good side.
  public var optimistic: Double?
  /// The interval's end on the bad side.
  public var pessimistic: Double?
}

extension CapacityTarget {
  /// The statistic of `values` (one a seed; nil where undefined, counted as a day that misses the
  /// target) with its 95 % interval: for a quantile, order statistics whose ranks come from the
  /// binomial distribution (distribution-free); for the mean, Student's t; `all` has none.
  ///
  /// - Complexity: O(*n* log *n*) for *n* seeds.
  public func estimate(_ values: [Double?]) -> TargetEstimate {
    let sorted = values.sorted { a, b in
      guard let a else { return false }
      guard let b else { return true }
      return isBetter(a, than: b)
    }
    let n = sorted.count
    guard n > 0 else { return TargetEstimate() }
    switch statistic {
    case .all:
      return TargetEstimate(value: sorted[n - 1])
    case .mean:
      guard let summary = SampleSummary(values) else { return TargetEstimate() }
      let sign: Double = isBetter(1, than: 0) ? 1 : -1
      return TargetEstimate(
        value: summary.mean, optimistic: summary.ci95.map { summary.mean + sign * $0 },
        pessimistic: summary.ci95.map { summary.mean - sign * $0 })
    case .quantile(let share):
      let rank = Swift.min(n, Swift.max(1, Int((share / 100 * Double(n)).rounded(.up))))
      let ranks = OrderStatistics.interval(count: n, share: share / 100)
      return TargetEstimate(
        value: sorted[rank - 1], optimistic: ranks.low >= 1 ? sorted[ranks.low - 1] : nil,
        pessimistic: ranks.high <= n ? sorted[ranks.high - 1] : nil)
    }
  }

  /// Whether `a` is better than `b` for this target (higher for `>=` and `>`).
  func isBetter(_ a: Double, than b: Double) -> Bool {
    switch comparison {
    case .atLeast, .above: a > b
    case .atMost, .below: a < b
    }
  }
}

/// Ranks of order statistics that bound a quantile.
enum OrderStatistics {
  /// The 1-based ranks (counted from the best) of the order statistics that bound the `share`
  /// quantile of `count` values with at least 95 % confidence: with B ~ Binomial(count, share),
  /// `low` is the largest rank with P(B < low) ≤ 2.5 % and `high` the smallest with
  /// P(B ≥ high) ≤ 2.5 %. `low` is 0 and `high` is `count + 1` where no order statistic will do.
  ///
  /// - Complexity: O(*count*).
  static func interval(count n: Int, share p: Double) -> (low: Int, high: Int) {
    let logP = PortableMath.log(p)
    let logQ = PortableMath.log(1 - p)
    var logChoose = 0.0
    var cumulative = 0.0
    var low = 0
    var high = n + 1
    for k in 0...n {
      if k > 0 { logChoose += PortableMath.log(Double(n - k + 1)) - PortableMath.log(Double(k)) }
      cumulative += PortableMath.exp(logChoose + Double(k) * logP + Double(n - k) * logQ)
      if cumulative <= 0.025 { low = k + 1 }
      if cumulative >= 0.975 {
        high = k + 1
        break
      }
    }
    return (Swift.min(low, n), high)
  }
}
