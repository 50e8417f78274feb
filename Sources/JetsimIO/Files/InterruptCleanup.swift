#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What jetsim removes if the process is interrupted (SIGINT or SIGTERM) while it writes: the
/// staging areas it has open, the lock files it holds, and the folders it created on the way to
/// them that are still empty. Each is registered while it exists and forgotten once discarded or
/// released, so an interruption leaves nothing that was not there before, as a failure does
/// (docs/hardening.md); the output itself is never touched, since it is only ever replaced whole.
package enum InterruptCleanup {
  private static let lock = Lock()
  nonisolated(unsafe) private static var trees: Set<String> = []
  nonisolated(unsafe) private static var files: Set<String> = []
  /// Folders made on the way to an area or a lock, each list deepest first.
  nonisolated(unsafe) private static var folders: [[String]] = []
  nonisolated(unsafe) private static var interrupted = false

  /// Makes the folder `path` with `mode` (`FileSystem.makeDirectoryExclusively`) and registers it,
  /// removed whole on an interruption, with the folders `created` on the way to it (deepest first),
  /// removed if empty: in one step an interruption cannot come between, since a signal that came
  /// after the folder was made and before it was registered would leave it behind (the handler
  /// ends the process). After an interruption nothing is made.
  package static func makeTree(
    _ path: String, mode: mode_t, created: [String] = []
  ) throws(FileSystem.Failure) {
    lock.lock()
    defer { lock.unlock() }
    guard !interrupted else { throw FileSystem.Failure(path: path, reason: "interrupted") }
    try FileSystem.makeDirectoryExclusively(path, mode: mode)
    trees.insert(path)
    if !created.isEmpty { folders.append(created) }
  }

  /// Registers the file `path`, removed on an interruption (at once after one), and the folders
  /// `created` on the way to it.
  package static func track(file path: String, created: [String] = []) {
    let late = lock.withLock {
      if !interrupted { files.insert(path) }
      if !created.isEmpty { folders.append(created) }
      return interrupted
    }
    if late { unlink(path) }
  }

  /// Forgets `path`: it was discarded, released or put in place.
  package static func forget(_ path: String) {
    lock.withLock {
      guard !interrupted else { return }
      trees.remove(path)
      files.remove(path)
    }
  }

  /// Whether the process has been interrupted: what it would print or write then is dropped.
  package static var isInterrupted: Bool { lock.withLock { interrupted } }

  /// Marks the process interrupted and removes everything registered; false if it already was
  /// (a second signal), in which case nothing is done.
  package static func interrupt() -> Bool {
    lock.withLock {
      guard !interrupted else { return false }
      interrupted = true
      for tree in trees {
        // A writer still at work may make a file while the tree is being removed (a report
        // folder's files are made as it starts): try again, for up to about a tenth of a second.
        var attempts = 0
        while (try? FileSystem.removeTree(tree)) == nil, attempts < 100 {
          attempts += 1
          usleep(1_000)
        }
      }
      for file in files { unlink(file) }
      for created in folders { FileSystem.removeEmptyFolders(created) }
      return true
    }
  }
}
