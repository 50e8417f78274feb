import JetsimCore
import JetsimIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which share of a sweep's runs one machine does: runs whose number modulo `count` is `index − 1`.
public struct ShardSpec: Sendable, Equatable, CustomStringConvertible {
  /// From 1 to `count`.
  public var index: Int
  /// The number of shards.
  public var count: Int

  /// `I/N` with 1 ≤ I ≤ N, or nil.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else { return nil }
    self.index = index
    self.count = count
  }

  /// Whether run number `run` belongs to this shard.
  public func owns(_ run: Int) -> Bool { run % count == index - 1 }
  public var description: String { "\(index)/\(count)" }
}

/// What a sweep folder is: written first, checked by `--resume` and `merge`.
package struct SweepManifest: Sendable, Equatable {
  package var sweep: String
  package var digest: String
  package var runs: Int
  package var seeds: Int
  package var columns: [String]
  package var shard: ShardSpec?

  var json: String {
    let shardText = shard.map { "\"\($0)\"" } ?? "null"
    return """
      {
        "sweep": \(JSONText.quote(sweep)),
        "digest": "\(digest)",
        "runs": \(runs),
        "seeds": \(seeds),
        "columns": [\(columns.map(JSONText.quote).joined(separator: ", "))],
        "shard": \(shardText)
      }

      """
  }

  /// The runs the folder's sweep is responsible for: all of them, or its shard's.
  var ownedRuns: Int { shard.map { (runs - $0.index + $0.count) / $0.count } ?? runs }

  init(sweep: String, digest: String, runs: Int, seeds: Int, columns: [String], shard: ShardSpec?) {
    self.sweep = sweep
    self.digest = digest
    self.runs = runs
    self.seeds = seeds
    self.columns = columns
    self.shard = shard
  }

}

/// Runs sweeps and merges the folders of their shards (`jetsim sweep`, `jetsim merge`).
///
/// A sweep folder holds `sweep-manifest.json`, append-only journals in `runs/` (one line per
/// finished run: its number, a tab, its row of `sweep.csv`, written in one write), and, once every
/// run is there, `sweep.csv` and `sweep-summary.csv`, assembled from the rows alone. So a resumed
/// sweep, or shards merged, give exactly the files of one uninterrupted run, whatever the number of
/// threads. A line torn by a crash has no line end and is ignored: that run is simply done again.
public enum Sweep {
  /// What one call of `run` did.
  public struct Outcome: Sendable, Equatable {
    /// Runs done now, and runs found done by an earlier, interrupted call.
    public var ran: Int
    /// The runs found done in the journal and not run again.
    public var alreadyDone: Int
    /// The runs this call was responsible for (all, or the shard's).
    public var owned: Int
    /// Whether `sweep.csv` and `sweep-summary.csv` were written.
    public var assembled: Bool
    /// What was in the folder: nothing, the same sweep interrupted, another sweep's files
    /// (discarded), or nothing to resume.
    public var start: Start
  }

  /// How a sweep found its folder.
  public enum Start: Sendable, Equatable {
    /// Started in an empty or new folder.
    case fresh
    /// Resumed: `done` runs were already in the journal.
    case resumed(done: Int)
    /// Started over without `--resume`, discarding `done` finished runs: every run the folder's
    /// sweep (or shard) had, when `finished`, else those of an interrupted one.
    case restarted(done: Int, finished: Bool)
    /// Asked to resume where there was nothing to resume, so started afresh.
    case nothingToResume
  }

  static let manifestFile = ReportFile.sweepManifest.name

  /// Runs `definition` (or its `shard`) into `folder` on `jobs` threads. With `resume`, runs of the
  /// same sweep already in the folder are kept (and with nothing to resume, the sweep starts);
  /// without, an earlier sweep's files there are replaced. `started` learns which, before any run.
  ///
  /// - Complexity: *r* runs of O(*e*) each for *e* events a run, on `jobs` threads; reading the
  ///   journal and assembling the reports O(*r*) besides (rows are kept by run index).
  public static func run(
    _ definition: SweepDefinition, into folder: String, jobs: Int, resume: Bool = false,
    shard: ShardSpec? = nil, started: ((Start) -> Void)? = nil,
    progress: (@Sendable (Int, Int) -> Void)? = nil
  ) throws(JetsimError) -> Outcome {
    let manifest = SweepManifest(
      sweep: definition.name, digest: definition.digest, runs: definition.runCount,
      seeds: definition.seeds.count,
      columns: definition.columns, shard: shard)
    let sweepFolder = try SweepFolder(folder, manifest: manifest, resume: resume)
    defer { sweepFolder.close() }
    started?(sweepFolder.start)
    let pending = try JournalIndex(folders: [folder], manifest: manifest).pending(shard: shard)
    try run(pending, of: definition, into: folder, jobs: jobs, progress: progress)
    var assembled = false
    if shard.map({ $0.count == 1 }) ?? true {
      // Every run's row, as the journals now have them.
      try assemble(folder, manifest: manifest, rows: complete(manifest, in: [folder]))
      assembled = true
    }
    return Outcome(
      ran: pending.count, alreadyDone: manifest.ownedRuns - pending.count,
      owned: manifest.ownedRuns,
      assembled: assembled, start: sweepFolder.start)
  }

  /// Runs the runs `pending` of `definition` on `jobs` threads, each row into a new journal in
  /// `folder` as its run ends; no journal when there is nothing to run.
  private static func run(
    _ pending: [Int], of definition: SweepDefinition, into folder: String, jobs: Int,
    progress: (@Sendable (Int, Int) -> Void)?
  ) throws(JetsimError) {
    guard !pending.isEmpty else { return }
    let total = pending.count
    var report: (@Sendable (Int) -> Void)?
    if let progress { report = { progress($0, total) } }
    let journal = try Journal(folder: folder)
    do {
      _ = try ParallelMap.run(count: pending.count, jobs: jobs, progress: report) { position in
        let index = pending[position]
        let (scenario, labels) = definition.run(index)
        var quiet = DiscardingObserver()
        let summary = try Simulator.run(scenario.unshared, observer: &quiet)
        try journal.append(index, row(labels: labels, metrics: summary.metrics).utf8)
      }
      try journal.close()
    } catch {
      try? journal.close()
      throw (error as? JetsimError)
        ?? .outputNotWritable(path: folder, reason: FileFailure.reason(error))
    }
  }

  /// The value the error for resuming a folder of another sweep or shard gives its manifest's
  /// `digest` or `shard`, by which a front end knows that error to add how to start over.
  package static let differentSweep = "a different sweep or shard"

  /// Combines the folders of a sweep's shards into `folder`, writing exactly what one machine would
  /// have written. Every shard must come from the same sweep, and together they must hold every run.
  ///
  /// - Complexity: O(*r*) for *r* runs in all the shards' journals; no run is simulated.
  public static func merge(_ shards: [String], into folder: String) throws(JetsimError) -> Int {
    var manifests: [SweepManifest] = []
    for shard in shards {
      let manifestPath = "\(shard)/\(manifestFile)"
      // A folder without a manifest is not a sweep's: say that, not that one file is missing.
      if FileSystem.entry(at: manifestPath) == .none {
        throw .unreadable(
          path: shard,
          reason: FileSystem.entry(at: shard) == .none
            ? "no such folder; check the path"
            : "it is not a sweep or shard folder: it holds no \(manifestFile); give the folders a sweep wrote"
        )
      }
      manifests.append(try SweepManifest(contentsOf: manifestPath))
    }
    guard var merged = manifests.first else {
      throw .fileNotFound(path: "(no shard folders given)")
    }
    for (shard, manifest) in zip(shards, manifests)
    where manifest.digest != merged.digest || manifest.runs != merged.runs
      || manifest.columns != merged.columns || manifest.seeds != merged.seeds
    {
      throw .invalidValue(
        path: "\(shard)/\(manifestFile)", keyPath: "digest",
        value: "a different sweep (\(manifest.sweep))",
        expected: "shards of one sweep, from the same sweep file and profiles as \(shards[0])")
    }
    merged.shard = nil
    // The folder may be a shard's: its journals, which it clears, are held open to be read.
    let rows = try complete(merged, in: shards, holding: folder)
    let sweepFolder = try SweepFolder(folder, manifest: merged, resume: false)
    defer { sweepFolder.close() }
    let journal = try Journal(folder: folder)
    var row: [UInt8] = []
    for index in 0..<merged.runs {
      row.removeAll(keepingCapacity: true)
      try rows.append(index, to: &row)
      try journal.append(index, row)
    }
    try journal.close()
    try assemble(folder, manifest: merged, rows: rows)
    return merged.runs
  }

  /// The journals of `folders`, which must hold every run of `manifest` (those of `holding` held
  /// open: `JournalIndex`).
  private static func complete(
    _ manifest: SweepManifest, in folders: [String], holding: String? = nil
  ) throws(JetsimError) -> JournalIndex {
    let found = try JournalIndex(folders: folders, manifest: manifest, holding: holding)
    if let first = found.firstMissing {
      throw .invalidValue(
        path: folders.joined(separator: ", "), keyPath: "runs",
        value:
          "\(manifest.runs - found.count) of \(manifest.runs) runs missing (the first: run \(first))",
        expected: "every run: resume the sweep to finish it, or give every shard's folder")
    }
    return found
  }

  // MARK: - Files

  /// A run's row of `sweep.csv`: its axis labels and seed, then the summary metrics.
  static func row(labels: [String], metrics: RunMetrics) -> String {
    var out = CSVBuffer(capacity: 1024)
    for (position, label) in labels.enumerated() {
      if position > 0 { out.comma() }
      out.append(field: label)
    }
    for metric in SummaryMetric.all {
      out.comma()
      out.append(raw: Array(metric.text(metric.value(metrics)).utf8))
    }
    out.newline()
    return String(decoding: out.bytes, as: UTF8.self)
  }

  /// Writes `sweep.csv` (streamed from the journals, run by run), `sweep-summary.csv` and
  /// `sweep.html`.
  private static func assemble(_ folder: String, manifest: SweepManifest, rows: JournalIndex)
    throws(JetsimError)
  {
    try AtomicFile.write(to: "\(folder)/\(ReportFile.sweep.name)") { file throws(JetsimError) in
      var header = CSVBuffer()
      header.appendRow(manifest.columns + SummaryMetric.all.map(\.name))
      var bytes = header.bytes
      for index in 0..<manifest.runs {
        try rows.append(index, to: &bytes)
        if bytes.count >= 1 << 16 {
          bytes.withUnsafeBytes(file.write)
          bytes.removeAll(keepingCapacity: true)
        }
      }
      bytes.withUnsafeBytes(file.write)
    }
    let summaryText = try summary(manifest: manifest, rows: rows.append)
    try AtomicFile.write(summaryText, to: "\(folder)/\(ReportFile.sweepSummary.name)")
    try AtomicFile.write(
      BatchHTMLReport.sweep(name: manifest.sweep, summaryCSV: summaryText),
      to: "\(folder)/\(ReportFile.sweepHTML.name)")
  }

  /// `sweep-summary.csv`: one row per point (its axis values), the number of runs, and each metric's
  /// mean and 95 % CI half-width across seeds, computed from the rows as written (`rows` appends
  /// run *n*'s, with its line end, to a buffer). A point's rows are read twice, for the means and
  /// then the deviations from them, so that a point of any number of seeds is summarised in memory
  /// of its metrics alone.
  static func summary(
    manifest: SweepManifest, rows: (Int, inout [UInt8]) throws(JetsimError) -> Void
  ) throws(JetsimError) -> String {
    let axisCount = manifest.columns.count - 1
    let metricCount = SummaryMetric.all.count
    var out = CSVBuffer()
    out.appendRow(
      Array(manifest.columns.prefix(axisCount)) + ["runs"]
        + SummaryMetric.all.flatMap { ["\($0.name)_mean", "\($0.name)_ci95"] })
    let seeds = max(1, manifest.seeds)
    var row: [UInt8] = []
    var values: [Double?] = []
    for point in 0..<(manifest.runs / seeds) {
      var sums = SampleSums.Columns(count: metricCount)
      var labels: [String]?
      var parsed = 0
      for pass in 0..<2 {
        for run in (point * seeds)..<((point + 1) * seeds) {
          row.removeAll(keepingCapacity: true)
          try rows(run, &row)
          let text = row.dropLast()
          if !PlainRow.values(text, skipping: axisCount + 1, into: &values) || labels == nil {
            guard
              let fields = try? CSVReader.records(String(decoding: row, as: UTF8.self)).first?
                .fields
            else { continue }
            labels = labels ?? Array(fields.prefix(axisCount))
            values = fields.dropFirst(axisCount + 1).map { Double($0) }
          }
          guard values.count == metricCount else { continue }
          if pass == 0 {
            parsed += 1
            sums.add(values)
          } else {
            sums.addDeviations(values)
          }
        }
      }
      guard let labels else { continue }
      for (position, label) in labels.enumerated() {
        if position > 0 { out.comma() }
        out.append(field: label)
      }
      if axisCount > 0 { out.comma() }
      out.append(parsed)
      for stats in sums.summaries {
        for value in [stats?.mean, stats?.ci95] {
          out.comma()
          if let value { out.append(raw: Array(FixedPoint.format(value).utf8)) }
        }
      }
      out.newline()
    }
    return String(decoding: out.bytes, as: UTF8.self)
  }
}
