import JetsimCore
import JetsimIO

/// A sweep's output folder. It is written over time (a journal line per finished run), so unlike a
/// run's folder it is not staged whole; instead jetsim marks it as its own (`.jetsim`, kind `sweep`),
/// locks it while a sweep or merge writes it, and deletes only the files it writes there.
struct SweepFolder {
  let path: String
  let start: Sweep.Start
  private let lock: OutputLock

  /// The files a sweep writes at the top of its folder (`ReportFile`); its journals go in `runs/`.
  static let files = ReportFolder.Kind.sweep.files

  /// Opens `path` for `manifest`'s sweep: with `resume`, keeps the runs of the same sweep there;
  /// otherwise (or if there is nothing to resume) starts over, discarding only jetsim's own files.
  /// Anything else in the folder, and it is left alone with an error.
  init(_ path: String, manifest: SweepManifest, resume: Bool) throws(JetsimError) {
    self.path = path
    lock = try OutputLock(path)
    do {
      try FileSystem.makeDirectories(path)
      if let stranger = Self.stranger(in: path) {
        throw JetsimError.outputNotWritable(
          path: path,
          reason:
            "it holds '\(stranger.excerpt())', which a sweep does not write, so jetsim will not use it",
          remedy: "move it out")
      }
      let manifestPath = "\(path)/\(Sweep.manifestFile)"
      let existing: SweepManifest? =
        FileSystem.entry(at: manifestPath) == .file
        ? try SweepManifest(contentsOf: manifestPath) : nil
      let done = Sweep.journalRowCount(in: path)
      if resume, let existing {
        guard existing == manifest else {
          throw JetsimError.invalidValue(
            path: manifestPath,
            keyPath: existing.digest != manifest.digest ? "digest" : "shard",
            value: Sweep.differentSweep,
            expected:
              "the same sweep file, profiles and shard as the \(Self.held(existing, done: done)) there; to start over, which discards it, run the sweep again without resuming"
          )
        }
        start = .resumed(done: done)
        return
      }
      let finished = existing.map { done >= $0.ownedRuns } ?? false
      start =
        resume
        ? .nothingToResume
        : done > 0 || existing != nil ? .restarted(done: done, finished: finished) : .fresh
      try Self.clear(path)
      if FileSystem.entry(at: "\(path)/\(ReportFolder.marker)") != .file {
        try ReportFolder.writeMarker(in: path, kind: .sweep)
      }
      try FileSystem.makeDirectories("\(path)/runs")
      try AtomicFile.write(manifest.json, to: manifestPath)
    } catch let error as JetsimError {
      lock.release()
      throw error
    } catch let error as FileSystem.Failure {
      lock.release()
      throw error.notWritable(path)
    } catch {
      lock.release()
      throw JetsimError.outputNotWritable(path: path, reason: "\(error)")
    }
  }

  /// What a folder of `manifest` with `done` runs holds, in words: "the interrupted shard 2/4",
  /// "the finished sweep (run whole, or merged from its shards)".
  static func held(_ manifest: SweepManifest, done: Int) -> String {
    let state = done >= manifest.ownedRuns ? "finished" : "interrupted"
    guard let shard = manifest.shard else {
      return state == "finished"
        ? "finished sweep (run whole, or merged from its shards)" : "interrupted sweep"
    }
    return "\(state) shard \(shard)"
  }

  /// Lets other jetsim processes at the folder.
  func close() { lock.release() }

  /// The first entry of the folder that a sweep does not write, if any.
  static func stranger(in path: String) -> String? {
    for name in FileSystem.names(in: path) {
      if name.hasPrefix(StagingArea.prefix) || name == ReportFolder.marker { continue }
      let entry = FileSystem.entry(at: "\(path)/\(name)")
      if entry == .file, files.contains(name) { continue }
      if name == "runs", entry == .directory {
        for journal in FileSystem.names(in: "\(path)/runs")
        where !(journal.hasPrefix("journal-") && journal.hasSuffix(".tsv"))
          && !journal.hasPrefix(StagingArea.prefix)
        {
          return "runs/\(journal)"
        }
        continue
      }
      return name
    }
    if FileSystem.entry(at: "\(path)/\(ReportFolder.marker)") == .file,
      ReportFolder.markerKind(in: path) != .sweep
    {
      return ReportFolder.marker
    }
    return nil
  }

  /// Removes the files a sweep wrote in `path` (and nothing else).
  static func clear(_ path: String) throws(FileSystem.Failure) {
    for name in files where FileSystem.entry(at: "\(path)/\(name)") == .file {
      try FileSystem.removeTree("\(path)/\(name)")
    }
    for journal in FileSystem.names(in: "\(path)/runs")
    where journal.hasPrefix("journal-") && journal.hasSuffix(".tsv") {
      try FileSystem.removeTree("\(path)/runs/\(journal)")
    }
  }
}

extension SweepManifest {
  /// The manifest in the file at `path`, every field checked: a damaged or hand-edited manifest is a
  /// one-line error naming the field, never a run count to allocate for.
  init(contentsOf path: String) throws(JetsimError) {
    let node: JSONNode
    do {
      node = try JSONParser.parse(try InputFile.bytes(at: path))
    } catch let error as JSONParser.SyntaxError {
      throw .malformedJSON(path: path, detail: error.description)
    } catch let error as JetsimError {
      throw error
    } catch {
      throw .malformedJSON(path: path, detail: "\(error)")
    }
    do {
      let fields = try ProfileFields(
        node, allowed: ["sweep", "digest", "runs", "seeds", "columns", "shard"])
      let runs = try fields.required(
        fields.integer("runs", in: 1...SweepDefinition.maxRuns), "runs")
      let seeds = try fields.required(fields.integer("seeds", in: 1...runs), "seeds")
      let columns = try fields.required(
        fields.strings("columns", expected: "a list of column names"), "columns")
      guard (1...1_000).contains(columns.count), !columns.contains(where: \.hasControlCharacters)
      else {
        throw fields.invalid(
          "columns", "\(columns.count) names", "1 to 1000 names on one line each")
      }
      let digest = try fields.required(fields.string("digest"), "digest")
      guard digest.count == 64, digest.allSatisfy(\.isHexDigit) else {
        throw fields.invalid("digest", "\"\(digest.excerpt(limit: 40))\"", "a SHA-256 in hex")
      }
      var shard: ShardSpec?
      if let text = try fields.string("shard") {
        guard let spec = ShardSpec(text) else {
          throw fields.invalid("shard", "\"\(text.excerpt(limit: 40))\"", "I/N, 1 ≤ I ≤ N")
        }
        shard = spec
      }
      self.init(
        sweep: try fields.required(fields.name("sweep"), "sweep"), digest: digest, runs: runs,
        seeds: seeds, columns: columns, shard: shard)
    } catch let error as FieldError {
      throw error.located(in: path)
    } catch {
      throw .malformedJSON(path: path, detail: "\(error)")
    }
  }
}
