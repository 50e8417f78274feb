import Jetsim

/// Seeded mutations of input files: bytes, tokens and spans for any file, and line- and field-level
/// changes for CSV and TSV, so that many mutants still parse and reach the code behind the parser.
struct Mutator {
  var random: RandomStream
  /// Whether this input grew a list or a table to many extreme entries (`totals`), whose sum,
  /// product or count passes what jetsim accepts though each entry is in range.
  var grewTotals = false

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
    "\"role\": \"leader\", ", "\"coalition\": \"com.example.mail\", ",
  ]

  /// Values for one CSV or TSV field.
  static let fieldTokens: [String] = [
    "", "0", "-5", "1", "4398046511104", "99999999999999999999", "open", "home", "wake", "allocate",
    "free", "reboot", "interrupt", "mode-start", "mode-stop", "force-quit", "lock", "unlock",
    "assert", "release", "dirty", "clean", "21", "210",
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
  /// document often still parses; one time in four, changes to its bytes instead, and one time in
  /// eight a list grown to entries whose total overflows (`totals`).
  mutating func json(_ original: [UInt8]) -> [UInt8] {
    if below(8) == 0, let grown = totals(original) { return grown }
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

  // MARK: - Totals: many entries, each in range, whose sum, product or count is not

  /// Whole numbers at or near the largest each field accepts: 2^40 (1 PB in KB, page counts; twice
  /// as often), 2^34 and 2^36 (the most pages of 64 KB and 16 KB a report may give), 2^42 (ms, 139
  /// years).
  static let extremeNumbers = [
    "1099511627776", "1099511627776", "17179869184", "68719476736", "4398046511104",
  ]

  /// How many copies of an entry: enough that 1 TB entries pass 1 PB, few enough to stay fast;
  /// one time in sixteen, 2^17 and more, so that 2^46 KB entries (2^40 pages of 64 KB) pass
  /// `Int.max`.
  mutating func copies() -> Int { below(16) == 0 ? 131_072 + below(4_096) : 1_025 + below(3_000) }

  /// Numbers whose largest accepted value is not a size or a count: the largest page size.
  static let largestByKey = ["pageSize": "65536"]

  /// The largest accepted value of the same kind as `text`, if it is a size, a duration or a whole
  /// number.
  mutating func extreme(_ text: String) -> String? {
    if Units.kilobytes(text) != nil { return "1PB" }
    if Units.milliseconds(text) != nil { return "1221000h" }
    return Int(text) != nil ? pick(Self.extremeNumbers) : nil
  }

  /// The document with one of its lists of objects (processes, apps, wakes, snapshot entries; any
  /// list if it has none) grown to `copies()` copies of one entry, every size, duration and whole
  /// number in the entry at its largest, and names and pids made unique; nil if it does not parse
  /// or holds no non-empty list.
  /// A JetsamEvent report's header line is kept and its body grown.
  mutating func totals(_ original: [UInt8]) -> [UInt8]? {
    var header: [UInt8] = []
    var body = original[...]
    if (try? JSONParser.parse(body)) == nil, let end = body.firstIndex(of: UInt8(ascii: "\n")) {
      header = Array(body[...end])
      body = body[(end + 1)...]
    }
    guard let root = try? JSONParser.parse(body) else { return nil }
    var objects = Self.countLists(root.value, ofObjects: true)
    if objects == 0 { objects = Self.countLists(root.value, ofObjects: false) }
    guard objects > 0 else { return nil }
    var chosen = below(objects)
    let copies = copies()
    let ofObjects = Self.countLists(root.value, ofObjects: true) > 0
    grewTotals = true
    let grown = grow(root.value, &chosen, copies, ofObjects)
    return header + Array(JSONText.render(Self.largestByKey(grown)).utf8)
  }

  /// `value` with the numbers of `largestByKey`, at any depth, at their largest.
  private static func largestByKey(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements): .array(elements.map { JSONNode(largestByKey($0.value)) })
    case .object(let members):
      .object(
        members.map { member in
          if case .number = member.node.value, let largest = Self.largestByKey[member.key] {
            return JSONMember(key: member.key, node: JSONNode(.number(largest)))
          }
          return JSONMember(key: member.key, node: JSONNode(largestByKey(member.node.value)))
        })
    default: value
    }
  }

  /// The non-empty lists in `value` (only those whose first entry is an object, if `ofObjects`).
  private static func countLists(_ value: JSONValue, ofObjects: Bool) -> Int {
    switch value {
    case .array(let elements):
      (isCandidate(elements, ofObjects) ? 1 : 0)
        + elements.reduce(0) { $0 + countLists($1.value, ofObjects: ofObjects) }
    case .object(let members):
      members.reduce(0) { $0 + countLists($1.node.value, ofObjects: ofObjects) }
    default: 0
    }
  }

  private static func isCandidate(_ elements: [JSONNode], _ ofObjects: Bool) -> Bool {
    guard let first = elements.first else { return false }
    return !ofObjects || first.members != nil
  }

  /// `value` with its `chosen`-th candidate list (in document order) grown.
  private mutating func grow(
    _ value: JSONValue, _ chosen: inout Int, _ copies: Int, _ ofObjects: Bool
  ) -> JSONValue {
    switch value {
    case .array(let elements):
      if Self.isCandidate(elements, ofObjects) {
        if chosen == 0 {
          chosen = -1
          let entry = maximized(elements[0].value)
          return .array((0..<copies).map { JSONNode(Self.uniqued(entry, $0)) })
        }
        chosen -= 1
      }
      var grown: [JSONNode] = []
      for element in elements {
        grown.append(JSONNode(grow(element.value, &chosen, copies, ofObjects), line: element.line))
      }
      return .array(grown)
    case .object(let members):
      var grown: [JSONMember] = []
      for member in members {
        let node = JSONNode(grow(member.node.value, &chosen, copies, ofObjects))
        grown.append(JSONMember(key: member.key, node: node))
      }
      return .object(grown)
    default: return value
    }
  }

  /// `value` with each of its sizes, durations and whole numbers, one time in two, at its largest
  /// (all of them would put small-ranged fields such as a priority out of range every time).
  private mutating func maximized(_ value: JSONValue) -> JSONValue {
    switch value {
    case .number(let literal) where below(2) == 0:
      return extreme(literal).map(JSONValue.number) ?? value
    case .string(let text) where below(2) == 0:
      return extreme(text).map(JSONValue.string) ?? value
    case .object(let members):
      var changed: [JSONMember] = []
      for member in members {
        changed.append(JSONMember(key: member.key, node: JSONNode(maximized(member.node.value))))
      }
      return .object(changed)
    default: return value
    }
  }

  /// The entry with its `name`, `id` and `pid` made unique by `index`, so that lists refusing a
  /// name twice reach their sums.
  private static func uniqued(_ value: JSONValue, _ index: Int) -> JSONValue {
    guard case .object(let members) = value else { return value }
    return .object(
      members.map { member in
        switch (member.key, member.node.value) {
        case ("name", .string(let text)), ("id", .string(let text)):
          JSONMember(key: member.key, node: JSONNode(.string("\(text)-\(index)")))
        case ("pid", .number): JSONMember(key: member.key, node: JSONNode(.number("\(index + 1)")))
        default: member
        }
      })
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
  /// five, changes to its bytes; one time in eight, a line repeated `copies` times with one field
  /// at an extreme in-range value, so that sums over the lines overflow.
  mutating func table(_ original: [UInt8], separator: Character) -> [UInt8] {
    guard below(5) > 0 else { return bytes(original) }
    var lines = String(decoding: original, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    if below(8) == 0, lines.count > 1 {
      let line = 1 + below(lines.count - 1)
      var fields = lines[line].split(separator: separator, omittingEmptySubsequences: false).map(
        String.init)
      let field = below(fields.count)
      fields[field] = extreme(fields[field]) ?? pick(Self.extremeNumbers)
      lines.insert(
        contentsOf: repeatElement(fields.joined(separator: String(separator)), count: copies()),
        at: line)
      grewTotals = true
      return Array(lines.joined(separator: "\n").utf8)
    }
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
