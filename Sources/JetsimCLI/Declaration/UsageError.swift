import Jetsim

/// A command line that cannot be run as written (exit code 64). `help` names the subcommand whose
/// usage to show.
package struct UsageError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package var help: String?

  package init(_ message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }

  package var description: String {
    message + "\nRun 'jetsim \(help.map { "\($0) " } ?? "")--help' for usage."
  }
}
