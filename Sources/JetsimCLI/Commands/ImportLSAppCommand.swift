import Jetsim

/// The options of `jetsim import-lsapp`.
struct ImportOptions: Subcommand, Equatable {
  var log: String
  var scenario: String
  var out: String
  var user: String?
  var run = false
  /// `--quiet` and `--format`.
  var printing = OutputOptions()

  init(log: String, scenario: String, out: String) {
    self.log = log
    self.scenario = scenario
    self.out = out
  }
}

extension ImportOptions {
  static let scenario = OptionSpec(
    "scenario", value: "BASE", help: "the scenario whose device and app profiles to use",
    completion: .file(["json"])
  ).required()
  static let out = CommonOptions.out.helped("where to write the scenario and its trace").required()
  static let user = OptionSpec(
    "user", value: "ID", help: "the user to convert (default: the first in the log)")
  static let run = OptionSpec(
    "run",
    help: "also run the converted scenario; its reports go where jetsim run puts them"
      + " (Reports/NAME)")

  static let spec = CommandSpec(
    name: "import-lsapp",
    abstract:
      "Convert an app-usage log (LSApp shape) into a trace and scenario; replay it with --run.",
    arguments: [
      ArgumentSpec(
        name: "LOG", help: "the app-usage log (TSV or CSV)", completion: .file(["tsv", "csv"]))
    ],
    options: [scenario, out, user, run],
    examples: [
      "jetsim import-lsapp Profiles/traces/lsapp-sample.tsv --scenario base.json -o /tmp/lsapp",
      "jetsim import-lsapp log.tsv --scenario Profiles/scenarios/daily-commute.json -o out --run",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(
      log: parsed.first, scenario: parsed.required(Self.scenario), out: parsed.required(Self.out))
    user = parsed.value(Self.user)
    run = parsed.has(Self.run)
    printing = try OutputOptions(parsed)
  }

  /// Converts one user's log into `DIR/<name>.json` and its trace, and with `--run` runs it.
  func execute() throws(JetsimError) -> CommandResult {
    let base = try ProfileLoader.scenario(at: scenario)
    let existed = FileSystem.entry(at: out) != .none
    let (conversion, scenarioPath, tracePath) = try LSAppImport.importLog(
      at: log, base: base, user: user, into: out)
    var text = ""
    let span = Units.clock(conversion.actions.last?.timeMs ?? 0)
    text +=
      "converted user \(conversion.user): \(conversion.actions.count.counted("action")) over \(span); \(conversion.apps.count.counted("app"))"
    text +=
      " (\(conversion.matched.count) matched to profiles, \(conversion.unmatched.count) given the default profile"
    text +=
      conversion.unmatched.isEmpty
      ? ")\n"
      : ": \(conversion.unmatched.prefix(5).joined(separator: ", "))\(conversion.unmatched.count > 5 ? ", ..." : ""))\n"
    text += "  wrote \(scenarioPath) and its trace; run it with: jetsim run \(scenarioPath)\n"
    var ranJSON: JSONValue = .null
    var result = CommandResult(wrote: [scenarioPath, tracePath])
    if run {
      let simulated: (RunSummary, Scenario, folder: String)
      do {
        simulated = try RunOptions(scenario: scenarioPath).simulate()
      } catch {
        // The run failed: the command did not do what was asked, so the import goes too.
        if !existed { try? FileSystem.removeTree(out) }
        guard case .outputNotWritable = error else { throw error }
        // The run's folder is the scenario's Reports/NAME, which --out does not choose.
        return CommandResult(
          errors:
            ErrorMessage.line(for: error, flag: nil)
            + "; --run writes the run there (Reports/ and the scenario's name): to run it into another folder, import without --run, then: jetsim run \(scenarioPath) --out DIR\n",
          code: .cannotCreate)
      }
      let (summary, scenario, folder) = simulated
      text += RunReport.text(summary, device: scenario.device, folder: folder, html: true)
      ranJSON = RunReport.json(summary, folder: folder)
      result.wrote.append(folder)
    }
    guard !printing.quiet else { return result }
    guard printing.format == .json else {
      result.output = text
      return result
    }
    result.output = JSONText.render(
      .fields([
        ("user", .string(conversion.user)), ("actions", .integer(conversion.actions.count)),
        ("span_ms", .integer(conversion.actions.last?.timeMs ?? 0)),
        ("apps", .integer(conversion.apps.count)),
        ("matched", .list(conversion.matched.map { .string($0) })),
        ("unmatched", .list(conversion.unmatched.map { .string($0) })),
        ("scenario", .string(scenarioPath)), ("run", ranJSON),
      ]))
    return result
  }
}
