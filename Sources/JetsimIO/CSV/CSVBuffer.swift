import JetsimCore

/// Bytes of CSV being built: integers written digit by digit, text quoted per RFC 4180 where it needs
/// it. A row is written through one raw pointer after one capacity check (`appendRecord`), so writing
/// costs no allocation, reference counting or bounds check per byte.
package struct CSVBuffer: Sendable {
  private var storage: [UInt8]
  /// The number of bytes written.
  package private(set) var count = 0

  /// An empty buffer with room for `capacity` bytes before it grows.
  package init(capacity: Int = 1 << 16) {
    storage = [UInt8](repeating: 0, count: max(capacity, 1024))
  }

  /// The bytes written.
  package var bytes: [UInt8] { Array(storage[..<count]) }

  /// Forgets the bytes, keeping the room.
  package mutating func removeAll() { count = 0 }

  /// Forgets the first `prefix` bytes, moving the rest to the front.
  package mutating func removeFirst(_ prefix: Int) {
    precondition(0 <= prefix && prefix <= count, "removing more bytes than a CSV buffer holds")
    let rest = count - prefix
    storage.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress, rest > 0 else { return }
      (base).update(from: base + prefix, count: rest)
    }
    count = rest
  }

  /// Calls `body` with the bytes written, without copying them.
  package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
  }

  /// Appends at most `maxBytes` bytes, written by `body` through a cursor.
  package mutating func appendRecord(maxBytes: Int, _ body: (inout CSVCursor) -> Void) {
    if count + maxBytes > storage.count {
      storage.append(
        contentsOf: repeatElement(0, count: max(storage.count, count + maxBytes - storage.count)))
    }
    let start = count
    count = storage.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return start }
      var cursor = CSVCursor(base: base, position: start)
      body(&cursor)
      precondition(cursor.position - start <= maxBytes, "a CSV record overran its room")
      return cursor.position
    }
  }

  /// Appends bytes as they are.
  package mutating func append(raw: [UInt8]) {
    appendRecord(maxBytes: raw.count) { $0.append(raw) }
  }

  /// Appends a field separator.
  package mutating func comma() { appendRecord(maxBytes: 1) { $0.comma() } }

  /// Ends the record.
  package mutating func newline() { appendRecord(maxBytes: 1) { $0.newline() } }

  /// Appends `value` in decimal.
  package mutating func append(_ value: Int) { appendRecord(maxBytes: 20) { $0.append(value) } }

  /// Appends `text` as one field (see `encode(field:formulaSafe:)`).
  package mutating func append(field text: String, formulaSafe: Bool = true) {
    append(raw: Self.encode(field: text, formulaSafe: formulaSafe))
  }

  /// `text` as the bytes of one CSV field: quoted, with quotes doubled, if it holds a comma, a quote
  /// or a line break. With `formulaSafe` (reports), text a spreadsheet would take for a formula (it
  /// starts with `=`, `+`, `-`, `@`, a tab or a carriage return, and is not a number) gets a leading
  /// `'`, so it shows as the text it is (OWASP, "CSV injection"); traces that jetsim reads back keep
  /// their text exactly.
  package static func encode(field text: String, formulaSafe: Bool = true) -> [UInt8] {
    var utf8 = Array(text.utf8)
    if formulaSafe, let first = utf8.first, formulaStarts.contains(first), !isNumber(utf8) {
      utf8.insert(UInt8(ascii: "'"), at: 0)
    }
    let needsQuotes = utf8.contains {
      $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13
    }
    guard needsQuotes else { return utf8 }
    var quoted: [UInt8] = [UInt8(ascii: "\"")]
    for byte in utf8 {
      quoted.append(byte)
      if byte == UInt8(ascii: "\"") { quoted.append(byte) }
    }
    quoted.append(UInt8(ascii: "\""))
    return quoted
  }

  /// The first bytes that make a spreadsheet read a cell as a formula.
  private static let formulaStarts: Set<UInt8> = [
    UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13,
  ]

  /// Whether `bytes` is a decimal number: a sign, digits with at most one point, an exponent.
  private static func isNumber(_ bytes: [UInt8]) -> Bool {
    var position = 0
    func digits() -> Int {
      let start = position
      while position < bytes.count, bytes[position] &- 48 < 10 { position += 1 }
      return position - start
    }
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
    {
      position += 1
    }
    var mantissa = digits()
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard digits() > 0 else { return false }
    }
    return position == bytes.count
  }

  /// The buffer's text.
  package var text: String { String(decoding: storage[..<count], as: UTF8.self) }

  /// Appends a row of text fields (a header, a small table's row).
  package mutating func appendRow(_ columns: [String]) {
    for (index, column) in columns.enumerated() {
      if index > 0 { comma() }
      append(field: column)
    }
    newline()
  }
}

/// Writes one CSV record into a buffer's reserved room (`CSVBuffer.appendRecord`).
package struct CSVCursor {
  let base: UnsafeMutablePointer<UInt8>
  var position: Int

  /// Appends a field separator.
  package mutating func comma() {
    base[position] = UInt8(ascii: ",")
    position += 1
  }

  /// Ends the record.
  package mutating func newline() {
    base[position] = UInt8(ascii: "\n")
    position += 1
  }

  /// Appends bytes as they are.
  package mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// Appends bytes as they are.
  package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    (base + position).update(from: source, count: bytes.count)
    position += bytes.count
  }

  /// Appends `value` in decimal (at most 20 bytes), two digits at a time.
  package mutating func append(_ value: Int) {
    var magnitude = value.magnitude
    if value < 0 {
      base[position] = UInt8(ascii: "-")
      position += 1
    }
    position += FixedPoint.digitCount(magnitude)
    var index = position
    let pairs = Self.digitPairs.utf8Start
    while magnitude >= 100 {
      let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
      magnitude /= 100
      index -= 2
      base[index] = pairs[pair]
      base[index + 1] = pairs[pair + 1]
    }
    if magnitude >= 10 {
      let pair = Int(truncatingIfNeeded: magnitude) &* 2
      base[index - 2] = pairs[pair]
      base[index - 1] = pairs[pair + 1]
    } else {
      base[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
    }
  }

  /// "00" to "99", one after the other: the two digits of `n` are at `2n` and `2n + 1`.
  private static let digitPairs: StaticString =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
}
