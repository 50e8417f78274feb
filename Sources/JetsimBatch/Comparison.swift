import JetsimCore
import JetsimIO

/// The same scenario run under several policies and seeds: `jetsim compare`.
///
/// Every run of one seed sees the identical workload (the workload's random draws come from their own
/// stream, untouched by the policy), so differences come from the policies alone. Results are in
/// policy-major order whatever the number of threads.
public struct Comparison: Sendable {
  /// The scenario compared.
  public let scenarioName: String
  /// The policies, in the order given.
  public let policies: [String]
  /// The seeds, in the order given.
  public let seeds: [UInt64]
  /// One summary per run: every seed of the first policy, then of the second, and so on.
  public let runs: [RunSummary]
  /// Each metric of `SummaryMetric.all` (in its order) in each run (in run order), read once:
  /// rankings and tables ask for the same values many times.
  private let values: [[Double?]]

  init(scenarioName: String, policies: [String], seeds: [UInt64], runs: [RunSummary]) {
    self.scenarioName = scenarioName
    self.policies = policies
    self.seeds = seeds
    self.runs = runs
    var values = SummaryMetric.all.map { _ in [Double?]() }
    for run in runs {
      let metrics = run.metrics
      for index in values.indices { values[index].append(SummaryMetric.all[index].value(metrics)) }
    }
    self.values = values
  }

  /// Runs `scenario` under each of `policies` with each of `seeds`, on up to `jobs` threads. With a
  /// `destination`, writes `compare.csv`, `compare-summary.csv` and `compare.html` there (and, with
  /// `keepRuns`, each run's reports in `<policy>/seed-<n>/`), all into place at once at the end.
  ///
  /// - Complexity: *p* × *s* runs for *p* policies and *s* seeds, on `jobs` threads; each
  ///   O(*e*) for *e* events.
  public static func run(
    _ scenario: Scenario, policies: [PolicyName], seeds: [UInt64], jobs: Int,
    destination: String? = nil, keepRuns: Bool = false, rankBy: SummaryMetric = .rankDefault,
    progress: (@Sendable (Int, Int) -> Void)? = nil
  ) throws(JetsimError) -> Comparison {
    let folder: ReportFolder? =
      if let destination { try ReportFolder(destination: destination, kind: .comparison) } else {
        nil
      }
    let total = policies.count * seeds.count
    var perRun: (@Sendable (Int) -> Void)?
    if let progress { perRun = { done in progress(done, total) } }
    let runsFolder = keepRuns ? folder : nil
    do {
      let results = try ParallelMap.run(count: total, jobs: jobs, progress: perRun) { index in
        var variant = scenario.unshared
        variant.policy = policies[index / seeds.count]
        variant.seed = seeds[index % seeds.count]
        let summary = try runOne(variant, in: runsFolder)
        return (summary: summary, row: folder == nil ? [] : compareRow(summary))
      }
      let comparison = Comparison(
        scenarioName: scenario.name, policies: policies.map(\.rawValue), seeds: seeds,
        runs: results.map(\.summary))
      if let folder {
        try folder.write(compareTable(rows: results.map(\.row)).text, as: .compare)
        try folder.write(
          comparison.aggregateTable(rankBy: rankBy).text, as: .compareSummary)
        try folder.write(BatchHTMLReport.comparison(comparison, rankBy: rankBy), as: .compareHTML)
        try folder.commit()
      }
      return comparison
    } catch {
      folder?.discard()
      throw (error as? JetsimError)
        ?? .outputNotWritable(path: destination ?? "", reason: "\(error)")
    }
  }

  /// One run, with its reports in `<folder>/<policy>/seed-<n>/` if there is a folder.
  private static func runOne(_ scenario: Scenario, in folder: ReportFolder?) throws(JetsimError)
    -> RunSummary
  {
    guard let folder else {
      var quiet = DiscardingObserver()
      return try Simulator.run(scenario, observer: &quiet)
    }
    let runFolder = try ReportFolder(named: "\(scenario.policy)/seed-\(scenario.seed)", in: folder)
    var writer = try ReportWriter(folder: runFolder, scenario: scenario)
    do {
      let summary = try Simulator.run(scenario, observer: &writer)
      try writer.finish(summary)
      return summary
    } catch {
      writer.discard()
      throw error
    }
  }

  /// The runs of `policy`, in seed order.
  public func runs(of policy: String) -> ArraySlice<RunSummary> {
    guard let index = policies.firstIndex(of: policy) else { return [] }
    return runs[(index * seeds.count)..<((index + 1) * seeds.count)]
  }

  /// `metric` of `policy` across its seeds.
  public func aggregate(_ metric: SummaryMetric, of policy: String) -> SampleSummary? {
    SampleSummary(Array(values(metric, of: policy)))
  }

  /// `metric`'s value in each run of `policy`, in seed order.
  private func values(_ metric: SummaryMetric, of policy: String) -> ArraySlice<Double?> {
    guard let index = policies.firstIndex(of: policy) else { return [] }
    let range = (index * seeds.count)..<((index + 1) * seeds.count)
    guard let column = SummaryMetric.all.firstIndex(where: { $0.name == metric.name }) else {
      return ArraySlice(runs[range].map { metric.value($0.metrics) })
    }
    return values[column][range]
  }

  /// The policies whose runs were the same on every seed (with more than one seed): the workload
  /// drew nothing at random (a script or a trace), so for them more seeds add nothing and every
  /// confidence interval is zero. A policy that draws its own numbers (`random`) still varies.
  public var policiesSeedsDoNotChange: [String] {
    guard seeds.count > 1 else { return [] }
    return policies.filter { policy in
      let runs = runs(of: policy)
      return runs.allSatisfy { $0.metrics == runs.first?.metrics }
    }
  }

  /// The policies ranked by `metric`, best first: each with its rank, shared by policies whose means
  /// are equal ("standard competition" ranking: 1, 1, 3), and whether it is tied. Policies without a
  /// value come last, unranked.
  ///
  /// - Complexity: O(*p*²) for *p* policies (a handful).
  public func ranking(by metric: SummaryMetric) -> [(policy: String, rank: Int?, tied: Bool)] {
    let higherIsBetter = metric.higherIsBetter ?? true
    let means = policies.map { aggregate(metric, of: $0)?.mean }
    let order = policies.indices.sorted { a, b in
      switch (means[a], means[b]) {
      case let (x?, y?) where x != y: return higherIsBetter ? x > y : x < y
      case (_?, nil): return true
      case (nil, _?): return false
      default: return a < b
      }
    }
    return order.enumerated().map { position, index in
      guard let mean = means[index] else { return (policies[index], nil, false) }
      let rank = (order.firstIndex { means[$0] == mean } ?? position) + 1
      let tied = order.filter { means[$0] == mean }.count > 1
      return (policies[index], rank, tied)
    }
  }

  /// Whether the best policy on `metric` is clearly the best: every other ranked policy's paired
  /// interval excludes 0 (needs at least two seeds).
  public func bestIsClear(by metric: SummaryMetric) -> Bool {
    seeds.count > 1 && standings(by: metric).allSatisfy { $0.vsBest == nil || !$0.tiedWithBest }
  }

  /// `metric` of `policy` minus that of `baseline`, seed by seed: the runs of one seed share their
  /// workload, so the paired difference's interval is narrower than the two means' intervals say.
  public func pairedDifference(_ metric: SummaryMetric, of policy: String, from baseline: String)
    -> SampleSummary?
  {
    SampleSummary(
      zip(values(metric, of: policy), values(metric, of: baseline)).map { value, reference in
        guard let value, let reference else { return nil }
        return value - reference
      })
  }

  /// `compare.csv`: one row per run, the columns of `summary.csv`.
  package var compareTable: CSVBuffer { Self.compareTable(rows: runs.map(Self.compareRow)) }

  /// `compare.csv` of each run's row (`compareRow`), in run order.
  private static func compareTable(rows: [[UInt8]]) -> CSVBuffer {
    var out = CSVBuffer()
    out.appendRow(ReportTables.summaryColumns)
    for row in rows { out.append(raw: row) }
    return out
  }

  /// `run`'s row of `compare.csv`: made where the run is, on every core.
  private static func compareRow(_ run: RunSummary) -> [UInt8] {
    var out = CSVBuffer(capacity: 1024)
    ReportTables.appendSummary(run, to: &out)
    return out.bytes
  }
}
