import Jetsim

/// A command line that cannot be run as written (exit code 64). `help` names the subcommand whose
/// usage to show. It is one line, as every error is: the message, then where the usage is.
package struct UsageError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package var help: String?

  package init(_ message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }

  package var description: String {
    message + " (see 'jetsim \(help.map { "\($0) " } ?? "")--help')"
  }
}
