import JetsimCore
import JetsimIO

extension Comparison {
  /// What the evidence says of a policy against the best: better or worse only with at least two
  /// seeds and a paired 95 % interval that excludes 0; otherwise no verdict, with the reason.
  public enum Verdict: Sendable, Equatable {
    /// The best, clearly: every other ranked policy is clearly worse.
    case best
    /// Clearly better than the best by mean (possible where seeds without a value are left out).
    case better
    /// Clearly worse than the best.
    case worse
    /// Nothing can be told, and why.
    case noVerdict(reason: String)

    /// `best`, `better`, `worse` or `no_verdict`, as the reports write it.
    public var name: String {
      switch self {
      case .best: "best"
      case .better: "better"
      case .worse: "worse"
      case .noVerdict: "no_verdict"
      }
    }

    /// Why there is no verdict (nil when there is one).
    public var reason: String? {
      if case .noVerdict(let reason) = self { return reason }
      return nil
    }
  }

  /// One policy's place in a ranking: its rank (shared with the policies the evidence cannot
  /// tell it from), its paired difference from the best policy, seed by seed, and the verdict.
  public struct Standing: Sendable, Equatable {
    /// The policy.
    public var policy: String
    /// Its rank: 1 + the policies clearly better than it, never below the rank of a policy with
    /// a better mean (nil without a value).
    public var rank: Int?
    /// Whether another policy has the same mean.
    public var equalMeans: Bool
    /// Its difference from the best policy, seed by seed (nil for the best, or without a value).
    public var vsBest: SampleSummary?
    /// Whether another policy has the same rank (`1=`).
    public var sharesRank = false
    /// What the evidence says of it against the best.
    public var verdict = Verdict.noVerdict(reason: "not compared")

    /// Whether it cannot be told from the best: its paired interval includes 0 (with one seed there
    /// is no interval, and nothing can be told).
    public var tiedWithBest: Bool {
      guard let vsBest else { return false }
      guard let ci = vsBest.ci95 else { return vsBest.mean == 0 }
      return abs(vsBest.mean) <= ci
    }
  }

  /// The policies ranked by `metric`, best mean first, with their paired differences from the
  /// best, their verdicts, and ranks that policies the evidence cannot tell apart share.
  ///
  /// - Complexity: O(*p*² · *s*) for *p* policies and *s* seeds.
  public func standings(by metric: SummaryMetric) -> [Standing] {
    let ranked = ranking(by: metric)
    let best = ranked.first { $0.rank != nil }?.policy
    var standings = ranked.map { entry in
      Standing(
        policy: entry.policy, rank: entry.rank, equalMeans: entry.tied,
        vsBest: entry.policy == best || entry.rank == nil
          ? nil : best.flatMap { pairedDifference(metric, of: entry.policy, from: $0) })
    }
    var floor = 1
    for index in standings.indices where standings[index].rank != nil {
      let policy = standings[index].policy
      let above = standings.filter {
        $0.rank != nil && isClearlyBetter($0.policy, than: policy, by: metric)
      }
      floor = max(floor, 1 + above.count)
      standings[index].rank = floor
      if policy != best { standings[index].verdict = verdict(standings[index], metric) }
    }
    for index in standings.indices {
      standings[index].sharesRank =
        standings[index].rank != nil
        && standings.filter { $0.rank == standings[index].rank }.count > 1
    }
    if let first = standings.firstIndex(where: { $0.policy == best }) {
      standings[first].verdict = bestVerdict(standings, metric)
    }
    return standings
  }

  /// Whether `policy` is clearly better than `other` on `metric`: at least two seeds, and a paired
  /// 95 % interval that excludes 0 on the better side.
  public func isClearlyBetter(_ policy: String, than other: String, by metric: SummaryMetric)
    -> Bool
  {
    guard seeds.count > 1, policy != other,
      let difference = pairedDifference(metric, of: policy, from: other),
      let ci = difference.ci95, abs(difference.mean) > ci
    else { return false }
    return (metric.higherIsBetter ?? true) == (difference.mean > 0)
  }

  /// A policy's verdict against the best, from its paired difference.
  func verdict(_ standing: Standing, _ metric: SummaryMetric) -> Verdict {
    guard seeds.count > 1 else {
      return .noVerdict(reason: "one seed gives no interval (it takes two or more)")
    }
    guard let difference = standing.vsBest, let ci = difference.ci95 else {
      return .noVerdict(reason: "fewer than two seeds where both have a value")
    }
    guard abs(difference.mean) > ci else {
      return .noVerdict(
        reason: difference.mean == 0 && ci == 0
          ? "the same on every seed" : "the paired 95 % interval includes 0")
    }
    return (metric.higherIsBetter ?? true) == (difference.mean > 0) ? .better : .worse
  }

  /// The best policy's verdict: best when every other ranked policy is clearly worse.
  func bestVerdict(_ standings: [Standing], _ metric: SummaryMetric) -> Verdict {
    guard seeds.count > 1 else {
      return .noVerdict(reason: "one seed gives no interval (it takes two or more)")
    }
    let unclear = standings.dropFirst().filter { $0.rank != nil && $0.verdict != .worse }
    guard unclear.isEmpty else {
      let names = unclear.map(\.policy).joined(separator: ", ")
      return .noVerdict(reason: "best by mean, but not clearly ahead of \(names)")
    }
    return .best
  }

  /// The columns of `compare-summary.csv`: each metric's mean, min, max and 95 % CI half-width,
  /// then the metric ranked by and each policy's rank, verdict and the reason for no verdict, and
  /// the paired difference behind the verdict: the best policy it is taken from, and the
  /// difference's mean and 95 % CI half-width over the seeds (this policy's value less the best's).
  public static let aggregateColumns =
    ["policy", "runs"]
    + SummaryMetric.all.flatMap {
      ["\($0.name)_mean", "\($0.name)_min", "\($0.name)_max", "\($0.name)_ci95"]
    }
    + [
      "rank_by", "rank", "verdict", "verdict_reason", "vs", "paired_difference_mean",
      "paired_difference_ci95",
    ]

  /// `compare-summary.csv` ranked by the default metric.
  package var aggregateTable: CSVBuffer { aggregateTable(rankBy: .rankDefault) }

  /// `compare-summary.csv`: one row per policy in the order given, each metric's mean, min, max
  /// and 95 % CI half-width across seeds (four decimals; empty where undefined), then its rank
  /// on `metric` (shared where the evidence cannot tell policies apart), verdict and reason, and
  /// its paired difference from the best (empty for the best, and where there is none).
  package func aggregateTable(rankBy metric: SummaryMetric) -> CSVBuffer {
    var out = CSVBuffer()
    out.appendRow(Self.aggregateColumns)
    let standings = standings(by: metric)
    let best = standings.first { $0.rank != nil }?.policy
    for policy in policies {
      out.append(field: policy)
      out.comma()
      out.append(seeds.count)
      for metric in SummaryMetric.all {
        let summary = aggregate(metric, of: policy)
        for value in [summary?.mean, summary?.min, summary?.max, summary?.ci95] {
          out.comma()
          if let value { out.append(raw: Array(FixedPoint.format(value).utf8)) }
        }
      }
      let standing = standings.first { $0.policy == policy }
      let difference = standing?.vsBest
      for field in [
        metric.name, standing?.rank.map(String.init) ?? "", standing?.verdict.name ?? "",
        standing?.verdict.reason ?? "", difference == nil ? "" : best ?? "",
        difference.map { FixedPoint.format($0.mean) } ?? "",
        difference?.ci95.map { FixedPoint.format($0) } ?? "",
      ] {
        out.comma()
        out.append(field: field)
      }
      out.newline()
    }
    return out
  }
}
