import Jetsim

/// A parsed command line: what `CommandParser.parse` returns and `JetsimCommandLine` runs.
public enum Command: Equatable, Sendable {
  case run(RunOptions)
  case compare(CompareOptions)
  case check(CheckOptions)
  case sweep(SweepOptions)
  case merge(MergeOptions)
  case plan(PlanOptions)
  case importLSApp(ImportOptions)
  case importJetsam(ImportJetsamOptions)
  case replay(ReplayOptions)
  case validate(ValidateOptions)
  case policies(PoliciesOptions)
  /// `jetsim --help`, `jetsim help [SUBCOMMAND]`, `jetsim SUBCOMMAND --help`.
  case help(String?)
  /// `jetsim --version`
  case version
  /// `jetsim --generate-completion-script SHELL`
  case completionScript(String)
}

/// What running a command produced: text for standard output and standard error, and the exit
/// code.
struct CommandResult {
  var output = ""
  var errors = ""
  var code = ExitCode.success
}

/// Every subcommand's declaration, in the order help lists them.
enum Subcommands {
  static let all: [CommandSpec] = [
    RunOptions.spec, CompareOptions.spec, CheckOptions.spec, SweepOptions.spec, MergeOptions.spec,
    PlanOptions.spec, ImportOptions.spec, ImportJetsamOptions.spec, ReplayOptions.spec,
    ValidateOptions.spec, PoliciesOptions.spec, helpSpec,
  ]

  static let helpSpec = CommandSpec(
    name: "help", abstract: "Show help for jetsim or one of its subcommands.",
    arguments: [
      ArgumentSpec(
        name: "SUBCOMMAND", help: "the subcommand to explain", count: .optional,
        completion: .values([
          "run", "compare", "check", "sweep", "merge", "plan", "import-lsapp", "import-jetsam",
          "replay", "validate", "policies",
        ]))
    ],
    examples: ["jetsim help run"])

  static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
}
