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
    let owned = (0..<definition.runCount).filter { shard?.owns($0) ?? true }
    let done = try journalRows(in: [folder], manifest: manifest)
    let pending = owned.filter { done[$0] == nil }
    let total = pending.count
    var report: (@Sendable (Int) -> Void)?
    if let progress { report = { progress($0, total) } }
    let journal = try Journal(folder: folder)
    let fresh: [String]
    do {
      fresh = try ParallelMap.run(count: pending.count, jobs: jobs, progress: report) { position in
        let index = pending[position]
        let (scenario, labels) = definition.run(index)
        var quiet = DiscardingObserver()
        let summary = try Simulator.run(scenario.unshared, observer: &quiet)
        let text = row(labels: labels, metrics: summary.metrics)
        try journal.append(index, text)
        return text
      }
      try journal.close()
    } catch {
      try? journal.close()
      throw (error as? JetsimError)
        ?? .outputNotWritable(path: folder, reason: FileFailure.reason(error))
    }
    var assembled = false
    if shard.map({ $0.count == 1 }) ?? true {
      // Every run's row: the journal's from before, and this sweep's as the journal now has them
      // (not read back from it).
      var rows = done
      for (position, index) in pending.enumerated() { rows[index] = fresh[position] }
      try assemble(folder, manifest: manifest, rows: (0..<manifest.runs).compactMap { rows[$0] })
      assembled = true
    }
    return Outcome(
      ran: pending.count, alreadyDone: owned.count - pending.count, owned: owned.count,
      assembled: assembled, start: sweepFolder.start)
  }

  /// Combines the folders of a sweep's shards into `folder`, writing exactly what one machine would
  /// have written. Every shard must come from the same sweep, and together they must hold every run.
  ///
  /// - Complexity: O(*r*) for *r* runs in all the shards' journals; no run is simulated.
  public static func merge(_ shards: [String], into folder: String) throws(JetsimError) -> Int {
    var manifests: [SweepManifest] = []
    for shard in shards {
      manifests.append(try SweepManifest(contentsOf: "\(shard)/\(manifestFile)"))
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
    let rows = try readRows(folder, manifest: merged, from: shards)
    let sweepFolder = try SweepFolder(folder, manifest: merged, resume: false)
    defer { sweepFolder.close() }
    let journal = try Journal(folder: folder)
    for (index, text) in rows.enumerated() { try journal.append(index, text) }
    try journal.close()
    try assemble(folder, manifest: merged, rows: rows)
    return rows.count
  }

  // MARK: - Files

  /// An append-only file of finished runs, one line each, written under a lock in a single write.
  final class Journal: @unchecked Sendable {
    private let path: String
    /// -1 once closed.
    private var descriptor: Int32
    private let lock = Lock()

    init(folder: String) throws(JetsimError) {
      path = "\(folder)/runs/journal-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tsv"
      do {
        descriptor = try FileSystem.createExclusively(path)
      } catch {
        throw .outputNotWritable(
          path: path, reason: "cannot create the sweep's journal (\(error.reason))")
      }
    }

    func append(_ index: Int, _ row: String) throws(JetsimError) {
      lock.lock()
      defer { lock.unlock() }
      do {
        try FileSystem.write("\(index)\t\(row)", to: descriptor, path: path)
      } catch {
        throw .outputNotWritable(path: "sweep journal", reason: error.reason)
      }
    }

    /// Closes the journal (once: a second call does nothing).
    func close() throws(JetsimError) {
      guard descriptor >= 0 else { return }
      let closing = descriptor
      descriptor = -1
      do {
        try FileSystem.close(closing, path: path)
      } catch {
        throw .outputNotWritable(path: "sweep journal", reason: error.reason)
      }
    }

    deinit { try? close() }
  }

  /// The finished runs recorded in the journals of `folders`, by run number, each row checked
  /// against `manifest`: a run number within the sweep, and one field per column and metric. A last
  /// line without a line end (torn by a crash) is left out: that run is done again; any other
  /// damaged line is an error naming it.
  static func journalRows(in folders: [String], manifest: SweepManifest) throws(JetsimError)
    -> [Int: String]
  {
    let fieldCount = manifest.columns.count + SummaryMetric.all.count
    var rows: [Int: String] = [:]
    for folder in folders {
      for (path, text) in journals(in: folder) {
        for (offset, line) in text.split(separator: "\n").enumerated() {
          func damaged(_ problem: String) -> JetsimError {
            .traceLine(
              path: path, line: offset + 1,
              message:
                "\(problem); the journal is damaged: remove this line (the run is done again when the sweep resumes) or run the sweep again"
            )
          }
          guard let tab = line.firstIndex(of: "\t"), let index = Int(line[..<tab]) else {
            throw damaged("not a run number, a tab and a row")
          }
          guard (0..<manifest.runs).contains(index) else {
            throw damaged("run \(index) is not a run of this sweep (0 to \(manifest.runs - 1))")
          }
          let row = String(line[line.index(after: tab)...]) + "\n"
          guard let fields = try? CSVReader.records(row).first?.fields, fields.count == fieldCount
          else {
            throw damaged("the row of run \(index) does not have its \(fieldCount) fields")
          }
          if rows[index] == nil { rows[index] = row }
        }
      }
    }
    return rows
  }

  /// The journals of the sweep folder `folder` (path and complete lines), in name order.
  static func journals(in folder: String) -> [(path: String, text: String)] {
    FileSystem.names(in: "\(folder)/runs").sorted().compactMap { name in
      guard name.hasPrefix("journal-"), name.hasSuffix(".tsv"),
        let bytes = try? InputFile.bytes(at: "\(folder)/runs/\(name)"),
        let end = bytes.lastIndex(of: UInt8(ascii: "\n"))
      else { return nil }
      return ("\(folder)/runs/\(name)", String(decoding: bytes[...end], as: UTF8.self))
    }
  }

  /// How many complete lines the journals of `folder` hold (runs done, before they are checked).
  static func journalRowCount(in folder: String) -> Int {
    journals(in: folder).reduce(0) { $0 + $1.text.utf8.count { $0 == UInt8(ascii: "\n") } }
  }

  /// The row of every run, in order, from the journals of `folders`.
  private static func readRows(_ folder: String, manifest: SweepManifest, from folders: [String])
    throws(JetsimError) -> [String]
  {
    let found = try journalRows(in: folders, manifest: manifest)
    guard found.count == manifest.runs else {
      let first = (0..<manifest.runs).first { found[$0] == nil } ?? 0
      throw .invalidValue(
        path: folders.joined(separator: ", "), keyPath: "runs",
        value:
          "\(manifest.runs - found.count) of \(manifest.runs) runs missing (the first: run \(first))",
        expected: "every run: resume the sweep to finish it, or give every shard's folder")
    }
    return (0..<manifest.runs).compactMap { found[$0] }
  }

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

  private static func assemble(_ folder: String, manifest: SweepManifest, rows: [String])
    throws(JetsimError)
  {
    var sweep = CSVBuffer()
    sweep.appendRow(manifest.columns + SummaryMetric.all.map(\.name))
    for row in rows { sweep.append(raw: Array(row.utf8)) }
    let summaryText = summary(manifest: manifest, rows: rows)
    for (file, text) in [
      (ReportFile.sweep, String(decoding: sweep.bytes, as: UTF8.self)),
      (.sweepSummary, summaryText),
      (.sweepHTML, BatchHTMLReport.sweep(name: manifest.sweep, summaryCSV: summaryText)),
    ] {
      try AtomicFile.write(text, to: "\(folder)/\(file.name)")
    }
  }

  /// `sweep-summary.csv`: one row per point (its axis values), the number of runs, and each metric's
  /// mean and 95 % CI half-width across seeds, computed from the rows as written.
  static func summary(manifest: SweepManifest, rows: [String]) -> String {
    let axisCount = manifest.columns.count - 1
    var out = CSVBuffer()
    out.appendRow(
      Array(manifest.columns.prefix(axisCount)) + ["runs"]
        + SummaryMetric.all.flatMap { ["\($0.name)_mean", "\($0.name)_ci95"] })
    let seeds = max(1, manifest.seeds)
    for point in 0..<(rows.count / seeds) {
      let fields = rows[(point * seeds)..<((point + 1) * seeds)].compactMap {
        try? CSVReader.records($0).first?.fields
      }
      guard let first = fields.first else { continue }
      for (position, label) in first.prefix(axisCount).enumerated() {
        if position > 0 { out.comma() }
        out.append(field: label)
      }
      if axisCount > 0 { out.comma() }
      out.append(fields.count)
      for (offset, _) in SummaryMetric.all.enumerated() {
        let values = fields.map { Double($0[axisCount + 1 + offset]) }
        let stats = SampleSummary(values)
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
