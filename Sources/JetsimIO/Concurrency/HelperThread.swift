import Foundation

/// A thread that helps a simulation (writes its reports, hashes its trace) and gives way to it:
/// the simulation's own thread is the one a run waits for, so on a machine with as many busy
/// threads as cores, the helpers yield first. On Linux the thread's nice value is raised by
/// `niceness`; elsewhere it runs at utility quality of service.
package enum HelperThread {
  /// How much lower the helpers' priority is, as a Linux nice increment.
  package static let niceness: Int32 = 4

  /// Starts `body` on a new thread named `name`.
  package static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
      #if os(Linux)
        // Linux keeps a nice value per thread: 0 here is the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
      #endif
      body()
    }
    thread.name = name
    thread.qualityOfService = QualityOfService.utility
    thread.start()
  }
}
