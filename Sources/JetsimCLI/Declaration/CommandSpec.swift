import Jetsim

/// How a shell completes a value or an argument.
enum Completion: Equatable, Sendable {
  /// Nothing to suggest (a number, a name).
  case none
  /// A file, preferably with one of these extensions.
  case file([String])
  /// A folder.
  case directory
  /// One of a fixed list of words.
  case values([String])
}

/// An option of a subcommand, declared once: parsing, the usage line, `--help` and the completion
/// scripts are all derived from it.
struct OptionSpec: Equatable, Sendable {
  /// The long name without dashes: `out` for `--out`.
  var name: String
  /// The one-letter form, if any: `o` for `-o`.
  var short: Character?
  /// The value's name in usage and help (`DIR`), or nil for a flag that takes no value.
  var valueName: String?
  /// One line of help.
  var help: String
  var completion: Completion = .none
  /// Whether the subcommand cannot run without it: its usage line shows it without brackets, and
  /// parsing rejects a command line that leaves it out (see `required(_:)`).
  var isRequired = false
  /// What the error for a missing required option adds after its name: `the folder of golden
  /// reports` in "'check' needs --expect DIR, the folder of golden reports".
  var missingNote: String?

  /// `--out`.
  var flag: String { "--" + name }

  /// `--out DIR`, as a command line writes it.
  var written: String { flag + (valueName.map { " \($0)" } ?? "") }

  /// `--app ID` when required, `[--out DIR]` when not, as the usage line writes it.
  var usage: String { isRequired ? written : "[\(written)]" }

  /// `-o, --out DIR` or `--out DIR`, as the help lists it.
  var label: String {
    (short.map { "-\($0), " } ?? "") + flag + (valueName.map { " \($0)" } ?? "")
  }

  init(
    _ name: String, short: Character? = nil, value valueName: String? = nil, help: String,
    completion: Completion = .none
  ) {
    self.name = name
    self.short = short
    self.valueName = valueName
    self.help = help
    self.completion = completion
  }

  /// The same option, required; `note` says in the error for its absence what it is.
  func required(_ note: String? = nil) -> OptionSpec {
    var option = self
    option.isRequired = true
    option.missingNote = note
    return option
  }
}

/// A positional argument of a subcommand.
struct ArgumentSpec: Equatable, Sendable {
  /// How many times the argument appears.
  enum Count: Equatable, Sendable { case one, optional, oneOrMore }

  /// Its name in usage and help: `SCENARIO`.
  var name: String
  var help: String
  var count: Count = .one
  var completion: Completion = .file([])

  /// `SCENARIO`, `[SUBCOMMAND]` or `FILE...`, as the usage line writes it.
  var usage: String {
    switch count {
    case .one: name
    case .optional: "[\(name)]"
    case .oneOrMore: "\(name)..."
    }
  }
}

extension ArgumentSpec {
  /// A scenario file: what run, compare, check, plan and what-if take.
  static let scenario = ArgumentSpec(
    name: "SCENARIO", help: "the scenario file", completion: .file(["json"]))
  /// JetsamEvent reports: what import-jetsam and replay take.
  static let jetsamReports = ArgumentSpec(
    name: "REPORT", help: "JetsamEvent reports", count: .oneOrMore,
    completion: .file(["ips", "synced", "crash"]))
}

/// A subcommand, declared once: its name, what it does, its arguments and options, and examples.
struct CommandSpec: Sendable {
  var name: String
  /// One line on what it does.
  var abstract: String
  /// A paragraph or two more, for `--help` (may be empty).
  var discussion: String = ""
  var arguments: [ArgumentSpec] = []
  /// Its own options; `--format` (unless `takesFormat` is false), `--quiet` and `--help`, which
  /// every subcommand takes, are added.
  var options: [OptionSpec] = []
  /// Whether it prints text or JSON as `--format` asks: every subcommand but `help`.
  var takesFormat = true
  var examples: [String]

  /// Every option it takes, in help order: its own, then `--format`, `--quiet` and `--help`.
  var allOptions: [OptionSpec] {
    let format = takesFormat ? [CommonOptions.format] : []
    return options + format + [CommonOptions.quiet, CommonOptions.help]
  }

  /// The option written `text` (`--out` or `-o`), if it takes one.
  func option(_ text: String) -> OptionSpec? {
    allOptions.first { $0.flag == text || ($0.short.map { "-\($0)" } == text) }
  }
}

/// Options several subcommands share, declared once so they mean the same everywhere.
enum CommonOptions {
  static let quiet = OptionSpec("quiet", short: "q", help: "print nothing but errors")
  static let help = OptionSpec("help", short: "h", help: "show this help")
  static let out = OptionSpec(
    "out", short: "o", value: "DIR", help: "output folder", completion: .directory)
  static let jobs = OptionSpec(
    "jobs", short: "j", value: "N", help: "runs at once (default: one per core)")
  static let policy = OptionSpec(
    "policy", value: "NAME", help: "eviction policy (default: the scenario's)",
    completion: .values(PolicyRegistry.names))
  static let policies = policies(to: nil)
  static let seed = OptionSpec(
    "seed", value: "N", help: "seed of every random stream (default: the scenario's, else 1)")
  static let seeds = seeds()
  /// Seeds of a scenario's runs, by default those of `CompareOptions.defaultSeeds` (compare,
  /// what-if).
  static let scenarioSeeds = seeds(default: scenarioSeedsDefault)
  /// What `scenarioSeeds` are when not given, in words.
  static let scenarioSeedsDefault = "10 with a user model, else the scenario's"
  static let format = OptionSpec(
    "format", value: "FORMAT", help: "what to print: text (default) or json, for scripts and CI",
    completion: .values(OutputFormat.allCases.map(\.rawValue)))

  /// `--policies`, for a subcommand that does `verb` with each policy ("compare", "replay").
  static func policies(to verb: String?) -> OptionSpec {
    OptionSpec(
      "policies", value: "A,B,...",
      help: "policies\(verb.map { " to \($0)" } ?? "") (default: every built-in policy)",
      completion: .values(PolicyRegistry.names))
  }

  /// `--seeds`, written in `SeedList`'s forms: `what` they are for, and what they are by default.
  static func seeds(_ what: String = "seeds", default defaultSeeds: String? = nil) -> OptionSpec {
    OptionSpec(
      "seeds", value: "SEEDS",
      help: "\(what): N (seeds 1 to N), A..B or A,B,C"
        + (defaultSeeds.map { " (default: \($0))" } ?? ""))
  }

  /// `--devices`: device profiles to `verb` (`plan for`, `run on`), comma-separated, and what
  /// comes of each when that needs saying (`one plan each`).
  static func devices(to verb: String, each: String? = nil) -> OptionSpec {
    OptionSpec(
      "devices", value: "FILES",
      help:
        "device profiles to \(verb), comma-separated\(each.map { ", \($0)" } ?? "") (default: the scenario's device)",
      completion: .file(["json"]))
  }
}
