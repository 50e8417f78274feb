#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What jetsim removes if the process is interrupted (SIGINT or SIGTERM) while it writes: the
/// staging areas it has open and the lock files it holds. Each is registered while it exists and
/// forgotten once discarded or released, so an interruption leaves nothing that was not there
/// before, as a failure does (docs/hardening.md); the output itself is never touched, since it is
/// only ever replaced whole.
package enum InterruptCleanup {
  private static let lock = Lock()
  nonisolated(unsafe) private static var trees: Set<String> = []
  nonisolated(unsafe) private static var files: Set<String> = []

  /// Registers the folder `path`, removed whole on an interruption.
  package static func track(tree path: String) { lock.withLock { _ = trees.insert(path) } }

  /// Registers the file `path`, removed on an interruption.
  package static func track(file path: String) { lock.withLock { _ = files.insert(path) } }

  /// Forgets `path`: it was discarded, released or put in place.
  package static func forget(_ path: String) {
    lock.withLock {
      trees.remove(path)
      files.remove(path)
    }
  }

  /// Removes everything registered; returns how many were. Called once, by the handler of an
  /// interruption: what is registered then stays registered, so that a write racing the handler
  /// cannot bring a forgotten area back.
  @discardableResult
  package static func removeAll() -> Int {
    lock.withLock {
      for tree in trees { try? FileSystem.removeTree(tree) }
      for file in files { unlink(file) }
      return trees.count + files.count
    }
  }
}
