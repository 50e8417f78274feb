import JetsimCore

/// A strict JSON parser (RFC 8259): no trailing commas, no comments, no duplicate keys in an object,
/// valid UTF-8, control characters escaped in strings, nesting at most `maxDepth` deep. Errors say
/// where (line and column) and what, in words a person can act on.
///
/// Foundation's parser accepts trailing commas and keeps one of two duplicate keys without a word;
/// a profile format that promises "a typo never passes silently" cannot use it.
package enum JSONParser {
  /// Why text is not JSON, and where.
  package struct SyntaxError: Error, Equatable, CustomStringConvertible {
    package var line: Int
    package var column: Int
    package var message: String

    package var description: String { "line \(line), column \(column): \(message)" }
  }

  /// The deepest nesting of arrays and objects accepted.
  package static let maxDepth = 128

  /// The document in `bytes`.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  package static func parse(_ bytes: some Collection<UInt8>) throws(SyntaxError) -> JSONNode {
    let array = Array(bytes)
    do {
      return try array.withUnsafeBufferPointer { buffer in
        var parser = Cursor(buffer)
        parser.skipByteOrderMark()
        let node = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.atEnd else {
          throw parser.error("text after the end of the JSON value; remove it")
        }
        return node
      }
    } catch let error as SyntaxError {
      throw error
    } catch {
      throw SyntaxError(line: 1, column: 1, message: "\(error)")
    }
  }

  private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var line = 1
    var lineStart = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { position >= bytes.count }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    func error(_ message: String) -> SyntaxError {
      SyntaxError(line: line, column: column(of: (line, lineStart, position)), message: message)
    }

    /// The current position, kept to name it in an error later: its line, where that line starts,
    /// and the byte.
    typealias Place = (line: Int, lineStart: Int, position: Int)

    var place: Place { (line, lineStart, position) }

    /// The column of `place`, counted when an error names it. Columns count characters, not bytes:
    /// continuation bytes of UTF-8 are not counted.
    func column(of place: Place) -> Int {
      var column = 1
      var index = place.lineStart
      while index < min(place.position, bytes.count) {
        if bytes[index] & 0xC0 != 0x80 { column += 1 }
        index += 1
      }
      return column
    }

    mutating func skipByteOrderMark() {
      if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    mutating func skipWhitespace() {
      while let byte = current {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
          position += 1
        case UInt8(ascii: "\n"):
          position += 1
          line += 1
          lineStart = position
        default:
          return
        }
      }
    }

    mutating func value(depth: Int) throws(SyntaxError) -> JSONNode {
      skipWhitespace()
      guard let byte = current else { throw error("the text ends where a value was expected") }
      let startLine = line
      switch byte {
      case UInt8(ascii: "{"):
        guard depth < JSONParser.maxDepth else { throw error("nested more than 128 deep") }
        return JSONNode(.object(try object(depth: depth + 1)), line: startLine)
      case UInt8(ascii: "["):
        guard depth < JSONParser.maxDepth else { throw error("nested more than 128 deep") }
        return JSONNode(.array(try array(depth: depth + 1)), line: startLine)
      case UInt8(ascii: "\""):
        return JSONNode(.string(try string()), line: startLine)
      case UInt8(ascii: "t"):
        try literal("true")
        return JSONNode(.bool(true), line: startLine)
      case UInt8(ascii: "f"):
        try literal("false")
        return JSONNode(.bool(false), line: startLine)
      case UInt8(ascii: "n"):
        try literal("null")
        return JSONNode(.null, line: startLine)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return JSONNode(.number(try number()), line: startLine)
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        throw error("a value was expected before '\(Character(Unicode.Scalar(byte)))'")
      case UInt8(ascii: ","):
        throw error("a value was expected before ','")
      default:
        throw error(
          "unexpected \(describe(byte)); values are objects, lists, strings in double quotes, numbers, true, false or null"
        )
      }
    }

    func describe(_ byte: UInt8) -> String {
      byte >= 0x21 && byte < 0x7F
        ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    mutating func literal(_ word: StaticString) throws(SyntaxError) {
      let count = word.utf8CodeUnitCount
      let matches = word.withUTF8Buffer { expected in
        position + count <= bytes.count
          && (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
      }
      guard matches else { throw error("unexpected text; did you mean \(word)?") }
      position += count
    }

    mutating func object(depth: Int) throws(SyntaxError) -> [JSONMember] {
      var members: [JSONMember] = []
      // Where each member's key is, for the error that names both of a duplicate.
      var places: [Place] = []
      // Each key's member, once an object is large enough that a linear search would cost.
      var seen: [String: Int] = [:]
      if opensEmpty(closingWith: "}") { return members }
      while true {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else {
          if atEnd { throw error("the text ends inside an object; add the closing '}'") }
          if current == UInt8(ascii: "}") {
            throw error("a trailing comma before '}'; remove the comma")
          }
          throw error("a key in double quotes was expected")
        }
        let place = self.place
        let key = try string()
        let earlier: Int? =
          members.count < 16 ? members.firstIndex(where: { $0.key == key }) : seen[key]
        if let earlier {
          let first = places[earlier]
          throw SyntaxError(
            line: place.line, column: column(of: place),
            message:
              "the key \"\(key.excerpt(limit: 40))\" appears twice in one object (first at line \(first.line), column \(column(of: first))); keep one"
          )
        }
        if members.count == 15 {
          for (index, member) in members.enumerated() { seen[member.key] = index }
        }
        if members.count >= 15 { seen[key] = members.count }
        places.append(place)
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw error("':' was expected after the key") }
        position += 1
        members.append(JSONMember(key: key, node: try value(depth: depth)))
        if try endsAfterItem(close: "}", inside: "an object") { return members }
      }
    }

    mutating func array(depth: Int) throws(SyntaxError) -> [JSONNode] {
      var elements: [JSONNode] = []
      if opensEmpty(closingWith: "]") { return elements }
      while true {
        skipWhitespace()
        if current == UInt8(ascii: "]") {
          throw error("a trailing comma before ']'; remove the comma")
        }
        elements.append(try value(depth: depth))
        if try endsAfterItem(close: "]", inside: "a list") { return elements }
      }
    }

    /// Steps over an object's or a list's opening bracket; true when `close` follows at once (an
    /// empty one), which is stepped over too.
    mutating func opensEmpty(closingWith close: Unicode.Scalar) -> Bool {
      position += 1
      skipWhitespace()
      guard current == UInt8(ascii: close) else { return false }
      position += 1
      return true
    }

    /// Reads what follows a member or an element: a comma, after which another comes, or `close`,
    /// which ends the object or list (true). `container` names it in the error where the text ends.
    mutating func endsAfterItem(close: Unicode.Scalar, inside container: String) throws(SyntaxError)
      -> Bool
    {
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","):
        position += 1
        return false
      case UInt8(ascii: close):
        position += 1
        return true
      case nil: throw error("the text ends inside \(container); add the closing '\(close)'")
      default: throw error("',' or '\(close)' was expected after a value; is a comma missing?")
      }
    }

    mutating func string() throws(SyntaxError) -> String {
      position += 1  // opening quote
      var utf8: [UInt8] = []
      while true {
        guard let byte = current else {
          throw error("the text ends inside a string; close the quote")
        }
        switch byte {
        case UInt8(ascii: "\""):
          position += 1
          guard let text = String(validating: utf8, as: UTF8.self) else {
            throw error("a string that is not valid UTF-8")
          }
          return text
        case UInt8(ascii: "\\"):
          position += 1
          try escape(into: &utf8)
        case 0..<0x20:
          throw error(
            byte == 10
              ? "a line break inside a string; close the quote, or write \\n"
              : "a control character inside a string; write it as an escape such as \\t")
        default:
          utf8.append(byte)
          position += 1
        }
      }
    }

    mutating func escape(into utf8: inout [UInt8]) throws(SyntaxError) {
      guard let byte = current else { throw error("the text ends inside a string") }
      position += 1
      switch byte {
      case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
      case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
      case UInt8(ascii: "b"): utf8.append(8)
      case UInt8(ascii: "f"): utf8.append(12)
      case UInt8(ascii: "n"): utf8.append(10)
      case UInt8(ascii: "r"): utf8.append(13)
      case UInt8(ascii: "t"): utf8.append(9)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
          guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
            bytes[position + 1] == UInt8(ascii: "u")
          else { throw error("an unpaired surrogate escape in a string") }
          position += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else {
            throw error("an unpaired surrogate escape in a string")
          }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
          throw error("an unpaired surrogate escape in a string")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
        utf8.append(contentsOf: String(Character(unicode)).utf8)
      default:
        throw error("an unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
      }
    }

    mutating func hex4() throws(SyntaxError) -> UInt32 {
      var value: UInt32 = 0
      for _ in 0..<4 {
        guard let byte = current, let digit = Self.hexValue(byte) else {
          throw error("\\u must be followed by four hexadecimal digits")
        }
        value = value << 4 | digit
        position += 1
      }
      return value
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
      default: nil
      }
    }

    mutating func number() throws(SyntaxError) -> String {
      let start = position
      if current == UInt8(ascii: "-") { position += 1 }
      guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
        throw error("a digit was expected in a number")
      }
      if first == UInt8(ascii: "0") {
        position += 1
        if let next = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
          throw error("a number with a leading zero; write it without")
        }
      } else {
        digits()
      }
      if current == UInt8(ascii: ".") {
        position += 1
        guard digits() > 0 else { throw error("a digit was expected after the decimal point") }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        position += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
        guard digits() > 0 else { throw error("a digit was expected in the exponent") }
      }
      guard position - start <= 400 else { throw error("a number more than 400 characters long") }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    @discardableResult
    mutating func digits() -> Int {
      var count = 0
      while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        position += 1
        count += 1
      }
      return count
    }
  }
}
