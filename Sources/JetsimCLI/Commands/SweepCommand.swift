import Dispatch
import Jetsim

/// The options of `jetsim sweep`.
struct SweepOptions: Subcommand, Equatable {
  var sweep: String
  var out: String?
  var jobs: Int?
  var resume = false
  var shard: ShardSpec?
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension SweepOptions {
  static let out = OutFolder(name: "<sweep name>")
  static let resume = OptionSpec(
    "resume", help: "finish an interrupted sweep (only the missing runs); start it if there is none"
  )
  static let shard = OptionSpec(
    "shard", value: "I/N", help: "run only shard I of N (combine shards with jetsim merge)")

  static let spec = CommandSpec(
    name: "sweep",
    abstract: "Run a sweep file's Cartesian product of scenarios on every core.",
    discussion: """
      Writes the files under FILES into the output folder. Finished runs are journalled as they end, so an \
      interrupted sweep resumes where it stopped (--resume), and shards run on separate machines \
      combine with 'jetsim merge' into exactly the files one machine writes.
      """,
    arguments: [ArgumentSpec(name: "SWEEP", help: "the sweep file", completion: .file(["json"]))],
    options: [out.option, CommonOptions.jobs, resume, shard],
    examples: [
      "jetsim sweep Profiles/sweeps/light-user-memory.json",
      "jetsim sweep Profiles/sweeps/light-user-memory.json --resume",
      "jetsim sweep Profiles/sweeps/heavy-social-policies.json --shard 2/4 -o shards/2",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(sweep: parsed.first)
    out = parsed.value(Self.out.option)
    jobs = try parsed.jobs(CommonOptions.jobs)
    resume = parsed.has(Self.resume)
    shard = try parsed.value(Self.shard, expected: "I/N with 1 <= I <= N, such as 2/4") {
      ShardSpec($0)
    }
    printing = try OutputOptions(parsed)
  }

  /// What the folder held, when a person should know.
  static func note(_ start: Sweep.Start, folder: String) -> String? {
    switch start {
    case .fresh: return nil
    case .resumed(let done):
      return
        "jetsim: resuming the sweep in \(folder): \(done) \(done == 1 ? "run" : "runs") already done\n"
    case .restarted(let done, let finished) where done > 0:
      let runs = done.counted("run")
      return finished
        ? "jetsim: \(folder) held a finished sweep (\(runs)); starting over discards it (--resume keeps it)\n"
        : "jetsim: \(folder) held an interrupted sweep (\(runs) done); starting over discards them (--resume keeps them)\n"
    case .restarted: return nil
    case .nothingToResume:
      return "jetsim: nothing to resume in \(folder); starting the sweep\n"
    }
  }

  /// Runs the sweep (or its shard) on every core and summarises it.
  func execute() throws(JetsimError) -> CommandResult {
    let definition = try SweepDefinition.load(at: sweep)
    let folder = Self.out.folder(out, name: definition.name)
    let jobs = jobs ?? Progress.cores
    let progress = printing.quiet ? nil : Progress.onTerminal(label: "sweep")
    let start = DispatchTime.now().uptimeNanoseconds
    let outcome: Sweep.Outcome
    do {
      outcome = try Sweep.run(
        definition, into: folder, jobs: jobs, resume: resume, shard: shard,
        started: { start in
          // Said at once, on standard error, even with --quiet: it decides what a long sweep keeps.
          if let note = Self.note(start, folder: folder) { Progress.say(note) }
        }, progress: progress?.runs)
    } catch .invalidValue(let path, let key, let value, let expected)
      where value == Sweep.differentSweep
    {
      // The folder holds another sweep or shard: starting over is the same command without --resume.
      throw .invalidValue(
        path: path, keyPath: key, value: value, expected: expected + " (leave out --resume)")
    }
    progress?.finish()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    var result = CommandResult(wrote: [folder])
    guard !printing.quiet else { return result }
    result.output =
      printing.format == .json
      ? SweepReport.json(definition, outcome: outcome, shard: shard, folder: folder)
      : SweepReport.text(
        definition, outcome: outcome, shard: shard, folder: folder, jobs: jobs, seconds: seconds)
    return result
  }
}
