import Jetsim

/// What a subcommand that runs a scenario may change in it, declared and parsed once: `--policy`
/// and `--seed`, where the subcommand declares them (run, check, plan).
struct ScenarioOverrides: Equatable, Sendable {
  /// The policy to run under instead of the scenario's.
  var policy: PolicyName?
  /// The seed to run with instead of the scenario's.
  var seed: UInt64?

  init() {}

  init(_ parsed: ParsedArguments) throws(UsageError) {
    if let option = parsed.command.option(CommonOptions.policy.flag) {
      policy = try parsed.policy(option)
    }
    if let option = parsed.command.option(CommonOptions.seed.flag) {
      seed = try parsed.seed(option)
    }
  }

  /// `scenario` with the overrides given.
  func apply(to scenario: inout Scenario) {
    if let policy { scenario.policy = policy }
    if let seed { scenario.seed = seed }
  }
}
