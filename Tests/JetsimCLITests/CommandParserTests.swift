import Jetsim
import JetsimTestSupport
import Testing

@testable import JetsimCLI

@Suite struct CommandParserTests {
  @Test func runWithEveryOption() throws {
    let command = try CommandParser.parse([
      "run", "s.json", "--policy", "largest-first", "--seed=7", "--out", "o", "--trace", "t.csv",
      "--duration", "1h30m",
      "--quiet",
    ])
    var expected = RunOptions(scenario: "s.json")
    expected.overrides.policy = .largestFirst
    expected.overrides.seed = 7
    expected.out = "o"
    expected.trace = "t.csv"
    expected.durationMs = 5_400_000
    expected.printing.quiet = true
    #expect(command == .subcommand(expected))
  }

  @Test func helpAndVersion() throws {
    #expect(try CommandParser.parse([]) == .help(nil))
    #expect(try CommandParser.parse(["--help"]) == .help(nil))
    #expect(try CommandParser.parse(["run", "--help"]) == .help("run"))
    #expect(try CommandParser.parse(["run", "-h"]) == .help("run"))
    #expect(try CommandParser.parse(["what-if", "--help"]) == .help("what-if"))
    #expect(try CommandParser.parse(["help", "validate"]) == .help("validate"))
    #expect(try CommandParser.parse(["--version"]) == .version)
    #expect(try CommandParser.parse(["policies"]) == .subcommand(PoliciesOptions()))
    #expect(
      try CommandParser.parse(["validate", "a", "b"])
        == .subcommand(ValidateOptions(files: ["a", "b"])))
    #expect(
      try CommandParser.parse(["--generate-completion-script", "zsh"]) == .completionScript("zsh"))
  }

  @Test func aFileNamedLikeAFlagAfterTheDoubleDash() throws {
    #expect(
      try CommandParser.parse(["run", "--", "--odd.json"])
        == .subcommand(RunOptions(scenario: "--odd.json")))
  }

  @Test(arguments: [
    (["rnu", "s.json"], "unknown subcommand 'rnu'; did you mean 'run'?"),
    (
      ["run", "s.json", "--polcy", "lru"],
      "unknown option '--polcy' for 'run'; did you mean '--policy'?"
    ),
    // A singular for a plural is suggested as a plural for a singular is.
    (
      ["compare", "s.json", "--policy", "lru"],
      "unknown option '--policy' for 'compare'; did you mean '--policies'?"
    ),
    (
      ["run", "s.json", "--policies", "lru"],
      "unknown option '--policies' for 'run'; did you mean '--policy'?"
    ),
    (["run"], "'run' needs a SCENARIO file"),
    (["run", "a.json", "b.json"], "'run' takes one SCENARIO, got 2"),
    (
      ["run", "s.json", "--seed", "-3"],
      "--seed '-3' is not a whole number from 0 to 18446744073709551615"
    ),
    (["run", "s.json", "--seed"], "option '--seed' needs a value (N)"),
    (["run", "s.json", "--quiet=yes"], "option '--quiet' takes no value"),
    (["run", "s.json", "--out", "a", "--out", "b"], "option '--out' is given twice"),
    (["validate"], "'validate' needs at least one FILE"),
    (["policies", "x"], "'policies' takes no arguments"),
    (
      ["what-if", "s.json", "--resident", "300MB"],
      "'what-if' needs --app ID, the app whose memory changes"
    ),
    (["what-if", "s.json"], "'what-if' needs --app ID and --resident SIZES"),
    (["import-lsapp", "log.tsv"], "'import-lsapp' needs --scenario BASE and --out DIR"),
    (["import-lsapp", "log.tsv", "--out", "o"], "'import-lsapp' needs --scenario BASE"),
    (
      ["plan", "s.json"],
      "'plan' needs --target METRIC>=VALUE, such as --target \"warm-resume-ratio>=0.9\""
    ),
    (["merge", "shards/1"], "'merge' needs --out DIR"),
  ])
  func badUsage(arguments: [String], message: String) {
    #expect(throws: UsageError.self) { try CommandParser.parse(arguments) }
    do {
      _ = try CommandParser.parse(arguments)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func compareWithEveryOption() throws {
    let command = try CommandParser.parse([
      "compare", "s.json", "--policies", "lru,jetsam", "--seeds", "1..3,7", "--out", "o", "--jobs",
      "2", "--rank-by",
      "kills", "--quiet",
    ])
    var expected = CompareOptions(scenario: "s.json")
    expected.policies = [.lru, .jetsam]
    expected.seeds = [1, 2, 3, 7]
    expected.out = "o"
    expected.jobs = 2
    expected.rankBy = "kills"
    expected.printing.quiet = true
    #expect(command == .subcommand(expected))
  }

  @Test(arguments: [
    (["compare", "s.json", "--policies", "lru,lmdk"], "did you mean 'lmkd'?"),
    (["compare", "s.json", "--policies", "lru,lru"], "--policies names a policy twice"),
    (["compare", "s.json", "--seeds", "5..1"], "is an empty range"),
    (
      ["compare", "s.json", "--seeds", "1-5"],
      "is not seeds such as 10 (seeds 1 to 10), 1..20 or 1,4,9"
    ),
    (["compare", "s.json", "--seeds", "1,1"], "repeats a seed"),
    (
      ["check", "s.json", "--expect", "g", "--tolerance", "five"],
      "--tolerance 'five' is not a share from 0% to 100%, such as 5%, or a size such as 1MB"
    ),
    (
      ["check", "s.json", "--expect", "g", "--tolerance", "500%"],
      "--tolerance '500%' is not a share from 0% to 100%"
    ),
    (["run", "s.json", "--duration", "0s"], "--duration '0s' is zero; it must be more than that"),
    (["run", "s.json", "--out", ""], "option '--out' is given an empty value; it needs DIR"),
    (["compare", "s.json", "--jobs", "0"], "--jobs '0' is not a whole number of at least 1"),
    (["compare", "s.json", "--rank-by", "kils"], "did you mean 'kills'?"),
    (["compare"], "'compare' needs a SCENARIO file"),
  ])
  func badCompareUsage(arguments: [String], fragment: String) {
    do {
      _ = try CommandParser.parse(arguments)
      Issue.record("expected an error for \(arguments)")
    } catch {
      #expect(error.message.contains(fragment), "\(error.message)")
    }
  }

  @Test func checkOptions() throws {
    var expected = CheckOptions(scenario: "s.json", expect: "g")
    expected.events = true
    expected.update = true
    expected.overrides.seed = 3
    #expect(
      try CommandParser.parse([
        "check", "s.json", "--expect", "g", "--events", "--update", "--seed", "3",
      ]) == .subcommand(expected))
    #expect(
      throws: UsageError("'check' needs --expect DIR, the folder of golden reports", help: "check")
    ) {
      try CommandParser.parse(["check", "s.json"])
    }
  }

  @Test func anUnknownPolicyListsTheValidOnes() {
    do {
      _ = try CommandParser.parse(["run", "s.json", "--policy", "largest-frist"])
      Issue.record("expected an error")
    } catch {
      #expect(error.message.contains("did you mean 'largest-first'?"))
      #expect(error.message.contains("valid policies: largest-first"))
    }
  }

  @Test func aBadDuration() {
    #expect(throws: UsageError.self) {
      try CommandParser.parse(["run", "s.json", "--duration", "90"])
    }
  }

  @Test func shortFormsMeanTheLongOnes() throws {
    var expected = RunOptions(scenario: "s.json")
    expected.out = "o"
    expected.printing.quiet = true
    #expect(try CommandParser.parse(["run", "-o", "o", "-q", "s.json"]) == .subcommand(expected))
    var compare = CompareOptions(scenario: "s.json")
    compare.jobs = 3
    #expect(try CommandParser.parse(["compare", "s.json", "-j", "3"]) == .subcommand(compare))
    #expect(try CommandParser.parse(["sweep", "-h"]) == .help("sweep"))
  }

  /// One list: every subcommand type parses to itself, and help, usage and completions name each.
  @Test func everySubcommandComesFromTheOneList() throws {
    let names = Subcommands.all.map { $0.spec.name }
    #expect(Set(names).count == names.count, "no name twice")
    #expect(Subcommands.specs.map(\.name) == names + ["help"])
    let bash = try #require(
      CommandParser.parse(["--generate-completion-script", "bash"]) == .completionScript("bash")
        ? JetsimCommandLine.execute(.completionScript("bash")).output : nil)
    let overview = HelpFormatter.overview(Subcommands.specs)
    #expect(Subcommands.helpSpec.arguments.first?.completion == .values(names))
    // The shortest command line of each.
    let lines = [
      "run": ["s.json"], "compare": ["s.json"], "check": ["s.json", "--expect", "g"],
      "sweep": ["w.json"], "merge": ["a", "-o", "m"], "plan": ["s.json", "--target", "kills<=1"],
      "import-lsapp": ["l.tsv", "--scenario", "s.json", "-o", "i"],
      "import-jetsam": ["r.ips", "-o", "i"], "replay": ["r.ips"], "validate": ["a.json"],
      "policies": [], "what-if": ["s.json", "--app", "a", "--resident", "1MB"],
      "import-metrickit": ["p.json", "--app", "a", "--profile", "a.json"],
    ]
    #expect(Set(lines.keys) == Set(names), "a line for each subcommand")
    for type in Subcommands.all {
      let name = type.spec.name
      #expect(overview.contains("  \(name)"), "\(name) in the overview")
      #expect(bash.contains(name), "\(name) in the completions")
      let parsed = try CommandParser.parse([name] + (lines[name] ?? [])).subcommand
      #expect(parsed.map { Swift.type(of: $0) == type } == true, "\(name) parses to its type")
    }
  }

  /// compare runs ten seeds by default when the workload draws at random (a user model), and the
  /// scenario's own seed when it cannot vary (a script or a trace).
  @Test func compareDefaultsToTenSeedsForAUserModel() throws {
    let light = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/light-user-2gb.json")
    #expect(CompareOptions.defaultSeeds(light) == Array(1...10))
    let scripted = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/worked-example.json")
    #expect(CompareOptions.defaultSeeds(scripted) == [scripted.seed])
  }

  @Test func everySubcommandTakesQuietAndHelp() throws {
    for spec in Subcommands.specs {
      #expect(spec.option("--quiet") != nil && spec.option("-q") != nil, "\(spec.name)")
      #expect(spec.option("--help") != nil && spec.option("-h") != nil, "\(spec.name)")
    }
  }

  @Test func seedsHaveOneGrammarEverywhere() throws {
    let compare = try #require(
      CommandParser.parse(["compare", "s.json", "--seeds", "10"]).subcommand as? CompareOptions)
    #expect(compare.seeds == Array(1...10))
    let plan = try #require(
      CommandParser.parse(["plan", "s.json", "--target", "kills<=1", "--seeds", "1..5"]).subcommand
        as? PlanOptions)
    #expect(plan.seeds == [1, 2, 3, 4, 5])
  }

  @Test func metricsHaveOneSetOfNamesEverywhere() throws {
    let compare = try #require(
      CommandParser.parse(["compare", "s.json", "--rank-by", "kills-per-hour"]).subcommand
        as? CompareOptions)
    #expect(compare.rankBy == "kills_per_hour")
    #expect(CapacityTarget.parse("Kills_Per_Hour<=2").target?.metric.name == "kills_per_hour")
  }

}
