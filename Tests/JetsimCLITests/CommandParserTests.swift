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
    expected.policy = "largest-first"
    expected.seed = 7
    expected.out = "o"
    expected.trace = "t.csv"
    expected.durationMs = 5_400_000
    expected.quiet = true
    #expect(command == .run(expected))
  }

  @Test func helpAndVersion() throws {
    #expect(try CommandParser.parse([]) == .help(nil))
    #expect(try CommandParser.parse(["--help"]) == .help(nil))
    #expect(try CommandParser.parse(["run", "--help"]) == .help("run"))
    #expect(try CommandParser.parse(["run", "-h"]) == .help("run"))
    #expect(try CommandParser.parse(["help", "validate"]) == .help("validate"))
    #expect(try CommandParser.parse(["--version"]) == .version)
    #expect(try CommandParser.parse(["policies"]) == .policies)
    #expect(try CommandParser.parse(["validate", "a", "b"]) == .validate(["a", "b"]))
  }

  @Test func aFileNamedLikeAFlagAfterTheDoubleDash() throws {
    #expect(
      try CommandParser.parse(["run", "--", "--odd.json"])
        == .run(RunOptions(scenario: "--odd.json")))
  }

  @Test(arguments: [
    (["rnu", "s.json"], "unknown subcommand 'rnu'; did you mean 'run'?"),
    (
      ["run", "s.json", "--polcy", "lru"],
      "unknown option '--polcy' for 'run'; did you mean '--policy'?"
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
    expected.policies = ["lru", "jetsam"]
    expected.seeds = [1, 2, 3, 7]
    expected.out = "o"
    expected.jobs = 2
    expected.rankBy = "kills"
    expected.quiet = true
    #expect(command == .compare(expected))
  }

  @Test(arguments: [
    (["compare", "s.json", "--policies", "lru,lmdk"], "did you mean 'lmkd'?"),
    (["compare", "s.json", "--policies", "lru,lru"], "--policies names a policy twice"),
    (["compare", "s.json", "--seeds", "5..1"], "is an empty range"),
    (["compare", "s.json", "--seeds", "1-5"], "is not seeds such as 10 (seeds 1 to 10), 1..20 or 1,4,9"),
    (["compare", "s.json", "--seeds", "1,1"], "repeats a seed"),
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
    expected.seed = 3
    #expect(
      try CommandParser.parse([
        "check", "s.json", "--expect", "g", "--events", "--update", "--seed", "3",
      ]) == .check(expected))
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

  @Test func everySubcommandHasHelpWithAnExample() {
    for subcommand in Subcommand.allCases {
      let text = HelpText.text(for: subcommand)
      #expect(text.contains("USAGE: jetsim \(subcommand.rawValue)"))
      #expect(text.contains("EXAMPLES:\n  jetsim "))
      for option in subcommand.options { #expect(text.contains(option.name)) }
    }
    #expect(HelpText.text(for: nil).contains("jetsim run Profiles/scenarios/daily-commute.json"))
  }
}
