import Jetsim

/// Turns `jetsim`'s arguments (without the program name) into a `Command`, or a `UsageError` that
/// says what is wrong and suggests the nearest subcommand or flag. Pure: no files are touched.
public enum CommandParser {
  public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(nil) }
    switch first {
    case "--help", "-h": return .help(nil)
    case "--version": return .version
    default: break
    }
    guard let subcommand = Subcommand(rawValue: first) else {
      let names = Subcommand.allCases.map(\.rawValue)
      let hint = Suggestion.closest(to: first, in: names).map { "; did you mean '\($0)'?" } ?? ""
      throw UsageError("unknown subcommand '\(first)'\(hint)")
    }
    let (positionals, values) = try split(Array(arguments.dropFirst()), for: subcommand)
    if values["--help"] != nil { return .help(subcommand.rawValue) }
    switch subcommand {
    case .help:
      guard positionals.count <= 1 else {
        throw UsageError("'help' takes at most one subcommand", help: "help")
      }
      if let topic = positionals.first, Subcommand(rawValue: topic) == nil {
        throw UsageError("no help on '\(topic)': it is not a subcommand", help: nil)
      }
      return .help(positionals.first)
    case .policies:
      guard positionals.isEmpty else {
        throw UsageError("'policies' takes no arguments", help: "policies")
      }
      return .policies
    case .validate:
      guard !positionals.isEmpty else {
        throw UsageError("'validate' needs at least one FILE", help: "validate")
      }
      return .validate(positionals)
    case .importLSApp:
      guard positionals.count == 1, let log = positionals.first else {
        throw UsageError("'import-lsapp' takes one LOG file", help: "import-lsapp")
      }
      guard let scenario = values["--scenario"], let out = values["--out"] else {
        throw UsageError("'import-lsapp' needs --scenario BASE and --out DIR", help: "import-lsapp")
      }
      var options = ImportOptions(log: log, scenario: scenario, out: out)
      options.user = values["--user"]
      options.run = values["--run"] != nil
      return .importLSApp(options)
    case .sweep:
      guard positionals.count == 1, let file = positionals.first else {
        throw UsageError(
          positionals.isEmpty ? "'sweep' needs a SWEEP file" : "'sweep' takes one SWEEP file",
          help: "sweep")
      }
      var options = SweepOptions(sweep: file)
      options.out = values["--out"]
      options.resume = values["--resume"] != nil
      options.quiet = values["--quiet"] != nil
      options.jobs = try jobs(values["--jobs"], help: "sweep")
      if let text = values["--shard"] {
        guard let shard = ShardSpec(text) else {
          throw UsageError(
            "--shard '\(text)' is not I/N with 1 <= I <= N, such as 2/4", help: "sweep")
        }
        options.shard = shard
      }
      return .sweep(options)
    case .merge:
      guard !positionals.isEmpty else {
        throw UsageError("'merge' needs the shard folders", help: "merge")
      }
      guard let out = values["--out"] else {
        throw UsageError("'merge' needs --out DIR", help: "merge")
      }
      return .merge(shards: positionals, out: out)
    case .plan:
      let scenario = try oneScenario(positionals, for: "plan")
      guard let target = values["--target"] else {
        throw UsageError(
          "'plan' needs --target, such as --target \"warm-resume-ratio>=0.9\"", help: "plan")
      }
      if let problem = CapacityTarget.parse(target).problem {
        throw UsageError("--target '\(target)': \(problem)", help: "plan")
      }
      var options = PlanOptions(scenario: scenario, target: target)
      if let seeds = values["--seeds"] {
        guard let count = Int(seeds), (1...10_000).contains(count) else {
          throw UsageError(
            "--seeds '\(seeds)' is not a number of seeds from 1 to 10000", help: "plan")
        }
        options.seeds = count
      }
      for (flag, keyPath) in [
        ("--min", \PlanOptions.minKB), ("--max", \PlanOptions.maxKB),
        ("--precision", \PlanOptions.precisionKB),
      ] {
        guard let text = values[flag] else { continue }
        guard let kb = Units.kilobytes(text), kb > 0 else {
          throw UsageError("\(flag) '\(text)' is not \(Units.sizeForm)", help: "plan")
        }
        options[keyPath: keyPath] = kb
      }
      guard options.minKB < options.maxKB else {
        throw UsageError("--min must be below --max", help: "plan")
      }
      options.policy = try policy(values["--policy"], help: "plan")
      options.jobs = try jobs(values["--jobs"], help: "plan")
      return .plan(options)
    case .check:
      let scenario = try oneScenario(positionals, for: "check")
      guard let expect = values["--expect"] else {
        throw UsageError("'check' needs --expect DIR, the folder of golden reports", help: "check")
      }
      var options = CheckOptions(scenario: scenario, expect: expect)
      options.events = values["--events"] != nil
      options.update = values["--update"] != nil
      options.policy = try policy(values["--policy"], help: "check")
      options.seed = try seed(values["--seed"], help: "check")
      return .check(options)
    case .compare:
      let scenario = try oneScenario(positionals, for: "compare")
      var options = CompareOptions(scenario: scenario)
      options.quiet = values["--quiet"] != nil
      options.out = values["--out"]
      if let list = values["--policies"] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for name in names where !PolicyRegistry.names.contains(name) {
          throw UsageError(
            JetsimError.unknownPolicy(name: name, valid: PolicyRegistry.names).description,
            help: "compare")
        }
        guard Set(names).count == names.count else {
          throw UsageError("--policies names a policy twice: \(list)", help: "compare")
        }
        options.policies = names
      }
      if let list = values["--seeds"] { options.seeds = try seeds(list) }
      options.jobs = try jobs(values["--jobs"], help: "compare")
      if let metric = values["--rank-by"] {
        guard SummaryMetric.named(metric) != nil else {
          let names = SummaryMetric.all.map(\.name)
          let hint =
            Suggestion.closest(to: metric, in: names).map { "did you mean '\($0)'? " } ?? ""
          throw UsageError(
            "--rank-by '\(metric)' is not a summary column; \(hint)columns: \(names.joined(separator: ", "))",
            help: "compare")
        }
        options.rankBy = metric
      }
      return .compare(options)
    case .run:
      let scenario = try oneScenario(positionals, for: "run")
      var options = RunOptions(scenario: scenario)
      options.quiet = values["--quiet"] != nil
      options.noHTML = values["--no-html"] != nil
      options.out = values["--out"]
      options.trace = values["--trace"]
      if let policy = values["--policy"] {
        guard PolicyRegistry.names.contains(policy) else {
          throw UsageError(
            JetsimError.unknownPolicy(name: policy, valid: PolicyRegistry.names).description,
            help: "run")
        }
        options.policy = policy
      }
      if let seed = values["--seed"] {
        guard let value = UInt64(seed) else {
          throw UsageError(
            "--seed '\(seed)' is not a whole number from 0 to \(UInt64.max)", help: "run")
        }
        options.seed = value
      }
      if let duration = values["--duration"] {
        guard let value = Units.milliseconds(duration), value > 0 else {
          throw UsageError("--duration '\(duration)' is not \(Units.durationForm)", help: "run")
        }
        options.durationMs = value
      }
      return .run(options)
    }
  }

  /// The one SCENARIO argument of `subcommand`.
  static func oneScenario(_ positionals: [String], for subcommand: String) throws(UsageError)
    -> String
  {
    guard positionals.count == 1, let scenario = positionals.first else {
      throw UsageError(
        positionals.isEmpty
          ? "'\(subcommand)' needs a SCENARIO file"
          : "'\(subcommand)' takes one SCENARIO, got \(positionals.count)",
        help: subcommand)
    }
    return scenario
  }

  /// A `--policy` value, checked against the built-in policies.
  static func policy(_ name: String?, help: String) throws(UsageError) -> String? {
    guard let name else { return nil }
    guard PolicyRegistry.names.contains(name) else {
      throw UsageError(
        JetsimError.unknownPolicy(name: name, valid: PolicyRegistry.names).description, help: help)
    }
    return name
  }

  /// A `--jobs` value.
  static func jobs(_ text: String?, help: String) throws(UsageError) -> Int? {
    guard let text else { return nil }
    guard let value = Int(text), value >= 1 else {
      throw UsageError("--jobs '\(text)' is not a whole number of at least 1", help: help)
    }
    return value
  }

  /// A `--seed` value.
  static func seed(_ text: String?, help: String) throws(UsageError) -> UInt64? {
    guard let text else { return nil }
    guard let value = UInt64(text) else {
      throw UsageError("--seed '\(text)' is not a whole number from 0 to \(UInt64.max)", help: help)
    }
    return value
  }

  /// Seeds written `7`, `1..20`, `1,4,9` or a mix (`1..5,9`), in the order given, without repeats.
  static func seeds(_ text: String) throws(UsageError) -> [UInt64] {
    do {
      return try SeedList.parse(text)
    } catch {
      throw UsageError("--seeds \(error.message)", help: "compare")
    }
  }

  /// Separates positionals from `--flag value`, `--flag=value` and `--switch`; `--` ends the flags.
  static func split(_ arguments: [String], for subcommand: Subcommand) throws(UsageError)
    -> (positionals: [String], values: [String: String])
  {
    let options = subcommand.options
    var positionals: [String] = []
    var values: [String: String] = [:]
    var index = 0
    var flagsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if flagsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        flagsEnded = true
        continue
      }
      if argument == "-h" {
        values["--help"] = ""
        continue
      }
      let parts = argument.split(separator: "=", maxSplits: 1)
      let name = String(parts[0])
      guard let option = options.first(where: { $0.name == name }) else {
        let hint =
          Suggestion.closest(to: name, in: options.map(\.name)).map { "; did you mean '\($0)'?" }
          ?? ""
        throw UsageError(
          "unknown option '\(name)' for '\(subcommand.rawValue)'\(hint)", help: subcommand.rawValue)
      }
      guard values[name] == nil else {
        throw UsageError("option '\(name)' is given twice", help: subcommand.rawValue)
      }
      if let valueName = option.value {
        if parts.count == 2 {
          values[name] = String(parts[1])
        } else if index < arguments.count {
          values[name] = arguments[index]
          index += 1
        } else {
          throw UsageError(
            "option '\(name)' needs a value (\(valueName))", help: subcommand.rawValue)
        }
      } else {
        guard parts.count == 1 else {
          throw UsageError("option '\(name)' takes no value", help: subcommand.rawValue)
        }
        values[name] = ""
      }
    }
    return (positionals, values)
  }
}
