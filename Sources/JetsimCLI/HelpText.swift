import Jetsim

/// The text of `jetsim --help` and `jetsim SUBCOMMAND --help`.
enum HelpText {
  static func text(for subcommand: Subcommand?) -> String {
    guard let subcommand else { return overview }
    var text = "\(subcommand.abstract)\n\nUSAGE: \(subcommand.usage)\n"
    if subcommand == .run {
      text += """

        Loads SCENARIO (a JSON file: see docs/profiles.md), runs it on its device with its apps and
        workload under the eviction policy, and writes events.csv, kills.csv, apps.csv and summary.csv
        (see docs/reports.md) into the report folder, atomically: a failed run leaves no partial
        report. The same scenario and seed always give byte-identical reports.

        """
    }
    if subcommand == .check {
      text += """

        Runs SCENARIO in memory and compares its kills.csv (and with --events its events.csv) with the
        golden files in DIR, row by row. Exit 0 when identical; otherwise exit 1 and print the first
        differences in words, and whether the scenario or its profiles changed since the golden was
        recorded (from DIR/run.json) or the behaviour did. --update re-records the golden files that
        changed (kills.csv, run.json, events.csv with --events, and any other report file in DIR).

        """
    }
    if subcommand == .validate {
      text += """

        Each FILE is checked as what it is: a trace if it ends in .csv, otherwise a scenario, device
        or app profile (told apart by its keys). Every error names the file, the key or line, and
        the fix.

        """
    }
    let options = subcommand.options
    let width = options.map { $0.name.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0
    text += "\nOPTIONS:\n"
    for option in options {
      let label = option.name + (option.value.map { " \($0)" } ?? "")
      text += "  \(label)\(String(repeating: " ", count: width - label.count))  \(option.help)\n"
    }
    text += "\nEXAMPLES:\n" + subcommand.examples.map { "  \($0)\n" }.joined()
    return text
  }

  static let overview = """
    jetsim: a memory-pressure and app-termination simulator for iOS-like devices.

    USAGE: jetsim SUBCOMMAND [OPTIONS]

    SUBCOMMANDS:
    \(Subcommand.allCases.map { "  \($0.rawValue.padded(to: 10))\($0.abstract)" }.joined(separator: "\n"))

    OPTIONS:
      --help    show help (also 'jetsim SUBCOMMAND --help')
      --version show the version

    EXAMPLES:
      jetsim run Profiles/scenarios/daily-commute.json
      jetsim run Profiles/scenarios/worked-example.json --out /tmp/example
      jetsim check Profiles/scenarios/daily-commute.json --expect Reports/golden/daily-commute
      jetsim validate Profiles/scenarios/lifecycle-tour.json

    EXIT CODES: 0 success, 1 failure (or differences found by check), 64 bad usage, 65 bad input data, 66 missing input file,
    73 report folder cannot be written.

    """
}

extension String {
  func padded(to width: Int) -> String {
    self + String(repeating: " ", count: max(1, width - count))
  }
}
