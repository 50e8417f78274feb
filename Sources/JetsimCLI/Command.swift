import Jetsim

/// A parsed command line.
public enum Command: Equatable, Sendable {
  /// `jetsim run SCENARIO ...`
  case run(RunOptions)
  /// `jetsim compare SCENARIO ...`
  case compare(CompareOptions)
  /// `jetsim validate FILE...`
  case validate([String])
  /// `jetsim policies`
  case policies
  /// `jetsim --help`, `jetsim help [SUBCOMMAND]`, `jetsim SUBCOMMAND --help`.
  case help(String?)
  /// `jetsim --version`
  case version
}

/// The options of `jetsim run`.
public struct RunOptions: Equatable, Sendable {
  public var scenario: String
  public var policy: String?
  public var seed: UInt64?
  public var out: String?
  public var trace: String?
  public var durationMs: Int?
  public var quiet = false

  public init(scenario: String) { self.scenario = scenario }
}

/// The options of `jetsim compare`.
public struct CompareOptions: Equatable, Sendable {
  public var scenario: String
  /// The policies to compare; nil for every built-in one.
  public var policies: [String]?
  /// The seeds; nil for the scenario's own.
  public var seeds: [UInt64]?
  public var out: String?
  /// Threads; nil for one per core.
  public var jobs: Int?
  /// The metric to rank by.
  public var rankBy = "warm_resume_ratio"
  public var quiet = false

  public init(scenario: String) { self.scenario = scenario }
}

/// The subcommands, their options and their help text.
enum Subcommand: String, CaseIterable {
  case run, compare, validate, policies, help

  struct Option {
    var name: String
    var value: String?
    var help: String
  }

  var options: [Option] {
    switch self {
    case .run:
      [
        Option(
          name: "--policy", value: "NAME",
          help: "eviction policy (default: the scenario's, else largest-first)"),
        Option(
          name: "--seed", value: "N",
          help: "seed of every random stream (default: the scenario's, else 1)"),
        Option(
          name: "--out", value: "DIR", help: "report folder (default: Reports/<scenario name>)"),
        Option(
          name: "--trace", value: "FILE",
          help: "replay this trace CSV instead of the scenario's workload"),
        Option(
          name: "--duration", value: "TIME",
          help: "end the run at this time, e.g. 30m (default: the scenario's)"),
        Option(name: "--quiet", value: nil, help: "print nothing but errors"),
        Option(name: "--help", value: nil, help: "show this help"),
      ]
    case .compare:
      [
        Option(
          name: "--policies", value: "A,B,...",
          help: "policies to compare (default: every built-in policy)"),
        Option(
          name: "--seeds", value: "LIST", help: "seeds: 7, 1..20 or 1,4,9 (default: the scenario's)"
        ),
        Option(
          name: "--out", value: "DIR",
          help: "output folder (default: Reports/<scenario name>-compare)"),
        Option(name: "--jobs", value: "N", help: "runs at once (default: one per core)"),
        Option(
          name: "--rank-by", value: "METRIC",
          help: "summary column to rank by (default: warm_resume_ratio)"),
        Option(name: "--quiet", value: nil, help: "print nothing but errors"),
        Option(name: "--help", value: nil, help: "show this help"),
      ]
    case .validate, .policies, .help:
      [Option(name: "--help", value: nil, help: "show this help")]
    }
  }

  var usage: String {
    switch self {
    case .run:
      "jetsim run SCENARIO [--policy NAME] [--seed N] [--out DIR] [--trace FILE] [--duration TIME] [--quiet]"
    case .compare:
      "jetsim compare SCENARIO [--policies A,B,...] [--seeds LIST] [--out DIR] [--jobs N] [--rank-by METRIC]"
    case .validate: "jetsim validate FILE..."
    case .policies: "jetsim policies"
    case .help: "jetsim help [SUBCOMMAND]"
    }
  }

  var abstract: String {
    switch self {
    case .run: "Run a scenario and write its reports (events, kills, apps, summary CSVs)."
    case .compare: "Run one scenario under several policies and seeds, and rank the policies."
    case .validate: "Check scenario, device, app and trace files without running them."
    case .policies: "List the built-in eviction policies."
    case .help: "Show help for jetsim or one of its subcommands."
    }
  }

  var examples: [String] {
    switch self {
    case .run:
      [
        "jetsim run Profiles/scenarios/daily-commute.json",
        "jetsim run Profiles/scenarios/worked-example.json --out /tmp/example --seed 7",
        "jetsim run Profiles/scenarios/daily-commute.json --trace Profiles/traces/evening.csv",
      ]
    case .compare:
      [
        "jetsim compare Profiles/scenarios/daily-commute.json",
        "jetsim compare Profiles/scenarios/evening-social.json --policies largest-first,jetsam,lmkd --seeds 1..20",
      ]
    case .validate:
      ["jetsim validate Profiles/scenarios/*.json Profiles/devices/*.json Profiles/apps/*.json"]
    case .policies: ["jetsim policies"]
    case .help: ["jetsim help run"]
    }
  }
}
