import Jetsim

/// Turns `jetsim`'s arguments (without the program name) into a `Command`, or a `UsageError` that
/// says what is wrong and suggests the nearest subcommand or option. No file is read or written (paths given twice are
/// compared as the file system resolves them).
enum CommandParser {
  static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(nil) }
    switch first {
    case "--help", "-h": return .help(nil)
    case "--version": return .version
    case "--generate-completion-script":
      guard arguments.count == 2, let shell = CompletionScript.Shell(rawValue: arguments[1]) else {
        throw UsageError(
          "--generate-completion-script needs a shell: \(CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      return .completionScript(shell.rawValue)
    default: break
    }
    guard let spec = Subcommands.named(first) else {
      let names = Subcommands.specs.map(\.name)
      let hint = Suggestion.closest(to: first, in: names).map { "; did you mean '\($0)'?" } ?? ""
      throw UsageError("unknown subcommand '\(first.excerpt(limit: 40))'\(hint)")
    }
    let parsed = try ParsedArguments(Array(arguments.dropFirst()), for: spec)
    if parsed.has(CommonOptions.help) { return .help(spec.name) }
    if let type = Subcommands.type(named: spec.name) { return .subcommand(try type.init(parsed)) }
    // `help [SUBCOMMAND]`
    if let topic = parsed.positionals.first, Subcommands.named(topic) == nil {
      throw UsageError("no help on '\(topic.excerpt(limit: 40))': it is not a subcommand")
    }
    return .help(parsed.positionals.first)
  }
}
