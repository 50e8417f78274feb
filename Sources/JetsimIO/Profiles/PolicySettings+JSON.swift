import JetsimCore

extension PolicySettings {
  /// The settings under `key` of `fields` (`policyParameters`): an object keyed by policy name, each
  /// an object of that policy's declared settings (nested objects for dotted keys such as
  /// `bands.idle`). Unknown policies and settings are errors that suggest the nearest name.
  package init?(json fields: ProfileFields, key: String) throws(FieldError) {
    guard let policies = try fields.object(key, allowed: PolicyRegistry.names) else { return nil }
    var values: [String: [String: PolicySettingValue]] = [:]
    for name in policies.keys {
      guard let registration = PolicyRegistry.registration(name), let node = policies.node(name)
      else { continue }
      let given = try Self.values(
        node, at: policies.path(name), prefix: "", settings: registration.settings)
      // Settings that cannot go together (jetsam's bands out of order); those that must fit a
      // device are checked with it (`PolicySettings.problem(on:)`).
      if let problem = registration.problem(given) {
        throw FieldError(
          keyPath: policies.path(name) + "." + problem.key,
          kind: .invalid(value: problem.value, expected: problem.expected))
      }
      values[name] = given
    }
    self.init(values)
  }

  /// The settings in the object `node`, whose keys are the declared keys that start with `prefix`.
  private static func values(
    _ node: JSONNode, at keyPath: String, prefix: String, settings: [PolicySettingDescription]
  ) throws(FieldError) -> [String: PolicySettingValue] {
    // The keys allowed at this level: declared leaves, and the first part of nested keys.
    var allowed: [String] = []
    for setting in settings where setting.key.hasPrefix(prefix) {
      let rest = setting.key.dropFirst(prefix.count)
      let head = String(rest.prefix { $0 != "." })
      if !allowed.contains(head) { allowed.append(head) }
    }
    let fields = try ProfileFields(node, at: keyPath, allowed: allowed)
    var values: [String: PolicySettingValue] = [:]
    for key in fields.keys {
      let fullKey = prefix + key
      if let setting = settings.first(where: { $0.key == fullKey }) {
        if let value = try value(of: setting.kind, key, in: fields) { values[fullKey] = value }
      } else if let node = fields.node(key) {
        values.merge(
          try Self.values(node, at: fields.path(key), prefix: fullKey + ".", settings: settings)
        ) { _, new in new }
      }
    }
    return values
  }

  private static func value(of kind: PolicySettingKind, _ key: String, in fields: ProfileFields)
    throws(FieldError) -> PolicySettingValue?
  {
    switch kind {
    case .duration: return try fields.duration(key).map { .number($0) }
    case .size: return try fields.size(key).map { .number($0) }
    case .percent: return try fields.percent(key).map { .number($0) }
    case .flag: return try fields.bool(key).map { .flag($0) }
    case .integer(let range): return try fields.integer(key, in: range).map { .number($0) }
    case .ascendingSizes(let count):
      let form = "\(count) sizes in ascending order, such as [\"72MB\", \"90MB\", ...]"
      guard let texts = try fields.strings(key, expected: form) else { return nil }
      let sizes = texts.compactMap(Units.kilobytes)
      guard texts.count == count, sizes.count == count, sizes == sizes.sorted() else {
        throw fields.invalid(key, "[\(texts.joined(separator: ", ").excerpt(limit: 80))]", form)
      }
      return .numbers(sizes)
    }
  }
}
