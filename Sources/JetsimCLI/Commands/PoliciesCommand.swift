import Jetsim

/// The options of `jetsim policies`.
struct PoliciesOptions: Subcommand, Equatable {
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension PoliciesOptions {
  static let spec = CommandSpec(
    name: "policies", abstract: "List the built-in eviction policies and their settings.",
    examples: ["jetsim policies", "jetsim policies --format json"])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    printing = try OutputOptions(parsed)
  }

  func execute() -> CommandResult {
    guard !printing.quiet else { return CommandResult() }
    if printing.format == .json { return CommandResult(output: Self.json) }
    let width = PolicyRegistry.all.map(\.name.count).max() ?? 0
    let indent = String(repeating: " ", count: width + 2)
    let text = PolicyRegistry.all.map { entry in
      let padding = String(repeating: " ", count: width - entry.name.count)
      let marker = entry.name == PolicyName.default.rawValue ? " (default)" : ""
      var lines = "\(entry.name)\(padding)  \(entry.summary)\(marker)\n"
      for setting in entry.settings {
        lines += "\(indent)\(setting.key): \(setting.summary) (default: \(setting.defaultText))\n"
      }
      return lines
    }.joined()
    return CommandResult(output: text)
  }
}

extension PoliciesOptions {
  /// Every built-in policy, its summary, whether it is the default, and its settings.
  static var json: String {
    JSONText.render(
      .fields([
        (
          "policies",
          .list(
            PolicyRegistry.all.map { entry in
              .fields([
                ("name", .string(entry.name)), ("summary", .string(entry.summary)),
                ("default", .bool(entry.name == PolicyName.default.rawValue)),
                (
                  "settings",
                  .list(
                    entry.settings.map { setting in
                      .fields([
                        ("key", .string(setting.key)), ("summary", .string(setting.summary)),
                        ("value", .string(setting.kind.valueText)),
                        ("default", setting.defaultValue.map { json($0, setting.kind) } ?? .null),
                        ("derived_from", setting.derivedFrom.map { .string($0) } ?? .null),
                      ])
                    })
                ),
              ])
            })
        )
      ]))
  }

  /// A setting's value as a profile gives it: a number or a flag as such, a duration, size or
  /// percentage as its text (`"2s"`), a list of sizes as a list of texts.
  private static func json(_ value: PolicySettingValue, _ kind: PolicySettingKind) -> JSONValue {
    switch (value, kind) {
    case (.number(let number), .integer): .number("\(number)")
    case (.number, _): .string(value.text(as: kind))
    case (.flag(let flag), _): .bool(flag)
    case (.numbers(let numbers), _): .list(numbers.map { .string(Units.formatSize($0)) })
    }
  }
}
