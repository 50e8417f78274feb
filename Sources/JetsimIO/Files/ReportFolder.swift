import JetsimCore

/// An output folder (a run's reports, a comparison, a plan, a replay), written completely or not at
/// all: its files go into a staging area beside the destination, and the finished folder takes the
/// destination's place in one atomic exchange, so no instant sees it missing or half-written.
///
/// jetsim replaces only what it wrote itself: an existing destination must hold jetsim's marker file
/// (`.jetsim`) and nothing but the files and folders of its kind (a run folder of jetsim 0.1, which
/// has no marker, is recognised by its report files). Anything else there, and the folder is left
/// alone with an error. While the folder is written, a lock keeps other jetsim processes out.
public struct ReportFolder: Sendable {
  /// What a folder holds, which decides what may be in an existing one jetsim replaces.
  public enum Kind: String, Sendable {
    /// One run's reports.
    case run
    /// A comparison: its tables, and per-run folders `<policy>/seed-<n>/`.
    case comparison
    /// A capacity plan's curve and answer.
    case plan
    /// A replay of real JetsamEvent reports.
    case replay
    /// A sweep: its manifest, journals in `runs/`, and once every run is done its tables. Written
    /// over time, so not staged whole (`SweepFolder`).
    case sweep
    /// JetsamEvent reports imported as device profiles and snapshot scenarios: `imported.csv`, and
    /// a folder for each report with its `device.json` and `scenario.json`.
    case imported
    /// A what-if: one app at several sizes on several devices, as MetricKit would report it.
    case whatIf

    /// The files jetsim writes at the top of a folder of this kind (`ReportFile`).
    package var files: Set<String> {
      Set(ReportFile.allCases.filter { $0.folders.contains(self) }.map(\.name))
    }
  }

  /// The files of one run's report folder.
  package static let reportFiles = Kind.run.files
  /// The marker jetsim leaves in every output folder it writes.
  package static let marker = ".jetsim"

  /// Where the folder will be.
  public let destination: String
  /// What the folder holds (a run's reports, a comparison, a sweep...), as its marker records it.
  public let kind: Kind
  /// Where it is written meanwhile.
  let building: String
  private let staging: StagingArea?
  private let lock: OutputLock?

  /// Prepares to write a folder of `kind` at `destination`: checks that an existing one may be
  /// replaced, takes the lock, and creates the staging area.
  public init(destination: String, kind: Kind = .run) throws(JetsimError) {
    try Self.checkReplaceable(destination, kind: kind)
    lock = try OutputLock(destination)
    var staging: StagingArea?
    do {
      let area = try StagingArea(in: FileSystem.split(destination).folder)
      staging = area
      self.staging = area
      building = area.file("folder")
      try FileSystem.makeDirectoryExclusively(building)
      try Self.writeMarker(in: building, kind: kind)
    } catch {
      staging?.discard()
      lock?.release()
      throw error.notWritable(destination)
    }
    self.destination = destination
    self.kind = kind
  }

  /// A folder of `kind` named `name` inside `parent`, written in place: the parent is staged, so
  /// its commit moves this one too.
  package init(named name: String, in parent: ReportFolder, kind: Kind = .run) throws(JetsimError) {
    destination = "\(parent.destination)/\(name)"
    building = parent.path(name)
    self.kind = kind
    staging = nil
    lock = nil
    do {
      try FileSystem.makeDirectories(FileSystem.split(building).folder)
      try FileSystem.makeDirectoryExclusively(building)
      try Self.writeMarker(in: building, kind: kind)
    } catch {
      throw error.notWritable(destination)
    }
  }

  /// The path, while it is being written, of the file `name` in the folder.
  package func path(_ name: String) -> String { "\(building)/\(name)" }

  /// Puts the folder in place, replacing an earlier one in one atomic exchange where the file
  /// system allows it, and releases the lock.
  public func commit() throws(JetsimError) {
    guard let staging else { return }
    defer {
      staging.discard()
      lock?.release()
    }
    do {
      switch FileSystem.entry(at: destination) {
      case .none:
        try FileSystem.rename(building, to: destination)
      case .directory:
        // Checked again: the folder may have changed while the run went on.
        try Self.checkReplaceable(destination, kind: kind)
        if !FileSystem.exchange(building, destination) {
          try FileSystem.rename(destination, to: staging.file("old"))
          try FileSystem.rename(building, to: destination)
        }
      default:
        throw FileSystem.Failure(
          path: destination, reason: "something that is not a folder is there")
      }
    } catch let error as FileSystem.Failure {
      throw error.notWritable(destination)
    } catch let error as JetsimError {
      throw error
    } catch {
      throw JetsimError.outputNotWritable(path: destination, reason: "\(error)")
    }
  }

  /// Writes `text` as the file `file` of the folder.
  package func write(_ text: String, as file: ReportFile) throws(JetsimError) {
    try AtomicFile.write(text, to: path(file.name), shown: "\(destination)/\(file.name)")
  }

  /// Writes a folder of `kind` at `destination` holding `files` (which and their text),
  /// completely or not at all.
  public static func write(
    _ files: [(file: ReportFile, text: String)], to destination: String, kind: Kind
  ) throws(JetsimError) {
    let folder = try ReportFolder(destination: destination, kind: kind)
    do {
      for file in files { try folder.write(file.text, as: file.file) }
      try folder.commit()
    } catch {
      folder.discard()
      throw error
    }
  }

  /// Abandons the folder: nothing changes at the destination.
  public func discard() {
    staging?.discard()
    lock?.release()
  }

  /// Checks that the folder at `destination`, if there is one, may be replaced by a folder of `kind`.
  static func checkReplaceable(_ destination: String, kind: Kind) throws(JetsimError) {
    switch FileSystem.entry(at: destination) {
    case .none: return
    case .directory: break
    case .symbolicLink:
      throw .outputNotWritable(
        path: destination, reason: "it is a symbolic link; give the folder it points to")
    default:
      throw .outputNotWritable(path: destination, reason: "a file of that name is in the way")
    }
    let names = FileSystem.names(in: destination).filter { !$0.hasPrefix(StagingArea.prefix) }
    if names.isEmpty { return }
    let marked = names.contains(marker) && markerKind(in: destination) == kind
    if !marked {
      // A run folder of jetsim 0.1 has no marker: its report files alone identify it.
      let legacy = kind == .run && names.allSatisfy(reportFiles.contains)
      guard legacy else {
        throw .outputNotWritable(
          path: destination,
          reason:
            "the folder is not a \(kind.rawValue) folder jetsim wrote (it has no \(marker) marker of that kind), so jetsim will not replace it",
          remedy: "remove it")
      }
    }
    if let stranger = stranger(in: destination, kind: kind) {
      throw .outputNotWritable(
        path: destination,
        reason: "it holds '\(stranger.excerpt())', which jetsim did not write",
        remedy: "move it out")
    }
  }

  /// The first entry of the folder at `path` that a folder of `kind` does not hold, if any.
  static func stranger(in path: String, kind: Kind, nested: Bool = false) -> String? {
    for name in FileSystem.names(in: path) where name != marker {
      if name.hasPrefix(StagingArea.prefix) { continue }
      let entry = FileSystem.entry(at: "\(path)/\(name)")
      if entry == .file, kind.files.contains(name) { continue }
      if kind == .comparison, entry == .directory {
        // <policy>/seed-<n>/: run folders.
        for seed in FileSystem.names(in: "\(path)/\(name)") {
          let runPath = "\(path)/\(name)/\(seed)"
          guard seed.hasPrefix("seed-"), FileSystem.entry(at: runPath) == .directory,
            stranger(in: runPath, kind: .run) == nil
          else { return "\(name)/\(seed)" }
        }
        continue
      }
      if kind == .imported, !nested, entry == .directory {
        // <report>/: one imported report.
        if let inner = stranger(in: "\(path)/\(name)", kind: kind, nested: true) {
          return "\(name)/\(inner)"
        }
        continue
      }
      return name
    }
    return nil
  }

  package static func writeMarker(in folder: String, kind: Kind) throws(FileSystem.Failure) {
    let file = try OutputFile(creating: "\(folder)/\(marker)")
    file.write(
      "jetsim \(kind.rawValue) folder: jetsim replaces it only while it holds only what jetsim wrote\n"
    )
    try file.close()
  }

  /// The kind a marker file names, if it names one.
  package static func markerKind(in folder: String) -> Kind? {
    guard let bytes = try? InputFile.bytes(at: "\(folder)/\(marker)"), bytes.count < 4096 else {
      return nil
    }
    let words = String(decoding: bytes, as: UTF8.self).split(separator: " ")
    guard words.count >= 2, words[0] == "jetsim" else { return nil }
    return Kind(rawValue: String(words[1]))
  }
}
