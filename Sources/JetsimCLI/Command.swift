import Jetsim

/// A parsed command line.
public enum Command: Equatable, Sendable {
  /// `jetsim run SCENARIO ...`
  case run(RunOptions)
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

/// The subcommands, their options and their help text.
enum Subcommand: String, CaseIterable {
  case run, validate, policies, help

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
    case .validate, .policies, .help:
      [Option(name: "--help", value: nil, help: "show this help")]
    }
  }

  var usage: String {
    switch self {
    case .run:
      "jetsim run SCENARIO [--policy NAME] [--seed N] [--out DIR] [--trace FILE] [--duration TIME] [--quiet]"
    case .validate: "jetsim validate FILE..."
    case .policies: "jetsim policies"
    case .help: "jetsim help [SUBCOMMAND]"
    }
  }

  var abstract: String {
    switch self {
    case .run: "Run a scenario and write its reports (events, kills, apps, summary CSVs)."
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
    case .validate:
      ["jetsim validate Profiles/scenarios/*.json Profiles/devices/*.json Profiles/apps/*.json"]
    case .policies: ["jetsim policies"]
    case .help: ["jetsim help run"]
    }
  }
}
