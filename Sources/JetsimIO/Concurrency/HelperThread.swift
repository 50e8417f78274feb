#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread that helps a simulation (writes its reports, hashes its trace) and gives way to it:
/// the simulation's own thread is the one a run waits for, so on a machine with as many busy
/// threads as cores, the helpers yield first. On Linux the thread's nice value is raised by
/// `niceness`; elsewhere it runs at utility quality of service.
package enum HelperThread {
  /// How much lower the helpers' priority is, as a Linux nice increment.
  package static let niceness: Int32 = 4

  /// No thread could be started (a process or user at its limit of threads, or out of memory).
  package struct Failure: Error {
    /// The system's words for why.
    package let reason: String
  }

  /// What the new thread runs, handed to it through the C library's one pointer.
  private final class Start {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }

  /// Starts `body` on a new, detached thread named `name`.
  package static func start(_ name: String, _ body: @escaping @Sendable () -> Void)
    throws(Failure)
  {
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    #if os(Linux)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let failure = pthread_create(&thread, nil, run, start)
    guard failure == 0 else {
      Unmanaged<Start>.fromOpaque(start).release()
      throw Failure(reason: String(cString: strerror(failure)).lowercased())
    }
    #if os(Linux)
      pthread_detach(thread)
    #else
      if let thread { pthread_detach(thread) }
    #endif
  }

  #if os(Linux)
    private static let run: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? =
      { $0.flatMap(main) }
  #else
    private static let run: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? =
      { main($0) }
  #endif

  /// The new thread's life: named, its priority lowered, then `body`.
  private static func main(_ pointer: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    let start = Unmanaged<Start>.fromOpaque(pointer).takeRetainedValue()
    #if os(Linux)
      // Named through /proc (Swift's Glibc module leaves out `pthread_setname_np`), as `top -H`
      // and profilers show it; a name is at most 15 bytes.
      let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
      if comm >= 0 {
        _ = Array(start.name.utf8.prefix(15)).withUnsafeBytes {
          write(comm, $0.baseAddress, $0.count)
        }
        _ = close(comm)
      }
      // Linux keeps a nice value per thread: 0 here is the calling thread.
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    #else
      _ = pthread_setname_np(start.name)
      _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
    #endif
    start.body()
    return nil
  }
}
