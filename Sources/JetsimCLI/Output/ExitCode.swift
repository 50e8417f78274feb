import Jetsim

/// The exit codes jetsim uses, as `sysexits.h` names them.
package enum ExitCode: Int32, Sendable, CaseIterable {
  case success = 0
  /// Something failed while running (a report could not be committed, a policy misbehaved).
  case failure = 1
  /// The command line is wrong.
  case usage = 64
  /// An input file's content is wrong.
  case dataError = 65
  /// An input file is missing or unreadable.
  case noInput = 66
  /// An internal error: jetsim did not do what it said (a bug to report).
  case software = 70
  /// An output folder cannot be written.
  case cannotCreate = 73
  /// An output is being written by another jetsim: try again later.
  case temporaryFailure = 75

  /// What the code means, for `--help` (every case is listed there).
  package var meaning: String {
    switch self {
    case .success: "success"
    case .failure: "failure, or differences found by check, or a plan target not met"
    case .usage: "bad usage"
    case .dataError: "bad input data"
    case .noInput: "missing or unreadable input file"
    case .software: "internal error (a bug: an output named but not written)"
    case .cannotCreate: "output cannot be written"
    case .temporaryFailure: "another jetsim is writing that output now (try again)"
    }
  }

  /// The exit code for a library error.
  package init(_ error: JetsimError) {
    switch error {
    case .fileNotFound, .unreadable, .goldenMissing: self = .noInput
    case .outputNotWritable: self = .cannotCreate
    case .folderInUse: self = .temporaryFailure
    case .invalidEviction: self = .failure
    case .unknownPolicy: self = .dataError
    default: self = .dataError
    }
  }
}
