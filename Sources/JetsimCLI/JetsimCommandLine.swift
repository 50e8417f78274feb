import Dispatch
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
      case .check(let options):
        let (text, passed) = try check(options)
        output.write(text)
        return passed ? .success : .failure
      case .sweep(let options):
        let text = try sweep(options)
        if !options.quiet { output.write(text) }
      case .merge(let shards, let out):
        let runs = try Sweep.merge(shards, into: out)
        output.write(
          "merged \(shards.count) shard folders: \(runs) runs; \(out)/sweep.csv and \(out)/sweep-summary.csv written\n"
        )
      case .importLSApp(let options):
        output.write(try importLSApp(options))
      case .plan(let options):
        output.write(try plan(options))
      case .compare(let options):
        let table = try compare(options)
        if !options.quiet { output.write(table) }
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
      folder: ReportFolder(destination: destination), scenario: scenario, html: !options.noHTML)
    let summary: RunSummary
    do {
      summary = try Simulator.run(scenario, observer: &writer)
    } catch {
      writer.discard()
      throw error
    }
    try writer.finish(summary)
    return RunReport.text(
      summary, device: scenario.device, folder: destination, html: !options.noHTML)
  }

  /// `jetsim compare`: runs every policy with every seed (in parallel), writes the comparison folder
  /// and returns the ranked table. Shows progress on standard error when it is a terminal.
  static func compare(_ options: CompareOptions) throws(JetsimError) -> String {
    let scenario = try ProfileLoader.scenario(at: options.scenario)
    let policies = options.policies ?? PolicyRegistry.names
    let seeds = options.seeds ?? [scenario.seed]
    let destination = options.out ?? "\(Defaults.reportsFolder)/\(scenario.name)-compare"
    let progress = Progress.onTerminal(label: "compare")
    var report: (@Sendable (Int, Int) -> Void)?
    if let progress { report = { done, total in progress.update(done, of: total) } }
    let comparison = try Comparison.run(
      scenario, policies: policies, seeds: seeds, jobs: options.jobs ?? Progress.cores,
      destination: destination,
      progress: report)
    progress?.finish()
    return CompareReport.text(
      comparison, device: scenario.device.name, rankBy: options.rankBy, folder: destination)
  }

  /// `jetsim check`: compares a fresh run with the golden folder, or re-records it with `--update`.
  static func check(_ options: CheckOptions) throws(JetsimError) -> (text: String, passed: Bool) {
    var scenario = try ProfileLoader.scenario(at: options.scenario)
    if let policy = options.policy { scenario.policy = policy }
    if let seed = options.seed { scenario.seed = seed }
    guard options.update else {
      let result = try GoldenCheck.check(scenario, against: options.expect, events: options.events)
      return (result.report(), result.passed)
    }
    let before = try? GoldenCheck.check(scenario, against: options.expect, events: options.events)
    let files = try GoldenCheck.update(scenario, in: options.expect, events: options.events)
    let written = files.filter(\.written).map(\.file)
    let unchanged = files.filter { !$0.written }.map(\.file)
    var text =
      written.isEmpty
      ? "\(options.expect): already up to date"
      : "\(options.expect): updated \(written.joined(separator: ", "))"
    if !unchanged.isEmpty, !written.isEmpty {
      text += "; unchanged: \(unchanged.joined(separator: ", "))"
    }
    text += "\n"
    if let before, !before.passed {
      text +=
        "  what changed: \(before.differences.count) \(before.differences.count == 1 ? "difference" : "differences"), the first: \(before.differences[0])\n"
    }
    return (text, true)
  }

  /// `jetsim sweep`: runs the sweep (or its shard) on every core and summarises it.
  static func sweep(_ options: SweepOptions) throws(JetsimError) -> String {
    let definition = try SweepDefinition.load(at: options.sweep)
    let folder = options.out ?? "\(Defaults.reportsFolder)/\(definition.name)"
    let jobs = options.jobs ?? Progress.cores
    let progress = Progress.onTerminal(label: "sweep")
    var report: (@Sendable (Int, Int) -> Void)?
    if let progress { report = { done, total in progress.update(done, of: total) } }
    let start = DispatchTime.now().uptimeNanoseconds
    let outcome = try Sweep.run(
      definition, into: folder, jobs: jobs, resume: options.resume, shard: options.shard,
      progress: report)
    progress?.finish()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return SweepReport.text(
      definition, outcome: outcome, shard: options.shard, folder: folder, jobs: jobs,
      seconds: seconds)
  }

  /// `jetsim plan`: bisects device memory and prints the answer with the measured curve.
  static func plan(_ options: PlanOptions) throws(JetsimError) -> String {
    var scenario = try ProfileLoader.scenario(at: options.scenario)
    if let policy = options.policy { scenario.policy = policy }
    guard let target = CapacityTarget.parse(options.target).target else { return "" }
    let progress = Progress.onTerminal(label: "plan")
    var report: (@Sendable (Int) -> Void)?
    if let progress { report = { probes in progress.note("\(probes) memory sizes tried") } }
    let seeds = (1...options.seeds).map { UInt64($0) }
    let plan = try Planner.plan(
      scenario, target: target, seeds: seeds, minKB: options.minKB, maxKB: options.maxKB,
      precisionKB: options.precisionKB, jobs: options.jobs ?? Progress.cores, progress: report)
    progress?.finish()
    return SweepReport.text(plan, scenario: scenario)
  }

  /// `jetsim import-lsapp`: converts one user's log into `DIR/<name>.json` and its trace, and with
  /// `--run` runs it.
  static func importLSApp(_ options: ImportOptions) throws(JetsimError) -> String {
    let base = try ProfileLoader.scenario(at: options.scenario)
    let (conversion, scenarioPath) = try LSAppImport.importLog(
      at: options.log, base: base, user: options.user, into: options.out)
    let span = Units.clock(conversion.actions.last?.timeMs ?? 0)
    var text =
      "converted user \(conversion.user): \(conversion.actions.count) actions over \(span); \(conversion.apps.count) apps"
    text +=
      " (\(conversion.matched.count) matched to profiles, \(conversion.unmatched.count) given the default profile"
    text +=
      conversion.unmatched.isEmpty
      ? ")\n"
      : ": \(conversion.unmatched.prefix(5).joined(separator: ", "))\(conversion.unmatched.count > 5 ? ", ..." : ""))\n"
    text += "  wrote \(scenarioPath) and its trace; run it with: jetsim run \(scenarioPath)\n"
    if options.run {
      text += try run(RunOptions(scenario: scenarioPath))
    }
    return text
  }

  /// `jetsim validate`: checks every file, reporting each; fails if any is wrong.
  static func validate(
    _ files: [String], output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> ExitCode {
    var worst = ExitCode.success
    for file in files {
      do {
        let kind = try InputValidator.validate(at: file)
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
    let indent = String(repeating: " ", count: width + 2)
    return PolicyRegistry.all.map { entry in
      let padding = String(repeating: " ", count: width - entry.name.count)
      let marker = entry.name == Defaults.policy ? " (default)" : ""
      let settings =
        entry.settings.isEmpty
        ? "" : "\n\(indent)settings: \(entry.settings.map(\.key).joined(separator: ", "))"
      return "\(entry.name)\(padding)  \(entry.summary)\(marker)\(settings)\n"
    }.joined()
  }
}
