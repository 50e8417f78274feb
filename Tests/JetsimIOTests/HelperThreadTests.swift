import Foundation
import Testing

@testable import JetsimIO

/// The threads that write a run's reports and hash its trace: they run their work, give way to the
/// simulation's thread, and carry a name (`top -H` and profilers show it), and the lock the
/// threads share excludes.
@Suite struct HelperThreadTests {
  /// What a helper thread saw of itself.
  private final class Seen: @unchecked Sendable {
    var name = ""
    var nice: Int32 = 0
  }

  #if os(Linux)
    @Test func aHelperIsNamedAndNicerThanItsStarter() throws {
      let seen = Seen()
      let done = DispatchSemaphore(value: 0)
      errno = 0
      let starter = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
      try HelperThread.start("jetsim-test") {
        seen.name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        seen.nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        done.signal()
      }
      done.wait()
      #expect(seen.name == "jetsim-test\n")
      // A nice value stops at 19.
      #expect(seen.nice == min(19, starter + HelperThread.niceness))
    }
  #endif

  /// Two threads adding under the lock lose no addition.
  @Test func theLockExcludes() throws {
    let lock = Lock()
    final class Counter: @unchecked Sendable { var value = 0 }
    let counter = Counter()
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<2 {
      try HelperThread.start("jetsim-test") {
        for _ in 0..<100_000 { lock.withLock { counter.value += 1 } }
        done.signal()
      }
    }
    done.wait()
    done.wait()
    #expect(counter.value == 200_000)
  }
}
