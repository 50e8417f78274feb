import Jetsim

/// The options of `jetsim merge`.
struct MergeOptions: Subcommand, Equatable {
  var shards: [String]
  var out: String
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension MergeOptions {
  static let out = CommonOptions.out.helped(
    "where to write the combined sweep: a folder of its own, not a shard's"
  ).required()

  static let spec = CommandSpec(
    name: "merge",
    abstract:
      "Combine the folders of a sweep's shards into the files one machine would have written.",
    arguments: [
      ArgumentSpec(
        name: "SHARD_DIR", help: "a shard's output folder, each once", count: .oneOrMore,
        completion: .directory)
    ],
    options: [out],
    examples: ["jetsim merge shards/1 shards/2 shards/3 shards/4 -o Reports/heavy-social-policies"])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(shards: parsed.positionals, out: parsed.required(Self.out))
    // A folder given twice is a slip (another shard's folder was meant): refused, not merged.
    try parsed.distinctPaths(each: "each shard's folder")
    // Merged into one of its shards, the shard's folder would become the whole sweep, and a
    // resumed shard would no longer find its own runs there: refused.
    let output = FileSystem.canonical(out)
    if let position = shards.firstIndex(where: { FileSystem.canonical($0) == output }) {
      throw UsageError(
        "--out '\(out.excerpt(limit: 60))' is SHARD_DIR \(position + 1); write the combined sweep to a folder of its own",
        help: "merge")
    }
    printing = try OutputOptions(parsed)
  }

  func execute() throws(JetsimError) -> CommandResult {
    let runs = try Sweep.merge(shards, into: out)
    let reports = [ReportFile.sweep, .sweepSummary].map { "\(out)/\($0.name)" }
    var result = CommandResult(wrote: reports)
    guard !printing.quiet else { return result }
    if printing.format == .json {
      result.output = JSONText.render(
        .fields([
          ("shards", .list(shards.map { .string($0) })), ("runs", .integer(runs)),
          ("reports", .list(reports.map { .string($0) })),
        ]))
      return result
    }
    result.output =
      "merged \(shards.count.counted("shard folder")): \(runs.counted("run")); \(reports[0]) and \(reports[1]) written\n"
    return result
  }
}
