import JetsimCore

extension ProfileWriter {
  /// The JSON object of `settings` (`policyParameters`), on one line: policies in the registry's
  /// order, each one's settings in the order it declares them, dotted keys (`bands.idle`) as nested
  /// objects, each value in its setting's form (`"2s"`, `"50%"`); `PolicySettings(json:key:)` reads
  /// back exactly this.
  static func json(_ settings: PolicySettings) -> String {
    let names = PolicyRegistry.names
    let policies = settings.values.keys.sorted {
      (names.firstIndex(of: $0) ?? names.count, $0) < (names.firstIndex(of: $1) ?? names.count, $1)
    }
    return line(
      policies.map { policy in
        let declared = PolicyRegistry.registration(policy)?.settings ?? []
        let rank = { (key: String) in declared.firstIndex { $0.key == key } ?? declared.count }
        let values = settings[policy].sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }
        let fields = values.map { key, value in
          (key, text(of: value, as: declared.first { $0.key == key }?.kind))
        }
        return (policy, nested(fields))
      })
  }

  /// `value` in the form of `kind`: a size, a duration or a percentage with its unit (quoted), a
  /// flag, a whole number or a list of sizes.
  private static func text(of value: PolicySettingValue, as kind: PolicySettingKind?) -> String {
    switch (value, kind) {
    case (.number, .duration), (.number, .size), (.number, .percent): quote(value.text(as: kind))
    case (.numbers(let numbers), _): "[" + numbers.map(size).joined(separator: ", ") + "]"
    default: value.text(as: kind)
    }
  }

  /// An object on one line of `fields`, whose dotted keys are written as nested objects, each at
  /// the place of its first key.
  private static func nested(_ fields: [(key: String, text: String)]) -> String {
    var members: [(String, String)] = []
    for (key, text) in fields {
      let head = String(key.prefix { $0 != "." })
      guard !members.contains(where: { $0.0 == head }) else { continue }
      guard head != key else {
        members.append((key, text))
        continue
      }
      let inner = fields.filter { $0.key.hasPrefix(head + ".") }
        .map { (key: String($0.key.dropFirst(head.count + 1)), text: $0.text) }
      members.append((head, nested(inner)))
    }
    return line(members)
  }
}
