import Dispatch
import Jetsim

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ends the process on SIGINT (Ctrl-C) or SIGTERM (a cluster's scheduler) as a failure ends a
/// command: the staging areas, lock files and folders it made are removed (`InterruptCleanup`),
/// the output it was writing is left as it was, one line says so, and the process then dies of
/// the signal, as it would have without the handler (a shell reports 130 or 143, and a loop
/// around jetsim stops).
package enum Interruption {
  /// One serial queue for both signals (a second signal finds the first handled), with a thread
  /// of its own, so a sweep keeping every worker busy cannot delay it.
  private static let queue = DispatchQueue(label: "jetsim.interruption")
  /// The signal sources, kept for the life of the process.
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

  /// Handles SIGINT and SIGTERM for the command line `arguments` (without the program name).
  package static func install(arguments: [String]) {
    for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      let line = message(signal: name, arguments: arguments)
      source.setEventHandler {
        guard InterruptCleanup.interrupt() else { return }
        StandardStream.error.write(line)
        // Dies of the signal: its default action, unblocked in this thread (Dispatch's threads
        // block signals), then raised here.
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        _exit(128 + number)
      }
      source.resume()
      sources.append(source)
    }
  }

  /// The line printed on an interruption by `signal` of the command line `arguments`.
  static func message(signal: String, arguments: [String]) -> String {
    let resume =
      arguments.first == "sweep"
      ? "; the runs finished so far are kept: run it again with --resume to go on" : ""
    return "jetsim: interrupted (\(signal)); the output is left as it was when interrupted and"
      + " the files it was writing are removed\(resume)\n"
  }

  /// `stream`, writing nothing once the process is interrupted (a command failing because its
  /// staging area was removed under it says nothing of that).
  package struct Guarded<Base: TextOutputStream>: TextOutputStream {
    /// The stream written to.
    package var base: Base

    /// The stream `base`, guarded.
    package init(_ base: Base) { self.base = base }

    package mutating func write(_ string: String) {
      if !InterruptCleanup.isInterrupted { base.write(string) }
    }
  }

  /// Exits with `code`, unless the process is interrupted: then the handler ends it.
  package static func exit(_ code: Int32) -> Never {
    while InterruptCleanup.isInterrupted { pause() }
    #if canImport(Glibc)
      Glibc.exit(code)
    #else
      Darwin.exit(code)
    #endif
  }
}
