import Jetsim

/// Seeded mutations of input files: bytes, tokens and spans for any file, and line- and field-level
/// changes for CSV and TSV, so that many mutants still parse and reach the code behind the parser.
struct Mutator {
  var random: RandomStream

  /// Values that have broken parsers before: boundaries, overflows, odd units, control characters,
  /// line ends, duplicate keys, formulas and long text.
  static let tokens: [String] = [
    "{", "}", "[", "]", ",", ":", "\"", "0", "-1", "1e400", "-0", "null", "true", "\"\"",
    "99999999999999999999", "9223372036854775807", "-9223372036854775808", "4398046511104",
    "\"-5MB\"", "\"0s\"", "\"1.5GB\"", "\"999999999999GB\"", "\"1h30m\"", "\"100%\"", "\"open\"",
    "\"1e-300\"", "1e-300", "\"2400h\"", "\"1..99999999\"", "\"seeds\"", "\"name\": \"x\", ",
    "\"version\": 1, ", "\n", "\r\n", "\r", "\t", "é", "\\u0000", "\u{0}", "\"\\n\"",
    "=cmd|' /C'!A0",
    String(repeating: "1221000h", count: 40), String(repeating: "x", count: 3000), "../../..",
    "/dev/null", "9999-12-31 23:59:59", "0000-00-00 00:00:00", "-9000000000000000",
  ]

  /// Values for one CSV or TSV field.
  static let fieldTokens: [String] = [
    "", "0", "-5", "1", "4398046511104", "99999999999999999999", "open", "home", "wake", "allocate",
    "free", "reboot", "interrupt", "mode-start", "mode-stop", "force-quit", "lock", "unlock",
    "com.example.music", "com.example.mail", "com.example.unknown", "5s", "0s", "-1MB", "1PB",
    "300MB", "audio", "voip", "\"a,b\"", "\"", "Opened", "Closed", "Minimized", "1",
    "2019-01-01 00:00:00", "9999-12-31 23:59:59", "1546300800", "vm-pageshortage", "é", "\r",
  ]

  init(seed: UInt64, input: Int) {
    random = RandomStream(seed: seed, stream: UInt64(input))
  }

  mutating func below(_ bound: Int) -> Int { random.below(max(1, bound)) }

  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

  /// One to three changes anywhere in the bytes: a span deleted, a token inserted, a span copied
  /// elsewhere, a byte replaced, or the file cut short.
  mutating func bytes(_ original: [UInt8]) -> [UInt8] {
    var bytes = original
    for _ in 0..<(1 + below(3)) {
      guard !bytes.isEmpty else { break }
      let position = below(bytes.count)
      switch below(6) {
      case 0: bytes.removeSubrange(position..<min(bytes.count, position + 1 + below(12)))
      case 1, 2: bytes.insert(contentsOf: Array(pick(Self.tokens).utf8), at: position)
      case 3:
        let span = Array(bytes[position..<min(bytes.count, position + 1 + below(40))])
        bytes.insert(contentsOf: span, at: below(bytes.count))
      case 4: bytes[position] = UInt8(truncatingIfNeeded: random.next())
      default: bytes.removeSubrange(position...)
      }
    }
    return bytes
  }

  /// JSON values that parse: boundaries, odd units and names a profile may not hold.
  static let values: [String] = [
    "0", "-1", "1", "0.5", "1e400", "-0", "1e-300", "null", "true", "false", "[]", "{}", "\"\"",
    "99999999999999999999", "9223372036854775807", "4398046511104", "\"-5MB\"", "\"0s\"",
    "\"1.5GB\"",
    "\"999999999999GB\"", "\"1h30m\"", "\"2400h\"", "\"1PB\"", "\"1..99999999\"", "\"5..1\"",
    "\"x\\ny\"", "\"=cmd\"", "\"../../../etc/passwd\"",
    "\"\(String(repeating: "x", count: 3000))\"",
    "[\"1GB\", \"1GB\"]", "\"jetsam\"", "\"lmkd\"", "\"audio\"", "\"suspended\"", "\"idle-daemon\"",
    "\"com.example.notes\"", "\"com.example.unknown\"", "\"\\u0000\"", "\"é\"", "[[]]",
    "{\"a\": 1}",
  ]

  /// One to three JSON values (strings, including keys, and numbers) replaced by others, so the
  /// document often still parses; one time in four, changes to its bytes instead.
  mutating func json(_ original: [UInt8]) -> [UInt8] {
    guard below(4) > 0 else { return bytes(original) }
    var bytes = original
    for _ in 0..<(below(2) == 0 ? 1 : 1 + below(3)) {
      let tokens = Self.valueRanges(bytes)
      // Values mostly; a key now and then, by another string.
      let keys = below(5) == 0
      let chosen = tokens.filter { $0.isKey == keys }
      guard !chosen.isEmpty else { break }
      let replacement: [UInt8]
      if keys {
        replacement = Array(pick(Self.values.filter { $0.hasPrefix("\"") }).utf8)
      } else if below(2) == 0 {
        // Another value of the same document: often of the right type, so the file still loads
        // and the run behind it is reached with odd but valid settings.
        replacement = Array(bytes[pick(chosen).range])
      } else {
        replacement = Array(pick(Self.values).utf8)
      }
      bytes.replaceSubrange(pick(chosen).range, with: replacement)
    }
    return bytes
  }

  /// The ranges of the strings and numbers in JSON text, and whether each is a key.
  static func valueRanges(_ bytes: [UInt8]) -> [(range: Range<Int>, isKey: Bool)] {
    var ranges: [(range: Range<Int>, isKey: Bool)] = []
    var position = 0
    while position < bytes.count {
      let start = position
      switch bytes[position] {
      case UInt8(ascii: "\""):
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
          position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        position = min(bytes.count, position + 1)
        var next = position
        while next < bytes.count, [9, 10, 13, 32].contains(bytes[next]) { next += 1 }
        ranges.append((start..<position, next < bytes.count && bytes[next] == UInt8(ascii: ":")))
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        while position < bytes.count,
          bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: ".")
            || bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "+")
            || bytes[position] &- 48 < 10
        {
          position += 1
        }
        ranges.append((start..<position, false))
      default: position += 1
      }
    }
    return ranges
  }

  /// One to three changes to the lines and fields of CSV or TSV text (`separator`), or, one time in
  /// five, changes to its bytes.
  mutating func table(_ original: [UInt8], separator: Character) -> [UInt8] {
    guard below(5) > 0 else { return bytes(original) }
    var lines = String(decoding: original, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    for _ in 0..<(1 + below(3)) {
      guard lines.count > 1 else { break }
      let line = below(lines.count)
      switch below(5) {
      case 0: lines.remove(at: line)
      case 1: lines.insert(lines[line], at: below(lines.count + 1))
      case 2 where line + 1 < lines.count: lines.swapAt(line, line + 1)
      default:
        var fields = lines[line].split(separator: separator, omittingEmptySubsequences: false).map(
          String.init)
        fields[below(fields.count)] = pick(Self.fieldTokens)
        if below(8) == 0 { fields.append(pick(Self.fieldTokens)) }
        lines[line] = fields.joined(separator: String(separator))
      }
    }
    let ends = ["\n", "\n", "\n", "\r\n"]
    return Array(lines.joined(separator: pick(ends)).utf8)
  }
}
