import JetsimCore

/// Writing JSON: string literals escaped as RFC 8259 requires. Every JSON file jetsim writes
/// (`run.json`, profiles, manifests) quotes its strings here.
package enum JSONText {
  /// `text` as a JSON string literal, with quotes, backslashes and control characters escaped.
  package static func quote(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 2)
    appendQuoted(text, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `text` as a JSON string literal: the runs of bytes that need no escape are copied
  /// whole, so a name costs a copy, not a step a character; they are found eight bytes at a time.
  static func appendQuoted(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      let raw = UnsafeRawPointer(base)
      var start = 0
      var index = 0
      while index < bytes.count {
        if index + 8 <= bytes.count,
          !needsEscape(
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
        {
          index += 8
          continue
        }
        let byte = base[index]
        index += 1
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - 1 - start))
        appendEscape(of: byte, to: &out)
        start = index
      }
      out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: bytes.count - start))
    }
    out.append(UInt8(ascii: "\""))
  }

  /// Appends `value`'s decimal digits, as `String(value)` writes them: last first into a buffer
  /// on the stack, then appended at once.
  static func appendInteger(_ value: Int, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      var magnitude = value.magnitude
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if value < 0 {
        start -= 1
        digits[start] = UInt8(ascii: "-")
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// Appends the indent of nesting `level`: two spaces a level.
  static func appendIndent(_ level: Int, to out: inout [UInt8]) {
    let count = 2 * level
    guard count > spaces.count else {
      spaces.withUnsafeBufferPointer {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count]))
      }
      return
    }
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
  }

  private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

  /// Whether any of the eight bytes of `word` is a control character, a quote or a backslash (the
  /// classic tests for a zero byte and a byte below a bound, which are exact as to whether there
  /// is one).
  @inline(__always) private static func needsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
    let control = (word &- 0x20 &* ones) & ~word & highs != 0
    return control || hasZero(word ^ (0x22 &* ones)) || hasZero(word ^ (0x5C &* ones))
  }

  /// The escape of a quote, a backslash or a control character (`\u00XX`, lowercase hex).
  private static func appendEscape(of byte: UInt8, to out: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
    case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
    case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
    case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
    case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
    default:
      let hex = Array("0123456789abcdef".utf8)
      out += Array(#"\u00"#.utf8)
      out.append(hex[Int(byte >> 4)])
      out.append(hex[Int(byte & 0xF)])
    }
  }
}

extension JSONText {
  /// `value` as JSON text, pretty-printed with two spaces an indent level, members in their order,
  /// numbers as their literals; ends with a line break.
  package static func render(_ value: JSONValue) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(4096)
    render(value, depth: 0, into: &out)
    out.append(UInt8(ascii: "\n"))
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `value` as `render(_:)` writes it at nesting `depth`, with no line break after it.
  static func render(_ value: JSONValue, depth: Int, into out: inout [UInt8]) {
    switch value {
    case .null: out += "null".utf8
    case .bool(let flag): out += (flag ? "true" : "false").utf8
    case .number(let literal): out += literal.utf8
    case .string(let text): appendQuoted(text, to: &out)
    case .array(let elements):
      render(elements, open: "[", close: "]", depth: depth, into: &out) { _, _ in
      } value: {
        $0.value
      }
    case .object(let members):
      render(members, open: "{", close: "}", depth: depth, into: &out) { member, out in
        appendQuoted(member.key, to: &out)
        out += ": ".utf8
      } value: {
        $0.node.value
      }
    }
  }

  /// A list or an object: `open`, each item on a line of its own (a member after its quoted key,
  /// which `prefix` writes), then `close`; `open` and `close` together when it is empty.
  private static func render<Items: Collection>(
    _ items: Items, open: Unicode.Scalar, close: Unicode.Scalar, depth: Int,
    into out: inout [UInt8], prefix: (Items.Element, inout [UInt8]) -> Void,
    value: (Items.Element) -> JSONValue
  ) {
    guard !items.isEmpty else {
      out.append(UInt8(ascii: open))
      out.append(UInt8(ascii: close))
      return
    }
    out.append(UInt8(ascii: open))
    out.append(UInt8(ascii: "\n"))
    var remaining = items.count
    for element in items {
      appendIndent(depth + 1, to: &out)
      prefix(element, &out)
      render(value(element), depth: depth + 1, into: &out)
      remaining -= 1
      if remaining > 0 { out.append(UInt8(ascii: ",")) }
      out.append(UInt8(ascii: "\n"))
    }
    appendIndent(depth, to: &out)
    out.append(UInt8(ascii: close))
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
