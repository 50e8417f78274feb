import Jetsim

/// `--help` text, generated from the declarations: USAGE, ARGUMENTS, OPTIONS, FILES (the report
/// files `ReportFile` says the subcommand writes), EXAMPLES and EXIT CODES (from `ExitCode`), every
/// line at most `width` columns.
enum HelpFormatter {
  static let width = 100

  /// The usage line of `command`, wrapped: `jetsim what-if SCENARIO --app ID ... [--policy NAME]
  /// ...`, its required options without brackets.
  static func usage(_ command: CommandSpec) -> String {
    var words = ["jetsim", command.name] + command.arguments.map(\.usage)
    for option in command.allOptions where option.name != "help" {
      words.append(option.usage)
    }
    return wrap(words, first: "USAGE: ", rest: "         ")
  }

  /// The whole help of `command`.
  static func help(_ command: CommandSpec) -> String {
    var text = "OVERVIEW: \(command.abstract)\n\n\(usage(command))\n"
    if !command.discussion.isEmpty {
      text += "\n" + paragraphs(command.discussion) + "\n"
    }
    if !command.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      text += table(command.arguments.map { ($0.usage, $0.help) })
    }
    text += "\nOPTIONS:\n"
    text += table(command.allOptions.map { ($0.label, $0.help) })
    let files = ReportFile.written(by: command.name)
    if !files.isEmpty {
      text += "\nFILES:\n" + table(files.map { ($0.name, $0.contents) })
    }
    text += "\nEXAMPLES:\n" + command.examples.map { "  \($0)\n" }.joined()
    return text + exitCodes
  }

  /// The overview of `jetsim --help`: every subcommand with its abstract.
  static func overview(_ commands: [CommandSpec]) -> String {
    var text = """
      OVERVIEW: jetsim simulates memory pressure and app termination on iOS-like devices.

      USAGE: jetsim SUBCOMMAND [OPTIONS]

      SUBCOMMANDS:

      """
    text += table(commands.map { ($0.name, $0.abstract) })
    text += "\nOPTIONS:\n"
    text += table([
      ("-h, --help", "show help (also 'jetsim SUBCOMMAND --help')"),
      ("--version", "show the version"),
      ("--generate-completion-script SHELL", "print a completion script for bash, zsh or fish"),
    ])
    text += """

      EXAMPLES:
        jetsim run Profiles/scenarios/daily-commute.json
        jetsim compare Profiles/scenarios/evening-social.json --seeds 20
        jetsim check Profiles/scenarios/daily-commute.json --expect Reports/golden/daily-commute
        jetsim validate Profiles/scenarios/lifecycle-tour.json

      """
    return text + exitCodes
  }

  /// `EXIT CODES:` and every `ExitCode` with its meaning, one a line.
  static var exitCodes: String {
    "\nEXIT CODES:\n" + table(ExitCode.allCases.map { ("\($0.rawValue)", $0.meaning) })
  }

  /// Rows of two columns, the second wrapped and aligned, indented by two.
  static func table(_ rows: [(String, String)]) -> String {
    let labelWidth = min(34, (rows.map(\.0.count).max() ?? 0))
    var text = ""
    for (label, help) in rows {
      let indent = String(repeating: " ", count: labelWidth + 4)
      if label.count > labelWidth {
        text += "  \(label)\n"
        text += wrap(words(help), first: indent, rest: indent) + "\n"
      } else {
        let first = "  " + label + String(repeating: " ", count: labelWidth - label.count + 2)
        text += wrap(words(help), first: first, rest: indent) + "\n"
      }
    }
    return text
  }

  /// `text`'s paragraphs (separated by blank lines), each wrapped.
  static func paragraphs(_ text: String) -> String {
    text.components(separatedBy: "\n\n").map { wrap(words($0), first: "", rest: "") }
      .joined(separator: "\n\n")
  }

  static func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
  }

  /// `words` filled into lines of at most `width` columns: the first starting with `first`, the
  /// others with `rest`. A word longer than a line gets a line of its own.
  static func wrap(_ words: [String], first: String, rest: String) -> String {
    var lines: [String] = []
    var line = first
    var empty = true
    for word in words {
      if !empty, line.count + 1 + word.count > width {
        lines.append(line)
        line = rest
        empty = true
      }
      line += (empty ? "" : " ") + word
      empty = false
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
