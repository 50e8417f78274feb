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

/// The exit codes jetsim uses, as `sysexits.h` names them.
public enum ExitCode: Int32, Sendable {
  case success = 0
  /// Something failed while running (a report could not be committed, a policy misbehaved).
  case failure = 1
  /// The command line is wrong.
  case usage = 64
  /// An input file's content is wrong.
  case dataError = 65
  /// An input file is missing or unreadable.
  case noInput = 66
  /// An output folder cannot be written.
  case cannotCreate = 73

  /// The exit code for a library error.
  public init(_ error: JetsimError) {
    switch error {
    case .fileNotFound, .unreadable: self = .noInput
    case .outputNotWritable: self = .cannotCreate
    case .invalidEviction: self = .failure
    case .unknownPolicy: self = .dataError
    default: self = .dataError
    }
  }
}
