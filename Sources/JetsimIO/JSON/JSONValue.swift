import JetsimCore

/// A JSON document as jetsim reads it: objects keep their members in file order (so errors name the
/// first offending key the same way every time), numbers keep their literal text (so whole numbers
/// are read exactly, whatever their size), and every value knows the line it starts on.
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number, as written (`-12`, `1.5e3`).
  case number(String)
  case string(String)
  case array([JSONNode])
  case object([JSONMember])

  /// What kind of value this is, for messages: "a string", "an object".
  package var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "true or false"
    case .number: "a number"
    case .string: "a string"
    case .array: "a list"
    case .object: "an object"
    }
  }
}

/// A value and the line it starts on (1-based).
package struct JSONNode: Sendable, Equatable {
  package var value: JSONValue
  package var line: Int

  package init(_ value: JSONValue, line: Int = 1) {
    self.value = value
    self.line = line
  }

  /// The text of a string value.
  package var string: String? {
    if case .string(let text) = value { return text }
    return nil
  }

  /// The members of an object value, in file order.
  package var members: [JSONMember]? {
    if case .object(let members) = value { return members }
    return nil
  }

  /// The elements of an array value.
  package var elements: [JSONNode]? {
    if case .array(let elements) = value { return elements }
    return nil
  }

  /// A whole number in `range`, read exactly from its literal (`12`, `-3`; not `1.0` or `1e3`).
  package func integer(in range: ClosedRange<Int>) -> Int? {
    guard case .number(let literal) = value, let value = Int(literal), range.contains(value) else {
      return nil
    }
    return value
  }

  /// A whole number from 0 to `UInt64.max`, read exactly.
  package var unsigned: UInt64? {
    guard case .number(let literal) = value else { return nil }
    return UInt64(literal)
  }

  /// A finite number.
  package var double: Double? {
    guard case .number(let literal) = value, let value = Double(literal), value.isFinite else {
      return nil
    }
    return value
  }

  /// The value of the member named `key`, for an object.
  package subscript(key: String) -> JSONNode? {
    members?.first { $0.key == key }?.node
  }

  /// The value, briefly, for messages: `"350MB"`, `12`, `a list`.
  package var summary: String {
    switch value {
    case .string(let text): "\"\(text.excerpt(limit: 60))\""
    case .number(let literal): literal.excerpt(limit: 30)
    case .bool(let flag): "\(flag)"
    case .null: "null"
    case .array, .object: value.kindName
    }
  }
}

/// One member of an object: its key and value.
package struct JSONMember: Sendable, Equatable {
  package var key: String
  package var node: JSONNode

  package init(key: String, node: JSONNode) {
    self.key = key
    self.node = node
  }
}
