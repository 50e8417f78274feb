import Jetsim

/// The options of `jetsim replay`.
struct ReplayOptions: Subcommand, Equatable {
  var reports: [String]
  /// The policies; nil for every built-in one.
  var policies: [PolicyName]?
  var out = ReplayOptions.out.folder(nil, name: "replay")
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension ReplayOptions {
  static let policies = CommonOptions.policies(to: "replay")
  static let out = OutFolder(
    "where to write replay.csv, replay-summary.csv and replay.html", name: "replay")

  static let spec = CommandSpec(
    name: "replay",
    abstract: "Replay the kills of real JetsamEvent reports under each policy and score them.",
    discussion: """
      For each REPORT, starts from the device's state just before its first kill (as \
      import-jetsam builds it) and asks each policy for victims, one at a time, until they free \
      what the kernel's pressure kills freed (vm-pageshortage, proc-thrashing, fc-thrashing, \
      vm-compressor-*); then compares them with the kernel's victims in kill order. Kills for \
      other reasons (per-process-limit, vnode-limit, highwater) are listed, not scored. Prints \
      each policy's agreement and writes the files under FILES. A report given twice (two \
      patterns that overlap) is refused: it would be scored twice. See docs/validation.md.
      """,
    arguments: [.jetsamReports],
    options: [policies, out.option],
    examples: [
      "jetsim replay Profiles/jetsam-reports/*.crash Profiles/jetsam-reports/held-out/*.crash",
      "jetsim replay report.ips --policies jetsam,largest-first -o /tmp/replay",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(reports: parsed.positionals)
    // A report given twice (two patterns that overlap) would be scored twice: refused.
    try parsed.distinctPaths(each: "each report")
    policies = try parsed.policies(Self.policies)
    if let out = parsed.value(Self.out.option) { self.out = out }
    printing = try OutputOptions(parsed)
  }

  /// Replays every report, writes the replay folder and prints the agreement.
  func execute() throws(JetsimError) -> CommandResult {
    let replay = try ReplayReport.replay(
      reportsAt: reports, policies: policies ?? PolicyName.all)
    try replay.write(to: out)
    var errors = ""
    for report in replay.replays {
      for warning in report.warnings {
        errors += "jetsim: warning: \(report.report): \(warning)\n"
      }
    }
    let files = ReportFile.written(by: Self.spec.name).map(\.name)
    var result = CommandResult(errors: errors, wrote: files.map { "\(out)/\($0)" })
    guard !printing.quiet else { return result }
    switch printing.format {
    case .text:
      let scored = replay.replays.filter { $0.notScoredBecause == nil }
      let kills = scored.reduce(0) { $0 + $1.realVictims.count }
      var text =
        "replayed \(replay.replays.count.counted("report")) under \(replay.policies.count.counted("policy", "policies")): \(scored.count) scored (\(kills.counted("pressure kill")))"
      let unscored = replay.replays.filter { $0.notScoredBecause != nil }
      text += unscored.isEmpty ? "\n" : ", \(unscored.count) listed, not scored:\n"
      for report in unscored {
        text += "  \(report.report): \(report.notScoredBecause ?? "")\n"
      }
      let lines = (replay.bandLines + replay.levelLines).map { "  \($0)\n" }.joined()
      result.output =
        text + replay.table + lines + "  wrote \(out)/\(files.joined(separator: ", "))\n"
    case .json: result.output = replay.json
    }
    return result
  }
}
