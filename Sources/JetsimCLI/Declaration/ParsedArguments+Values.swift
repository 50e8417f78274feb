import Jetsim

/// The checks of values several subcommands take, written once: a policy name, a seed, seeds, a
/// number of jobs, a duration, a size, an output format.
extension ParsedArguments {
  /// A policy name, checked against the built-in policies.
  func policy(_ option: OptionSpec) throws(UsageError) -> PolicyName? {
    guard let name = value(option) else { return nil }
    return try checked(name)
  }

  private func checked(_ name: String) throws(UsageError) -> PolicyName {
    do {
      return try PolicyName(name)
    } catch {
      throw UsageError(error.description, help: command.name)
    }
  }

  /// A list of policy names, each checked, none repeated.
  func policies(_ option: OptionSpec) throws(UsageError) -> [PolicyName]? {
    try list(option, of: "policy", identity: \.rawValue) { name throws(UsageError) in
      try checked(name)
    }
  }

  /// A comma-separated list, each item converted by `convert` (which throws what is wrong with
  /// it), no two the same by `identity`; nil when the option is not given. `item` names an item in
  /// the error for a repeat: "--policies names a policy twice: lru,lru".
  func list<T>(
    _ option: OptionSpec, of item: String, identity: (T) -> String,
    _ convert: (String) throws(UsageError) -> T
  ) throws(UsageError) -> [T]? {
    guard let list = value(option) else { return nil }
    var items: [T] = []
    for text in list.split(separator: ",", omittingEmptySubsequences: false) {
      items.append(try convert(String(text)))
    }
    guard Set(items.map(identity)).count == items.count else {
      throw UsageError(
        "\(option.flag) names a \(item) twice: \(list.excerpt())", help: command.name)
    }
    return items
  }

  /// Checks that no two positional arguments name the same file or folder, however each is
  /// written (`a/./b/`, an absolute path, a symbolic link): one given twice, often by two patterns
  /// that overlap, would be counted twice. `each` is what the advice asks for once: "each
  /// shard's folder".
  func distinctPaths(each: String) throws(UsageError) {
    let name = command.arguments.first?.name ?? "argument"
    var first: [String: Int] = [:]
    for (position, path) in positionals.enumerated() {
      let resolved = FileSystem.canonical(path)
      if let earlier = first[resolved] {
        throw UsageError(
          "\(name) \(position + 1) ('\(path.excerpt(limit: 60))') is \(name) \(earlier + 1) again; give \(each) once",
          help: command.name)
      }
      first[resolved] = position
    }
  }

  /// A comma-separated list of files (`--devices`); empty when the option is not given.
  func files(_ option: OptionSpec) -> [String] {
    value(option).map { $0.split(separator: ",").map(String.init) } ?? []
  }

  /// A seed.
  func seed(_ option: OptionSpec) throws(UsageError) -> UInt64? {
    try value(option, expected: "a whole number from 0 to \(UInt64.max)") { UInt64($0) }
  }

  /// Seeds written N (1 to N), A..B or A,B,C.
  func seeds(_ option: OptionSpec) throws(UsageError) -> [UInt64]? {
    guard let text = value(option) else { return nil }
    do {
      return try SeedList.parse(text)
    } catch {
      throw UsageError("\(option.flag) \(error.message)", help: command.name)
    }
  }

  /// A number of jobs, at least 1.
  func jobs(_ option: OptionSpec) throws(UsageError) -> Int? {
    try value(option, expected: "a whole number of at least 1") {
      Int($0).flatMap { $0 >= 1 ? $0 : nil }
    }
  }

  /// A positive duration.
  func duration(_ option: OptionSpec) throws(UsageError) -> Int? {
    try positive(option, value(option, expected: Units.durationForm, Units.milliseconds))
  }

  /// A positive size.
  func size(_ option: OptionSpec) throws(UsageError) -> Int? {
    try positive(option, value(option, expected: Units.sizeForm, Units.kilobytes))
  }

  /// `amount` if it is not zero: a zero duration or size, well formed, is refused as such.
  private func positive(_ option: OptionSpec, _ amount: Int?) throws(UsageError) -> Int? {
    guard amount != 0 else {
      throw UsageError(
        "\(option.flag) '\(value(option) ?? "")' is zero; it must be more than that",
        help: command.name)
    }
    return amount
  }

  /// An output format (text by default).
  func format(_ option: OptionSpec) throws(UsageError) -> OutputFormat {
    try value(option, expected: "text or json") { OutputFormat(rawValue: $0) } ?? .text
  }
}

extension OptionSpec {
  /// The same option with another line of help (the meaning of a default differs by subcommand).
  func helped(_ help: String) -> OptionSpec {
    var option = self
    option.help = help
    return option
  }
}
