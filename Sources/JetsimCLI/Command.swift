import Jetsim

/// A parsed command line.
public enum Command: Equatable, Sendable {
  /// `jetsim run SCENARIO ...`
  case run(RunOptions)
  /// `jetsim compare SCENARIO ...`
  case compare(CompareOptions)
  /// `jetsim check SCENARIO --expect DIR ...`
  case check(CheckOptions)
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

/// The options of `jetsim check`.
public struct CheckOptions: Equatable, Sendable {
  public var scenario: String
  /// The golden folder.
  public var expect: String
  /// Compare the whole event log, not only the kills.
  public var events = false
  /// Re-record the golden files instead of comparing.
  public var update = false
  public var policy: String?
  public var seed: UInt64?

  public init(scenario: String, expect: String) {
    self.scenario = scenario
    self.expect = expect
  }
}

/// The subcommands, their options and their help text.
enum Subcommand: String, CaseIterable {
  case run, compare, check, validate, policies, help

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
    case .check:
      [
        Option(
          name: "--expect", value: "DIR",
          help: "the golden folder (kills.csv, and events.csv with --events)"),
        Option(name: "--events", value: nil, help: "compare the whole event log too"),
        Option(
          name: "--update", value: nil,
          help: "re-record the golden files that changed, and say which"),
        Option(name: "--policy", value: "NAME", help: "eviction policy (default: the scenario's)"),
        Option(name: "--seed", value: "N", help: "seed (default: the scenario's)"),
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
    case .check:
      "jetsim check SCENARIO --expect DIR [--events] [--update] [--policy NAME] [--seed N]"
    case .validate: "jetsim validate FILE..."
    case .policies: "jetsim policies"
    case .help: "jetsim help [SUBCOMMAND]"
    }
  }

  var abstract: String {
    switch self {
    case .run: "Run a scenario and write its reports (events, kills, apps, summary CSVs)."
    case .compare: "Run one scenario under several policies and seeds, and rank the policies."
    case .check:
      "Re-run a scenario and compare its kill order (or whole event log) with golden reports."
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
    case .check:
      [
        "jetsim check Profiles/scenarios/daily-commute.json --expect Reports/golden/daily-commute",
        "jetsim check Profiles/scenarios/daily-commute.json --expect Reports/golden/daily-commute --events",
        "jetsim check Profiles/scenarios/daily-commute.json --expect Reports/golden/daily-commute --update",
      ]
    case .validate:
      ["jetsim validate Profiles/scenarios/*.json Profiles/devices/*.json Profiles/apps/*.json"]
    case .policies: ["jetsim policies"]
    case .help: ["jetsim help run"]
    }
  }
}
