import Jetsim

/// A command line split against its subcommand's declaration: the positional arguments, and the
/// value of each option given (an empty string for a flag).
struct ParsedArguments {
  let command: CommandSpec
  private(set) var positionals: [String] = []
  private var values: [String: String] = [:]

  /// Splits `arguments` (after the subcommand's name): `--name value`, `--name=value`, `-n value`,
  /// flags, and `--`, after which everything is positional. Unknown options get a "did you mean".
  init(_ arguments: [String], for command: CommandSpec) throws(UsageError) {
    self.command = command
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(parts[0])
      guard let option = command.option(name) else {
        let names = command.allOptions.map(\.flag)
        let hint = Suggestion.closest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
        throw UsageError(
          "unknown option '\(name.excerpt(limit: 40))' for '\(command.name)'\(hint)",
          help: command.name)
      }
      guard values[option.name] == nil else {
        throw UsageError("option '\(option.flag)' is given twice", help: command.name)
      }
      if let valueName = option.valueName {
        if parts.count == 2 {
          values[option.name] = String(parts[1])
        } else if index < arguments.count {
          values[option.name] = arguments[index]
          index += 1
        } else {
          throw UsageError(
            "option '\(option.flag)' needs a value (\(valueName))", help: command.name)
        }
        guard values[option.name] != "" else {
          throw UsageError(
            "option '\(option.flag)' is given an empty value; it needs \(valueName)",
            help: command.name)
        }
      } else {
        guard parts.count == 1 else {
          throw UsageError("option '\(option.flag)' takes no value", help: command.name)
        }
        values[option.name] = ""
      }
    }
    if has(CommonOptions.help) { return }
    try checkArguments()
    try checkRequiredOptions()
  }

  /// Checks the number of positional arguments against the declaration.
  private func checkArguments() throws(UsageError) {
    let name = command.name
    let required = command.arguments.filter { $0.count != .optional }
    let repeating = command.arguments.contains { $0.count == .oneOrMore }
    if command.arguments.isEmpty, !positionals.isEmpty {
      throw UsageError("'\(name)' takes no arguments", help: name)
    }
    if positionals.count < required.count {
      let missing = required[positionals.count]
      let what = missing.count == .oneOrMore ? "at least one \(missing.name)" : "a \(missing.name)"
      throw UsageError(
        "'\(name)' needs \(what)\(missing.name == "SCENARIO" ? " file" : "")", help: name)
    }
    if !repeating, positionals.count > command.arguments.count {
      let names = command.arguments.map(\.name).joined(separator: " ")
      throw UsageError(
        command.arguments.count == 1
          ? "'\(name)' takes one \(names), got \(positionals.count)"
          : "'\(name)' takes \(names), got \(positionals.count) arguments",
        help: name)
    }
  }

  /// Checks that every option the declaration requires is given; the error names each one
  /// missing (and its note, when it is the only one).
  private func checkRequiredOptions() throws(UsageError) {
    let missing = command.allOptions.filter { $0.isRequired && values[$0.name] == nil }
    guard let first = missing.first else { return }
    let names = missing.map(\.written).joined(separator: " and ")
    let note = missing.count == 1 ? first.missingNote.map { ", \($0)" } ?? "" : ""
    throw UsageError("'\(command.name)' needs \(names)\(note)", help: command.name)
  }

  /// Whether `option` was given.
  func has(_ option: OptionSpec) -> Bool {
    precondition(
      command.allOptions.contains(option), "'\(command.name)' does not declare \(option.flag)")
    return values[option.name] != nil
  }

  /// The value given for `option`, if any.
  func value(_ option: OptionSpec) -> String? {
    precondition(
      command.allOptions.contains(option), "'\(command.name)' does not declare \(option.flag)")
    return values[option.name]
  }

  /// The value given for `option`, converted by `convert`; nil if not given. A value `convert`
  /// rejects is a usage error that says what `expected` is.
  func value<T>(_ option: OptionSpec, expected: String, _ convert: (String) -> T?)
    throws(UsageError)
    -> T?
  {
    guard let text = value(option) else { return nil }
    guard let converted = convert(text) else {
      throw UsageError(
        "\(option.flag) '\(text.excerpt(limit: 40))' is not \(expected)", help: command.name)
    }
    return converted
  }

  /// The value of a required option, which parsing checked was given.
  func required(_ option: OptionSpec) -> String {
    precondition(option.isRequired, "'\(command.name)' does not declare \(option.flag) required")
    return value(option) ?? ""
  }

  /// The first positional argument (the checks above guarantee it for a required one).
  var first: String { positionals.first ?? "" }
}
