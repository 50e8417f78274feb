import JetsimCore

/// A failure inside one JSON document, located by key path; the loader adds the file's path.
package struct FieldError: Error, Equatable {
  package enum Kind: Equatable {
    case unknownKey(suggestion: String?, valid: [String])
    case missing
    case invalid(value: String, expected: String)
    case entry(message: String)
    case version(found: Int)
  }
  package var keyPath: String
  package var kind: Kind

  package init(keyPath: String, kind: Kind) {
    self.keyPath = keyPath
    self.kind = kind
  }

  /// The error as a user sees it, in the file at `path`.
  package func located(in path: String) -> JetsimError {
    switch kind {
    case .unknownKey(let suggestion, let valid):
      .unknownKey(path: path, keyPath: keyPath, suggestion: suggestion, valid: valid)
    case .missing:
      .missingKey(path: path, keyPath: keyPath)
    case .invalid(let value, let expected):
      .invalidValue(path: path, keyPath: keyPath, value: value, expected: expected)
    case .entry(let message):
      .invalidEntry(path: path, keyPath: keyPath, message: message)
    case .version(let found):
      .unsupportedVersion(path: path, found: found, supported: Defaults.profileVersion)
    }
  }
}

/// Reads one JSON object of a profile: rejects unknown keys (the first in file order, suggesting the
/// nearest known one) and turns sizes, durations and the other value forms into integers, with
/// errors that name the key path (`apps[2].caches`).
package struct ProfileFields {
  /// Where the object is: `""` for the top level, `apps[2]`, `userModel.popularity`.
  package let keyPath: String
  /// The line the object starts on.
  package let line: Int
  private let members: [JSONMember]

  /// Opens the object `node` found at `keyPath`, accepting only `allowed` keys (any key if nil: a
  /// format jetsim reads but does not define, such as a JetsamEvent report).
  package init(_ node: JSONNode, at keyPath: String = "", allowed: [String]?) throws(FieldError) {
    self.keyPath = keyPath
    line = node.line
    guard let members = node.members else {
      throw FieldError(
        keyPath: keyPath.isEmpty ? "(top level)" : keyPath,
        kind: .invalid(value: node.value.kindName, expected: "an object { ... }"))
    }
    self.members = members
    guard let allowed else { return }
    for member in members where !allowed.contains(member.key) {
      if keyPath.isEmpty,
        let misplaced = DocumentKind.misplaced(keys: members.map(\.key), allowed: allowed)
      {
        throw misplaced
      }
      throw FieldError(
        keyPath: Self.join(keyPath, member.key.excerpt(limit: 40)),
        kind: .unknownKey(
          suggestion: Suggestion.closest(to: member.key, in: allowed),
          valid: allowed.filter { $0 != "version" }))
    }
  }

  /// `parent.key`, or `key` at the top level.
  package static func join(_ parent: String, _ key: String) -> String {
    parent.isEmpty ? key : "\(parent).\(key)"
  }

  /// The key path of `key` in this object.
  package func path(_ key: String) -> String { Self.join(keyPath, key) }

  /// The keys present, in file order.
  package var keys: [String] { members.map(\.key) }

  package func has(_ key: String) -> Bool { members.contains { $0.key == key } }

  /// The raw value at `key`; `null` counts as absent.
  package func node(_ key: String) -> JSONNode? {
    guard let node = members.first(where: { $0.key == key })?.node else { return nil }
    if case .null = node.value { return nil }
    return node
  }

  package func invalid(_ key: String, _ value: String, _ expected: String) -> FieldError {
    FieldError(keyPath: path(key), kind: .invalid(value: value, expected: expected))
  }

  package func required<T>(_ value: T?, _ key: String) throws(FieldError) -> T {
    guard let value else { throw FieldError(keyPath: path(key), kind: .missing) }
    return value
  }

  /// The string at `key`.
  package func string(_ key: String) throws(FieldError) -> String? {
    guard let node = node(key) else { return nil }
    guard let text = node.string else { throw invalid(key, node.summary, "a string") }
    return text
  }

  /// The case of `Value` named at `key` by its raw value; another word is refused with the cases
  /// listed and the closest suggested.
  package func oneOf<Value: CaseIterable & RawRepresentable>(_ key: String) throws(FieldError)
    -> Value? where Value.RawValue == String
  {
    guard let name = try string(key) else { return nil }
    guard let value = Value(rawValue: name) else { throw notACase(Value.self, name, at: key) }
    return value
  }

  /// The refusal of `name`, found at `key`, which names no case of `Value`: the cases listed and
  /// the closest suggested.
  package func notACase<Value: CaseIterable & RawRepresentable>(
    _: Value.Type, _ name: String, at key: String
  ) -> FieldError where Value.RawValue == String {
    let valid = Value.allCases.map(\.rawValue)
    let hint = Suggestion.closest(to: name, in: valid).map { " (did you mean '\($0)'?)" } ?? ""
    return invalid(
      key, "\"\(name.excerpt(limit: 40))\"\(hint)", "one of \(valid.joined(separator: ", "))")
  }

  /// A name that reaches reports, folder names or messages: a string without line breaks or other
  /// control characters, of at most `maxLength` characters.
  package func name(_ key: String, maxLength: Int = 200) throws(FieldError) -> String? {
    guard let text = try string(key) else { return nil }
    guard !text.hasControlCharacters, !text.isEmpty, text.count <= maxLength else {
      throw invalid(
        key, "\"\(text.excerpt(limit: 60))\"",
        "a non-empty name of at most \(maxLength) characters on one line, without control characters"
      )
    }
    return text
  }

  package func bool(_ key: String) throws(FieldError) -> Bool? {
    guard let node = node(key) else { return nil }
    guard case .bool(let flag) = node.value else {
      throw invalid(key, node.summary, "true or false")
    }
    return flag
  }

  package func size(_ key: String) throws(FieldError) -> Int? {
    guard let node = node(key) else { return nil }
    guard let text = node.string, let value = Units.kilobytes(text) else {
      throw invalid(key, node.summary, Units.sizeForm)
    }
    return value
  }

  package func duration(_ key: String) throws(FieldError) -> Int? {
    guard let node = node(key) else { return nil }
    guard let text = node.string, let value = Units.milliseconds(text) else {
      throw invalid(key, node.summary, Units.durationForm)
    }
    return value
  }

  /// A percentage written `"50%"`, from 0 to 100.
  package func percent(_ key: String) throws(FieldError) -> Int? {
    let form = "a percentage from \"0%\" to \"100%\""
    guard let node = node(key) else { return nil }
    guard let text = node.string, text.hasSuffix("%"),
      let value = Int(text.dropLast().trimmingSpaces()), (0...100).contains(value)
    else { throw invalid(key, node.summary, form) }
    return value
  }

  /// A number within `range`.
  package func number(_ key: String, in range: ClosedRange<Double>) throws(FieldError) -> Double? {
    let form =
      "a number from \(Units.decimalText(range.lowerBound)) to \(Units.decimalText(range.upperBound))"
    guard let node = node(key) else { return nil }
    guard let value = node.double, range.contains(value) else {
      throw invalid(key, node.summary, form)
    }
    return value
  }

  /// A whole number within `range`.
  package func integer(_ key: String, in range: ClosedRange<Int>) throws(FieldError) -> Int? {
    let form = "a whole number from \(range.lowerBound) to \(range.upperBound)"
    guard let node = node(key) else { return nil }
    guard let value = node.integer(in: range) else { throw invalid(key, node.summary, form) }
    return value
  }

  /// The object at `key`, accepting only `allowed` keys (any if nil).
  package func object(_ key: String, allowed: [String]?) throws(FieldError) -> ProfileFields? {
    guard let node = node(key) else { return nil }
    return try ProfileFields(node, at: path(key), allowed: allowed)
  }

  /// The elements of the list at `key`, each with its key path (`apps[2]`); `expected` says what
  /// the list must hold, for the error when it is not a list. A list of processes gives
  /// `maxCount: Units.maxProcesses`, which keeps their sums in range (docs/hardening.md).
  package func list(_ key: String, expected: String, maxCount: Int = .max) throws(FieldError)
    -> [(keyPath: String, node: JSONNode)]?
  {
    guard let node = node(key) else { return nil }
    guard let elements = node.elements else { throw invalid(key, node.summary, expected) }
    guard elements.count <= maxCount else {
      throw invalid(key, "\(elements.count) entries", "at most \(maxCount) entries")
    }
    return elements.enumerated().map { ("\(path(key))[\($0.offset)]", $0.element) }
  }

  /// The list of strings at `key`.
  package func strings(_ key: String, expected: String) throws(FieldError) -> [String]? {
    guard let elements = try list(key, expected: expected) else { return nil }
    var texts: [String] = []
    for (keyPath, node) in elements {
      guard let text = node.string else {
        throw FieldError(
          keyPath: keyPath, kind: .invalid(value: node.summary, expected: "a string"))
      }
      texts.append(text)
    }
    return texts
  }

  /// Checks the `version` key: required, and equal to the version this build reads.
  package func checkVersion() throws(FieldError) {
    let version = try required(integer("version", in: 0...Int(Int32.max)), "version")
    guard version == Defaults.profileVersion else {
      throw FieldError(keyPath: path("version"), kind: .version(found: version))
    }
  }
}

extension Units {
  /// A bound of a range, for messages: `1`, `0.5`.
  static func decimalText(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
  }
}
