import Jetsim

/// A subcommand: its declaration, how it reads its parsed arguments, and what it does. A new
/// subcommand is a type conforming to this and one entry in `Subcommands.all`; parsing, usage, help,
/// completions and dispatch all come from that list (argument-parser's
/// `CommandConfiguration(subcommands:)`).
protocol Subcommand: Sendable {
  /// Its name, arguments, options, help and examples.
  static var spec: CommandSpec { get }
  /// Reads the arguments parsed against `spec`.
  init(_ parsed: ParsedArguments) throws(UsageError)
  /// Runs it.
  func execute() throws(JetsimError) -> CommandResult
  /// Whether `other` is the same subcommand with the same options (for tests).
  func isEqual(to other: any Subcommand) -> Bool
}

extension Subcommand where Self: Equatable {
  func isEqual(to other: any Subcommand) -> Bool { (other as? Self) == self }
}

/// Every subcommand, in the order help lists them: the one list to edit for a new subcommand.
enum Subcommands {
  static let all: [any Subcommand.Type] = [
    RunOptions.self, CompareOptions.self, CheckOptions.self, SweepOptions.self, MergeOptions.self,
    PlanOptions.self, WhatIfOptions.self, ImportOptions.self, ImportJetsamOptions.self,
    ImportMetricKitOptions.self, ReplayOptions.self, ValidateOptions.self, PoliciesOptions.self,
  ]

  /// The declarations, `help` last.
  static let specs: [CommandSpec] = all.map { $0.spec } + [helpSpec]

  static let helpSpec = CommandSpec(
    name: "help", abstract: "Show help for jetsim or one of its subcommands.",
    arguments: [
      ArgumentSpec(
        name: "SUBCOMMAND", help: "the subcommand to explain", count: .optional,
        completion: .values(all.map { $0.spec.name }))
    ],
    takesFormat: false, examples: ["jetsim help run"])

  static func named(_ name: String) -> CommandSpec? { specs.first { $0.name == name } }

  static func type(named name: String) -> (any Subcommand.Type)? {
    all.first { $0.spec.name == name }
  }
}

/// A parsed command line: what `CommandParser.parse` returns and `JetsimCommandLine` runs.
enum Command: Equatable, Sendable {
  /// A subcommand with its options.
  case subcommand(any Subcommand)
  /// `jetsim --help`, `jetsim help [SUBCOMMAND]`, `jetsim SUBCOMMAND --help`.
  case help(String?)
  /// `jetsim --version`
  case version
  /// `jetsim --generate-completion-script SHELL`
  case completionScript(String)

  /// The subcommand, if it is one.
  var subcommand: (any Subcommand)? {
    if case .subcommand(let command) = self { return command }
    return nil
  }

  static func == (a: Command, b: Command) -> Bool {
    switch (a, b) {
    case (.subcommand(let x), .subcommand(let y)): x.isEqual(to: y)
    case (.help(let x), .help(let y)): x == y
    case (.version, .version): true
    case (.completionScript(let x), .completionScript(let y)): x == y
    default: false
    }
  }
}

/// What running a command produced: text for standard output and standard error, the exit code,
/// and the files and folders it wrote.
struct CommandResult {
  var output = ""
  var errors = ""
  var code = ExitCode.success
  /// Every output the command names (in its text or JSON) as written. The command line checks
  /// that each is there before it exits 0 (`JetsimCommandLine.main`): exit 0 means every output
  /// asked for was written.
  var wrote: [String] = []
}
