import Jetsim

/// Runs `jetsim` commands: parses the arguments, calls the library, writes what people read to
/// `output` and errors to `errors`, and returns the exit code. The executable only wires this to the
/// process's streams.
public enum JetsimCommandLine {
  /// jetsim's version.
  public static let version = "0.1.0"

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
    do {
      switch command {
      case .help(let topic):
        output.write(HelpText.text(for: topic.flatMap(Subcommand.init(rawValue:))))
      case .version:
        output.write("jetsim \(version)\n")
      case .policies:
        output.write(policiesText())
      case .validate(let files):
        return validate(files, output: &output, errors: &errors)
      case .run(let options):
        let summary = try run(options)
        if !options.quiet { output.write(summary) }
      }
      return .success
    } catch {
      errors.write("jetsim: \(error)\n")
      return ExitCode(error)
    }
  }

  /// `jetsim run`: loads the scenario, applies the options, streams the reports into their folder
  /// and returns the human-readable summary.
  static func run(_ options: RunOptions) throws(JetsimError) -> String {
    var scenario = try ProfileLoader.scenario(at: options.scenario, trace: options.trace)
    if let policy = options.policy { scenario.policy = policy }
    if let seed = options.seed { scenario.seed = seed }
    if let duration = options.durationMs { scenario.durationMs = duration }
    let destination = options.out ?? "\(Defaults.reportsFolder)/\(scenario.name)"
    var writer = try ReportWriter(
      folder: ReportFolder(destination: destination), scenario: scenario)
    let summary: RunSummary
    do {
      summary = try Simulator.run(scenario, observer: &writer)
    } catch {
      writer.discard()
      throw error
    }
    try writer.finish(summary)
    return RunReport.text(summary, device: scenario.device, folder: destination)
  }

  /// `jetsim validate`: checks every file, reporting each; fails if any is wrong.
  static func validate(
    _ files: [String], output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> ExitCode {
    var worst = ExitCode.success
    for file in files {
      do {
        let kind = try ProfileLoader.validate(at: file)
        output.write("\(file): valid \(kind.rawValue)\n")
      } catch {
        errors.write("jetsim: \(error)\n")
        if worst == .success { worst = ExitCode(error) }
      }
    }
    return worst
  }

  static func policiesText() -> String {
    let width = PolicyRegistry.all.map(\.name.count).max() ?? 0
    return PolicyRegistry.all.map { entry in
      let padding = String(repeating: " ", count: width - entry.name.count)
      return
        "\(entry.name)\(padding)  \(entry.summary)\(entry.name == Defaults.policy ? " (default)" : "")\n"
    }.joined()
  }
}
