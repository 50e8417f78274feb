import Jetsim

/// Runs `jetsim` commands: parses the arguments, calls the library, writes what people read to
/// `output` and errors to `errors`, and returns the exit code. The executable only wires this to the
/// process's streams.
package enum JetsimCommandLine {
  /// jetsim's version.
  package static let version = JetsimVersion.current

  /// Runs the command line `arguments` (without the program name).
  package static func main(
    _ arguments: [String], output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> ExitCode {
    let command: Command
    do {
      command = try CommandParser.parse(arguments)
    } catch {
      errors.write("jetsim: \(error)\n")
      return .usage
    }
    let result: CommandResult
    do {
      result = try execute(command)
    } catch {
      errors.write(ErrorMessage.line(for: error))
      return ExitCode(error)
    }
    return finish(result, output: &output, errors: &errors)
  }

  /// Prints what a command produced and returns its exit code, once the rule for outputs holds:
  /// every output it names as written is there (else nothing of it is printed, and the exit code
  /// is `software`). The one place the rule is enforced for every subcommand.
  static func finish(
    _ result: CommandResult, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> ExitCode {
    if let missing = result.wrote.first(where: { FileSystem.entry(at: $0) == .none }) {
      errors.write("jetsim: \(missing): named as written but not there; this is a bug in jetsim\n")
      return .software
    }
    output.write(result.output)
    errors.write(result.errors)
    return result.code
  }

  static func execute(_ command: Command) throws(JetsimError) -> CommandResult {
    switch command {
    case .subcommand(let subcommand): return try subcommand.execute()
    case .help(let topic):
      let text =
        topic.flatMap(Subcommands.named).map(HelpFormatter.help)
        ?? HelpFormatter.overview(Subcommands.specs)
      return CommandResult(output: text)
    case .version: return CommandResult(output: "jetsim \(version)\n")
    case .completionScript(let shell):
      guard let shell = CompletionScript.Shell(rawValue: shell) else { return CommandResult() }
      return CommandResult(output: CompletionScript.script(for: shell, commands: Subcommands.specs))
    }
  }
}
