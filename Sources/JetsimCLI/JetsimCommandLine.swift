import Jetsim

/// Runs `jetsim` commands: parses the arguments, calls the library, writes what people read to
/// `output` and errors to `errors`, and returns the exit code. The executable only wires this to the
/// process's streams.
public enum JetsimCommandLine {
  /// jetsim's version.
  public static let version = JetsimVersion.current

  /// Runs the command line `arguments` (without the program name).
  public static func main(
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
      errors.write(message(for: error))
      return ExitCode(error)
    }
    output.write(result.output)
    errors.write(result.errors)
    return result.code
  }

  static func execute(_ command: Command) throws(JetsimError) -> CommandResult {
    switch command {
    case .help(let topic):
      let text =
        topic.flatMap(Subcommands.named).map(HelpFormatter.help)
        ?? HelpFormatter.overview(Subcommands.all)
      return CommandResult(output: text)
    case .version: return CommandResult(output: "jetsim \(version)\n")
    case .completionScript(let shell):
      guard let shell = CompletionScript.Shell(rawValue: shell) else { return CommandResult() }
      return CommandResult(output: CompletionScript.script(for: shell, commands: Subcommands.all))
    case .run(let options): return try options.execute()
    case .compare(let options): return try options.execute()
    case .check(let options): return try options.execute()
    case .sweep(let options): return try options.execute()
    case .merge(let options): return try options.execute()
    case .plan(let options): return try options.execute()
    case .importLSApp(let options): return try options.execute()
    case .importJetsam(let options): return try options.execute()
    case .replay(let options): return try options.execute()
    case .validate(let options): return options.execute()
    case .policies(let options): return options.execute()
    }
  }

  /// A library error as the command line prints it: one line, with the flag that fixes it where
  /// there is one.
  static func message(for error: JetsimError) -> String {
    var text = "jetsim: \(error)"
    switch error {
    case .outputNotWritable: text += "; choose another folder with --out"
    default: break
    }
    return text + "\n"
  }
}
