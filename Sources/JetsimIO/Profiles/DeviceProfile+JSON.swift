import JetsimCore

extension DeviceProfile {
  /// The keys a device profile may have (docs/profiles.md), from `jsonKeys`.
  static let keys = jsonKeys.map(\.name)

  /// The device profile in `node`, found at `keyPath`: each key of `jsonKeys` read by its kind. A
  /// profile in a file of its own must give `version`; one inline in a scenario may leave it out.
  package init(json node: JSONNode, at keyPath: String = "", inline: Bool = false)
    throws(FieldError)
  {
    let fields = try ProfileFields(node, at: keyPath, allowed: Self.keys)
    if fields.has("version") || !inline { try fields.checkVersion() }
    self = .blank
    for key in Self.jsonKeys { try fields.read(key, into: &self) }
    if let problem = problems().first {
      throw fields.invalid(problem.key, problem.value, problem.expected)
    }
  }
}

extension ProfileFields {
  /// Reads `key` of this object into `root`, by its kind; an object key's own keys in turn.
  /// - Complexity: O(n) in the object's size for each key.
  func read<Root>(_ key: ProfileKey<Root>, into root: inout Root) throws(FieldError) {
    if case .object = key.kind {
      guard let object = try object(key.name, allowed: key.keys.map(\.name)) else {
        if key.required { throw FieldError(keyPath: path(key.name), kind: .missing) }
        return
      }
      key.apply(&root, .present)
      for inner in key.keys { try object.read(inner, into: &root) }
      return
    }
    let value = try self.value(key.name, of: key.kind)
    if key.required { _ = try required(value, key.name) }
    if let value { key.apply(&root, value) }
  }

  /// The value at `key` of `kind`, nil when left out; the checks of each kind are
  /// `ProfileFields`' own (units on sizes and durations, ranges, names on one line).
  private func value(_ key: String, of kind: ProfileKeyKind) throws(FieldError) -> ProfileValue? {
    switch kind {
    case .version, .object: nil
    case .name: try name(key).map(ProfileValue.text)
    case .text: try string(key).map(ProfileValue.text)
    case .size: try size(key).map(ProfileValue.number)
    case .duration: try duration(key).map(ProfileValue.number)
    case .flag: try bool(key).map(ProfileValue.flag)
    case .permille(let range):
      try number(key, in: range).map { .number(Int(($0 * 1000).rounded())) }
    case .count(let range): try integer(key, in: range).map(ProfileValue.number)
    case .policySettings: try PolicySettings(json: self, key: key).map(ProfileValue.settings)
    case .systemProcesses: try systemProcesses(key).map(ProfileValue.processes)
    }
  }

  /// The system processes listed at `key`, each with a name of its own.
  private func systemProcesses(_ key: String) throws(FieldError) -> [SystemProcess]? {
    guard
      let entries = try list(
        key, expected: "a list of system processes", maxCount: Units.maxProcesses)
    else { return nil }
    var names = Set<String>()
    var processes: [SystemProcess] = []
    var keyPaths: [String] = []
    for (keyPath, node) in entries {
      let process = try SystemProcess(json: node, at: keyPath)
      if !names.insert(process.name).inserted {
        throw FieldError(
          keyPath: keyPath + ".name",
          kind: .invalid(
            value: "\"\(process.name.excerpt())\", already used", expected: "a name of its own"))
      }
      processes.append(process)
      keyPaths.append(keyPath)
    }
    try Self.checkLeaders(processes, at: keyPaths)
    return processes
  }

  /// At most one leader a coalition (`i_coal_jetsam_set_taskrole`, osfmk/kern/coalition.c:1153,
  /// keeps one): a process without a `coalition` leads the one named after it. `keyPaths` are
  /// the processes' own.
  private static func checkLeaders(_ processes: [SystemProcess], at keyPaths: [String])
    throws(FieldError)
  {
    var leaders: [String: Int] = [:]
    for (index, process) in processes.enumerated() where process.coalitionRole == .leader {
      let coalition = process.coalition ?? process.name
      if let first = leaders[coalition] {
        throw FieldError(
          keyPath: keyPaths[index] + ".role",
          kind: .invalid(
            value: "\"leader\" of '\(coalition.excerpt())', led by \(keyPaths[first]) already",
            expected:
              "one leader a coalition (give this one \"xpc\", \"extension\" or \"undefined\")"))
      }
      leaders[coalition] = index
    }
  }
}
