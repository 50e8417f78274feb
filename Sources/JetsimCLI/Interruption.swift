import Dispatch
import Jetsim

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ends the process on SIGINT (Ctrl-C) or SIGTERM (a cluster's scheduler) as a failure ends a
/// command: the staging areas and lock files it holds are removed (`InterruptCleanup`), the
/// output it was writing is left as it was, one line says so, and the exit code is 128 plus the
/// signal's number (130, 143), as a shell reports a process the signal killed.
package enum Interruption {
  /// The signal sources, kept for the life of the process.
  nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

  /// Handles SIGINT and SIGTERM for the command line `arguments` (without the program name).
  package static func install(arguments: [String]) {
    for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      let line = message(signal: name, arguments: arguments)
      source.setEventHandler {
        InterruptCleanup.removeAll()
        let errors = StandardStream.error
        errors.write(line)
        exit(128 + number)
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
    return "jetsim: interrupted (\(signal)); the output is left as it was and the files it was"
      + " writing are removed\(resume)\n"
  }
}
