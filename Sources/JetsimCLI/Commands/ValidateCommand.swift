import Jetsim

/// The options of `jetsim validate`.
struct ValidateOptions: Subcommand, Equatable {
  var files: [String]
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension ValidateOptions {
  static let spec = CommandSpec(
    name: "validate",
    abstract:
      "Check input files as the commands that use them read them, without running anything.",
    discussion: """
      Each FILE is checked as what it is, exactly as the command that uses it reads it: a trace or \
      an app-usage log by its extension and header, a JetsamEvent report by its extension (.ips, \
      .synced, .crash), otherwise a JSON scenario, sweep, device or app profile, MetricKit \
      payload or user model (the keys of a scenario's userModel, as what-if --user-model takes \
      them; its app ids are checked where it is used), told apart by its keys. Every error names the file, the key or line, and the \
      fix. Exit 0 when every file is valid.
      """,
    arguments: [ArgumentSpec(name: "FILE", help: "a file to check", count: .oneOrMore)],
    examples: [
      "jetsim validate Profiles/scenarios/*.json Profiles/devices/*.json Profiles/apps/*.json",
      "jetsim validate Profiles/user-models/everyday.json",
      "jetsim validate Profiles/jetsam-reports/*.ips Profiles/jetsam-reports/*.crash",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(files: parsed.positionals)
    printing = try OutputOptions(parsed)
  }

  /// Checks every file, reporting each; the worst exit code of any file.
  func execute() -> CommandResult {
    var result = CommandResult()
    var checked: [JSONValue] = []
    for file in files {
      do {
        let kind = try InputValidator.validate(at: file)
        let note =
          kind == .userModel
          ? " (its app ids are checked where it is used: as a scenario's userModel, or by what-if --user-model)"
          : ""
        result.output += "\(file): valid \(kind.rawValue)\(note)\n"
        checked.append(
          .fields([
            ("file", .string(file)), ("valid", .bool(true)), ("kind", .string(kind.rawValue)),
          ]))
      } catch {
        let line = ErrorMessage.line(for: error)
        result.errors += line
        if result.code == .success { result.code = ExitCode(error) }
        checked.append(
          .fields([
            ("file", .string(file)), ("valid", .bool(false)),
            ("error", .string(String(line.dropLast()))),
            ("exit_code", .integer(Int(ExitCode(error).rawValue))),
          ]))
      }
    }
    if printing.quiet {
      result.output = ""
    } else if printing.format == .json {
      result.output = JSONText.render(.fields([("files", .list(checked))]))
    }
    return result
  }
}
