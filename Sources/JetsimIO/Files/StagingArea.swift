import JetsimCore
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder jetsim creates for itself beside an output, where files are written before they are
/// renamed into place. It is created exclusively (a file or symbolic link already at its name makes
/// jetsim pick another name) and readable only by its owner, and every file in it is created
/// exclusively without following symbolic links, so nothing planted in an output folder can
/// redirect a write. Areas left by killed processes are removed by the next jetsim that writes
/// beside them.
package struct StagingArea: Sendable {
  /// Names of staging areas start with this.
  package static let prefix = ".jetsim-staging-"

  /// The area's own folder.
  package let path: String
  /// The folders on the way to the area that it created (deepest first): `discard` removes those
  /// left empty, so a write that fails leaves the disk as it was.
  private let createdFolders: [String]

  /// A new, empty area in the folder `parent` (created if missing), after removing the areas
  /// that processes no longer running left there.
  package init(in parent: String) throws(FileSystem.Failure) {
    let created = try FileSystem.makeDirectories(parent)
    Self.removeStale(in: parent)
    var lastFailure = FileSystem.Failure(path: parent, reason: "no name could be found")
    for _ in 0..<16 {
      let candidate =
        "\(parent)/\(Self.prefix)\(Self.host)-\(FileSystem.processID)-\(FileSystem.randomSuffix())"
      do {
        try InterruptCleanup.makeTree(candidate, mode: 0o700, created: created)
        path = candidate
        createdFolders = created
        return
      } catch {
        lastFailure = error
        guard FileSystem.entry(at: candidate) != .none else { break }
      }
    }
    FileSystem.removeEmptyFolders(created)
    throw lastFailure
  }

  /// The path of `name` inside the area.
  package func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Removes the area and everything still in it, and the folders it created on its way that
  /// are empty now (after a commit they hold the output, so they stay).
  package func discard() {
    try? FileSystem.removeTree(path)
    InterruptCleanup.forget(path)
    FileSystem.removeEmptyFolders(createdFolders)
  }

  /// This machine's name, in staging names, so areas on a shared file system are only ever judged
  /// stale by a process on the machine that made them.
  static let host: String = {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "host" }
    let name = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let safe = name.filter { $0.isLetter || $0.isNumber || $0 == "." }
    return safe.isEmpty ? "host" : String(safe.prefix(64))
  }()

  /// Removes the staging areas in `parent` made on this machine by processes that are no longer
  /// running (a run killed before it could clean up). Anything else is left alone.
  package static func removeStale(in parent: String) {
    for name in FileSystem.names(in: parent) where name.hasPrefix(prefix + host + "-") {
      let rest = name.dropFirst(prefix.count + host.count + 1)
      guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]),
        !FileSystem.isProcessAlive(pid)
      else { continue }
      try? FileSystem.removeTree("\(parent)/\(name)")
    }
  }
}

/// A file being written: created exclusively, written through, closed. The first write error is
/// kept and reported when the file is closed.
package final class OutputFile: @unchecked Sendable {
  package let path: String
  private var descriptor: Int32
  private var failure: FileSystem.Failure?

  /// Creates the file `path`, which must not exist (it is never a symbolic link's target).
  package init(creating path: String) throws(FileSystem.Failure) {
    self.path = path
    descriptor = try FileSystem.createExclusively(path)
  }

  deinit { if descriptor >= 0 { _ = closeDescriptor(descriptor) } }

  /// Appends `bytes`.
  package func write(_ bytes: UnsafeRawBufferPointer) {
    guard failure == nil, descriptor >= 0 else { return }
    do {
      try FileSystem.write(bytes, to: descriptor, path: path)
    } catch {
      failure = error
    }
  }

  /// Appends `text`.
  package func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  /// Closes the file; throws the first failure of any write.
  package func close() throws(FileSystem.Failure) {
    guard descriptor >= 0 else { return }
    let closing = descriptor
    descriptor = -1
    try FileSystem.close(closing, path: path)
    if let failure { throw failure }
  }
}

/// Writes a file completely or not at all: into a staging area beside it, then renamed over it.
/// A symbolic link at the destination is replaced, never followed.
package enum AtomicFile {
  /// Writes `text` to `path`, replacing what is there; an error names `shown` (by default `path`:
  /// the path the user gave, never a staging file's) as `output`.
  package static func write(
    _ text: String, to path: String, shown: String? = nil, output: JetsimError.Output = .reports
  ) throws(JetsimError) {
    try write(to: path, shown: shown, output: output) { file in file.write(text) }
  }

  /// Writes what `body` writes to the file it is given to `path`, replacing what is there, once
  /// `body` returns; if it throws, nothing is replaced and its error is thrown.
  package static func write(
    to path: String, shown: String? = nil, output: JetsimError.Output = .reports,
    _ body: (OutputFile) throws(JetsimError) -> Void
  ) throws(JetsimError) {
    let shown = shown ?? path
    do {
      let staging = try StagingArea(in: FileSystem.split(path).folder)
      defer { staging.discard() }
      let file = try OutputFile(creating: staging.file("file"))
      try body(file)
      try file.close()
      guard FileSystem.entry(at: path) != .directory else {
        throw FileSystem.Failure(path: path, reason: "a folder of that name is in the way")
      }
      try FileSystem.rename(staging.file("file"), to: path)
    } catch let error as FileSystem.Failure {
      throw error.notWritable(shown, output: output)
    } catch let error as JetsimError {
      throw error
    } catch {
      throw .outputNotWritable(path: shown, reason: "\(error)", output: output)
    }
  }
}

/// Keeps other jetsim processes from writing the same output at the same time: a lock file beside
/// the output (`.NAME.jetsim-lock`), held with `flock` until released or until the process ends
/// (however it ends: the system releases the lock; the file of a killed process stays, harmless,
/// until the next writer removes it).
package final class OutputLock: @unchecked Sendable {
  private var descriptor: Int32

  private let path: String
  /// The folders on the way to the lock that it created (deepest first), removed on release if
  /// they are empty by then: a failed write leaves none of them behind.
  private let createdFolders: [String]

  /// Locks the output at `destination`; another jetsim holding it is a `folderInUse` error.
  package init(_ destination: String) throws(JetsimError) {
    let (folder, name) = FileSystem.split(destination)
    do {
      createdFolders = try FileSystem.makeDirectories(folder)
    } catch {
      throw error.notWritable(destination)
    }
    path = "\(folder)/.\(name).jetsim-lock"
    descriptor = -1
    // The holder removes the lock file when it is done; a file opened just before that removal is
    // no longer the lock, so after locking, check that the path still names the file locked.
    for _ in 0..<8 {
      let candidate = open(path, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o644)
      guard candidate >= 0 else {
        FileSystem.removeEmptyFolders(createdFolders)
        throw FileSystem.Failure(path: path, errno: errno).notWritable(destination)
      }
      guard flock(candidate, LOCK_EX | LOCK_NB) == 0 else {
        let busy = errno == EWOULDBLOCK
        let failure = FileSystem.Failure(path: path, errno: errno)
        _ = closeDescriptor(candidate)
        if busy { throw .folderInUse(path: destination) }
        unlink(path)
        FileSystem.removeEmptyFolders(createdFolders)
        throw failure.notWritable(destination)
      }
      var held = stat()
      var named = stat()
      if fstat(candidate, &held) == 0, lstat(path, &named) == 0, held.st_ino == named.st_ino,
        held.st_dev == named.st_dev
      {
        descriptor = candidate
        InterruptCleanup.track(file: path, created: createdFolders)
        return
      }
      _ = closeDescriptor(candidate)
    }
    throw .folderInUse(path: destination)
  }

  deinit { release() }

  /// Removes the lock file and releases the lock (also done when the lock is deallocated), and
  /// the folders it created if nothing was put in them.
  package func release() {
    guard descriptor >= 0 else { return }
    unlink(path)
    InterruptCleanup.forget(path)
    _ = closeDescriptor(descriptor)
    descriptor = -1
    FileSystem.removeEmptyFolders(createdFolders)
  }
}
