import JetsimCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file-system operations jetsim's outputs need, done with the guarantees they need:
/// files created exclusively without following symbolic links, folders created exclusively, and
/// folders swapped atomically. Failures are `FileSystem.Failure`s carrying the system's words.
package enum FileSystem {
  /// A failed operation: which path, and why in a few plain words.
  /// (Its memberwise initializer, `init(path:reason:)`, is the one the compiler writes.)
  package struct Failure: Error, Equatable {
    /// The path the operation was given.
    package var path: String
    /// Why it failed, in a few plain words.
    package var reason: String

    /// As a library error: `output` could not be written at `destination`.
    package func notWritable(
      _ destination: String? = nil, output: JetsimError.Output = .reports
    ) -> JetsimError {
      .outputNotWritable(path: destination ?? path, reason: reason, output: output)
    }
  }

  /// The system's words for `errno`, in lowercase: "no space left on device".
  package static func words(errno code: Int32) -> String {
    switch code {
    case ENOENT: "a folder on its path does not exist"
    case EACCES, EPERM: "permission denied"
    case ENOSPC: "no space left on the device"
    case EROFS: "read-only file system"
    case EEXIST: "something is already there"
    case ENOTDIR: "a file is where a folder should be"
    case ELOOP: "a symbolic link is in the way"
    default: String(cString: strerror(code)).lowercased()
    }
  }

  /// What is at `path`, without following a symbolic link there.
  package enum Entry: Equatable {
    case none, file, directory, symbolicLink, other
  }

  package static func entry(at path: String) -> Entry {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .none }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    default: return .other
    }
  }

  /// Whether `path` (a symbolic link followed) is a pipe, a socket or a device: what can be read
  /// only once, such as `/dev/stdin` from a pipe.
  package static func isStream(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let kind = info.st_mode & S_IFMT
    return kind == S_IFIFO || kind == S_IFSOCK || kind == S_IFCHR
  }

  /// The names in the folder at `path` (hidden ones included), sorted; empty if it is not one.
  package static func names(in path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// Creates the folder `path` and any missing parents (an existing folder is fine). Returns the
  /// folders it created, deepest first, so that a writer that fails can remove them again
  /// (`removeEmptyFolders`); on failure, those it created are removed before it throws.
  @discardableResult
  package static func makeDirectories(_ path: String) throws(Failure) -> [String] {
    var missing: [String] = []
    var current = path
    while entry(at: current) == .none {
      missing.append(current)
      let parent = split(current).folder
      guard parent != current else { break }
      current = parent
    }
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      removeEmptyFolders(missing)
      throw Failure(path: path, reason: FileFailure.reason(error))
    }
    return missing
  }

  /// Removes each of `folders` (deepest first) that is empty; anything that holds a file stays,
  /// and so do its parents.
  package static func removeEmptyFolders(_ folders: [String]) {
    for folder in folders where rmdir(folder) != 0 { return }
  }

  /// Creates the folder `path`, which must not exist (a symbolic link there counts as existing).
  package static func makeDirectoryExclusively(_ path: String, mode: mode_t = 0o755) throws(Failure)
  {
    guard mkdir(path, mode) == 0 else { throw Failure(path: path, errno: errno) }
  }

  /// Creates the file `path` for writing, which must not exist, never following a symbolic link:
  /// the file descriptor.
  package static func createExclusively(_ path: String) throws(Failure) -> Int32 {
    let descriptor = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw Failure(path: path, errno: errno) }
    return descriptor
  }

  /// Writes every byte of `text`'s UTF-8 to `descriptor` (the file at `path`).
  package static func write(_ text: String, to descriptor: Int32, path: String) throws(Failure) {
    var text = text
    var failure: Failure?
    text.withUTF8 {
      do throws(Failure) {
        try write(UnsafeRawBufferPointer($0), to: descriptor, path: path)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Writes every byte of `bytes` to `descriptor`.
  package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String)
    throws(Failure)
  {
    var offset = 0
    while offset < bytes.count {
      guard let base = bytes.baseAddress else { return }
      let written = writeDescriptor(descriptor, base + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw Failure(path: path, errno: errno)
      }
      offset += written
    }
  }

  /// Closes `descriptor`; a failure (a delayed write error) is reported.
  package static func close(_ descriptor: Int32, path: String) throws(Failure) {
    guard closeDescriptor(descriptor) == 0 else { throw Failure(path: path, errno: errno) }
  }

  /// Writes `text` to the file `path` whole or not at all: into a new file beside it, renamed over
  /// it once written, so a reader never sees it half-written. On failure the new file is removed.
  package static func writeAtomically(_ text: String, to path: String) throws(Failure) {
    let temporary = "\(path).jetsim-\(getpid()).tmp"
    let descriptor = try createExclusively(temporary)
    var open = true
    do throws(Failure) {
      try write(text, to: descriptor, path: temporary)
      open = false
      try close(descriptor, path: temporary)
      try rename(temporary, to: path)
    } catch {
      if open { _ = closeDescriptor(descriptor) }
      unlink(temporary)
      throw error
    }
  }

  /// Renames `source` to `destination`, replacing a file (or empty folder) there.
  package static func rename(_ source: String, to destination: String) throws(Failure) {
    guard renameFile(source, destination) == 0 else {
      throw Failure(path: destination, errno: errno)
    }
  }

  /// Swaps `a` and `b` in one atomic step, so that no instant sees either missing. Returns false
  /// when the system or file system cannot (the caller then falls back to two renames).
  package static func exchange(_ a: String, _ b: String) -> Bool {
    #if os(Linux)
      guard let function = renameat2 else { return false }
      return function(AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */) == 0
    #elseif canImport(Darwin)
      return renamex_np(a, b, UInt32(RENAME_SWAP)) == 0
    #else
      return false
    #endif
  }

  #if os(Linux)
    private typealias RenameAt2 =
      @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's `renameat2` (2.28 and later), found at run time: Swift's Glibc module does not
    /// declare it.
    private static let renameat2: RenameAt2? = {
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
      return unsafeBitCast(symbol, to: RenameAt2.self)
    }()
  #endif

  /// Removes `path` and everything under it, never following a symbolic link (a link is removed,
  /// not what it points to). Nothing at `path` is fine.
  package static func removeTree(_ path: String) throws(Failure) {
    guard entry(at: path) != .none else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw Failure(path: path, reason: FileFailure.reason(error))
    }
  }

  /// Whether a process numbered `pid` is running (on this machine).
  package static func isProcessAlive(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }

  /// This process's number.
  package static var processID: Int32 { getpid() }

  /// A random suffix for names jetsim creates, from the system's generator (names only: nothing
  /// in a report depends on it).
  package static func randomSuffix() -> String {
    String(UInt64.random(in: 0...UInt64.max), radix: 36)
  }

  /// `path`'s folder and last component: `("a/b", "c")` for `a/b/c`, `(".", "c")` for `c`.
  package static func split(_ path: String) -> (folder: String, name: String) {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
    let folder = trimmed[..<slash]
    return (folder.isEmpty ? "/" : String(folder), String(trimmed[trimmed.index(after: slash)...]))
  }

  /// `path` with `.`, `..` and repeated slashes folded lexically (no link is followed): `..` at the
  /// root of an absolute path stays there; a relative path keeps the `..` it cannot fold, and is
  /// `.` when nothing is left.
  package static func folded(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      switch part {
      case ".":
        continue
      case "..":
        if let last = parts.last, last != ".." {
          parts.removeLast()
        } else if !absolute {
          parts.append(part)
        }
      default:
        parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
  }

  /// One spelling for every way of writing the path of the same file or folder: absolute, with
  /// `.`, `..`, repeated slashes and symbolic links resolved. A path that does not exist yet (an
  /// output) is resolved through its nearest folder that does, and the rest is kept as written.
  package static func canonical(_ path: String) -> String {
    if let resolved = realpath(path, nil) {
      defer { free(resolved) }
      return String(cString: resolved)
    }
    var here = "/"
    if let current = getcwd(nil, 0) {
      defer { free(current) }
      here = String(cString: current)
    }
    let absolute = folded(path.hasPrefix("/") ? path : here + "/" + path)
    let (folder, name) = split(absolute)
    guard folder != absolute, name != "" else { return absolute }
    let parent = canonical(folder)
    return parent.hasSuffix("/") ? parent + name : parent + "/" + name
  }
}

extension FileSystem.Failure {
  /// The failure the system's error number `code` reports at `path`.
  package init(path: String, errno code: Int32) {
    self.init(path: path, reason: FileSystem.words(errno: code))
  }
}

// The C library's calls under names of their own: inside `FileSystem` and `OutputFile`, whose
// methods are also called `write`, `close` and `rename`, the plain names would mean those.

func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }

func renameFile(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
