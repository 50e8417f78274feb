import Jetsim

/// A parsed command line.
public enum Command: Equatable, Sendable {
  /// `jetsim run SCENARIO ...`
  case run(RunOptions)
  /// `jetsim compare SCENARIO ...`
  case compare(CompareOptions)
  /// `jetsim check SCENARIO --expect DIR ...`
  case check(CheckOptions)
  /// `jetsim sweep SWEEP ...`
  case sweep(SweepOptions)
  /// `jetsim merge SHARD... --out DIR`
  case merge(shards: [String], out: String)
  /// `jetsim plan SCENARIO --target ...`
  case plan(PlanOptions)
  /// `jetsim import-lsapp LOG --scenario BASE --out DIR ...`
  case importLSApp(ImportOptions)
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
  /// Skip `report.html`.
  public var noHTML = false

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

/// The options of `jetsim sweep`.
public struct SweepOptions: Equatable, Sendable {
  public var sweep: String
  public var out: String?
  public var jobs: Int?
  public var resume = false
  public var shard: ShardSpec?
  public var quiet = false

  public init(sweep: String) { self.sweep = sweep }
}

/// The options of `jetsim plan`.
public struct PlanOptions: Equatable, Sendable {
  public var scenario: String
  public var target: String
  public var seeds = 5
  public var minKB = 1_048_576
  public var maxKB = 16 * 1_048_576
  public var precisionKB = 64 * 1024
  public var policy: String?
  public var jobs: Int?

  public init(scenario: String, target: String) {
    self.scenario = scenario
    self.target = target
  }
}

/// The options of `jetsim import-lsapp`.
public struct ImportOptions: Equatable, Sendable {
  public var log: String
  public var scenario: String
  public var out: String
  public var user: String?
  public var run = false

  public init(log: String, scenario: String, out: String) {
    self.log = log
    self.scenario = scenario
    self.out = out
  }
}

/// The subcommands, their options and their help text.
enum Subcommand: String, CaseIterable {
  case run, compare, check, sweep, merge, plan, importLSApp = "import-lsapp", validate, policies,
    help

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
        Option(name: "--no-html", value: nil, help: "do not write report.html"),
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
    case .sweep:
      [
        Option(name: "--out", value: "DIR", help: "output folder (default: Reports/<sweep name>)"),
        Option(name: "--jobs", value: "N", help: "runs at once (default: one per core)"),
        Option(
          name: "--resume", value: nil,
          help: "finish an interrupted sweep: run only the missing runs"),
        Option(
          name: "--shard", value: "I/N",
          help: "run only shard I of N (combine shards with jetsim merge)"),
        Option(name: "--quiet", value: nil, help: "print nothing but errors"),
        Option(name: "--help", value: nil, help: "show this help"),
      ]
    case .merge:
      [
        Option(name: "--out", value: "DIR", help: "where to write the combined sweep"),
        Option(name: "--help", value: nil, help: "show this help"),
      ]
    case .plan:
      [
        Option(
          name: "--target", value: "METRIC>=VALUE",
          help: "what must hold on every seed, e.g. warm-resume-ratio>=0.9"),
        Option(name: "--seeds", value: "N", help: "seeds 1 to N (default: 5)"),
        Option(name: "--min", value: "SIZE", help: "smallest memory to try (default: 1GB)"),
        Option(name: "--max", value: "SIZE", help: "largest memory to try (default: 16GB)"),
        Option(name: "--precision", value: "SIZE", help: "how close the answer is (default: 64MB)"),
        Option(name: "--policy", value: "NAME", help: "eviction policy (default: the scenario's)"),
        Option(name: "--jobs", value: "N", help: "runs at once (default: one per core)"),
        Option(name: "--help", value: nil, help: "show this help"),
      ]
    case .importLSApp:
      [
        Option(
          name: "--scenario", value: "BASE",
          help: "the scenario whose device and app profiles to use"),
        Option(name: "--out", value: "DIR", help: "where to write the scenario and its trace"),
        Option(
          name: "--user", value: "ID", help: "the user to convert (default: the first in the log)"),
        Option(
          name: "--run", value: nil, help: "also run the converted scenario and write its reports"),
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
    case .sweep: "jetsim sweep SWEEP [--jobs N] [--out DIR] [--resume] [--shard I/N]"
    case .merge: "jetsim merge SHARD_DIR... --out DIR"
    case .plan:
      "jetsim plan SCENARIO --target METRIC>=VALUE [--seeds N] [--min SIZE] [--max SIZE] [--precision SIZE]"
    case .importLSApp: "jetsim import-lsapp LOG --scenario BASE --out DIR [--user ID] [--run]"
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
    case .sweep:
      "Run a sweep file's Cartesian product of scenarios on every core; write sweep.csv and sweep-summary.csv."
    case .merge:
      "Combine the folders of a sweep's shards into the files one machine would have written."
    case .plan:
      "Find the smallest device memory for which a target holds on every seed, by bisection."
    case .importLSApp:
      "Convert an app-usage log (LSApp shape) into a trace and scenario; replay it with --run."
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
    case .sweep:
      [
        "jetsim sweep Profiles/sweeps/light-user-memory.json",
        "jetsim sweep Profiles/sweeps/light-user-memory.json --resume",
        "jetsim sweep Profiles/sweeps/heavy-social-policies.json --shard 2/4 --out shards/2",
      ]
    case .merge:
      ["jetsim merge shards/1 shards/2 shards/3 shards/4 --out Reports/heavy-social-policies"]
    case .plan:
      [
        "jetsim plan Profiles/scenarios/light-user-2gb.json --target \"warm-resume-ratio>=0.9\" --seeds 10",
        "jetsim plan Profiles/scenarios/heavy-social-4gb.json --target \"kills-per-hour<=1\" --min 2GB --max 8GB",
      ]
    case .importLSApp:
      [
        "jetsim import-lsapp Profiles/traces/lsapp-sample.tsv --scenario Profiles/scenarios/daily-commute.json --out /tmp/lsapp --run"
      ]
    case .validate:
      ["jetsim validate Profiles/scenarios/*.json Profiles/devices/*.json Profiles/apps/*.json"]
    case .policies: ["jetsim policies"]
    case .help: ["jetsim help run"]
    }
  }
}
