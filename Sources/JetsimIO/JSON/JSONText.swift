import JetsimCore

/// Writing JSON: string literals escaped as RFC 8259 requires. Every JSON file jetsim writes
/// (`run.json`, profiles, manifests) quotes its strings here.
package enum JSONText {
  /// `text` as a JSON string literal, with quotes, backslashes and control characters escaped.
  package static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        out += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

extension JSONText {
  /// `value` as JSON text, pretty-printed with two spaces an indent level, members in their order,
  /// numbers as their literals; ends with a line break.
  package static func render(_ value: JSONValue) -> String {
    var out = ""
    render(value, indent: "", into: &out)
    return out + "\n"
  }

  private static func render(_ value: JSONValue, indent: String, into out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .number(let literal): out += literal
    case .string(let text): out += quote(text)
    case .array(let elements):
      render(elements, open: "[", close: "]", indent: indent, into: &out) { ("", $0.value) }
    case .object(let members):
      render(members, open: "{", close: "}", indent: indent, into: &out) {
        (quote($0.key) + ": ", $0.node.value)
      }
    }
  }

  /// A list or an object: `open`, each item on a line of its own (a member after its quoted key,
  /// the `prefix`), then `close`; `open` and `close` together when it is empty.
  private static func render<Items: Collection>(
    _ items: Items, open: String, close: String, indent: String, into out: inout String,
    item: (Items.Element) -> (prefix: String, value: JSONValue)
  ) {
    guard !items.isEmpty else {
      out += open + close
      return
    }
    out += open + "\n"
    for (index, element) in items.enumerated() {
      let (prefix, value) = item(element)
      out += indent + "  " + prefix
      render(value, indent: indent + "  ", into: &out)
      out += index + 1 < items.count ? ",\n" : "\n"
    }
    out += indent + close
  }
}

extension JSONValue {
  /// An object of `pairs`, in order: for building documents to write.
  package static func fields(_ pairs: [(String, JSONValue)]) -> JSONValue {
    .object(pairs.map { JSONMember(key: $0.0, node: JSONNode($0.1)) })
  }

  /// An array of `values`.
  package static func list(_ values: [JSONValue]) -> JSONValue {
    .array(values.map { JSONNode($0) })
  }

  /// A whole number.
  package static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

  /// A number with `digits` decimals (`null` when undefined or not finite).
  package static func decimal(_ value: Double?, digits: Int = 4) -> JSONValue {
    guard let value, value.isFinite else { return .null }
    return .number(FixedPoint.format(value, digits: digits))
  }
}
