import Jetsim

/// A command line that cannot be run as written (exit code 64). `help` names the subcommand whose
/// usage to show.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  public var message: String
  public var help: String?

  public init(_ message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }

  public var description: String {
    message + "\nRun 'jetsim \(help.map { "\($0) " } ?? "")--help' for usage."
  }
}
