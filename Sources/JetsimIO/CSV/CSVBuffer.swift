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
    if formulaSafe, let first = utf8.first, startsFormula(first), !isNumber(utf8) {
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

  /// Whether a cell that starts with `byte` is read as a formula by a spreadsheet (a comparison
  /// each, where a set hashed every field's first byte).
  private static func startsFormula(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13: true
    default: false
    }
  }

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
    position &+= 1
  }

  /// Ends the record.
  package mutating func newline() {
    base[position] = UInt8(ascii: "\n")
    position &+= 1
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

  /// Appends `value` in decimal: at most 20 bytes, but written eight at a time, so the record's
  /// room must reach 20 bytes beyond the cursor whatever the number's length. Inlined: a row
  /// writes several, and the call cost as much as the common case of eight digits or fewer.
  @inline(__always) package mutating func append(_ value: Int) {
    var magnitude = value.magnitude
    if value < 0 {
      base[position] = UInt8(ascii: "-")
      position += 1
    }
    // Most report numbers (times, sizes in KB, sequence numbers) have at most eight digits.
    guard magnitude >= 100_000_000 else {
      appendLeading(UInt32(truncatingIfNeeded: magnitude))
      return
    }
    let last = UInt32(truncatingIfNeeded: magnitude % 100_000_000)
    magnitude /= 100_000_000
    if magnitude < 100_000_000 {
      appendLeading(UInt32(truncatingIfNeeded: magnitude))
    } else {
      appendLeading(UInt32(truncatingIfNeeded: magnitude / 100_000_000))
      appendEight(UInt32(truncatingIfNeeded: magnitude % 100_000_000))
    }
    appendEight(last)
  }

  /// The eight decimal digits of `value` (below 10⁸) as the numbers 0 to 9 in eight bytes, the
  /// first digit in the lowest byte (the first in memory), leading zeros included. The digits are
  /// split in the register, all lanes at once: four and four, then two and two, then one and one,
  /// each division by 10,000, 100 or 10 a multiplication and a shift (exact for every value of
  /// the lane, `CSVTests`).
  @inline(__always) private static func digitBytes(_ value: UInt32) -> UInt64 {
    let quads = UInt64(value / 10_000) | UInt64(value % 10_000) << 32
    let highPairs = (quads &* 10_486) >> 20 & 0x0000_007F_0000_007F
    let pairs = highPairs | (quads &- highPairs &* 100) << 16
    let highDigits = (pairs &* 103) >> 10 & 0x000F_000F_000F_000F
    return highDigits | (pairs &- highDigits &* 10) << 8
  }

  /// Appends `value` (below 10⁸) without leading zeros, writing eight bytes.
  @inline(__always) private mutating func appendLeading(_ value: UInt32) {
    let digits = Self.digitBytes(value)
    // The leading zeros are the low bytes that are 0; 0 itself keeps its last digit.
    let zeros = min(digits.trailingZeroBitCount &>> 3, 7)
    UnsafeMutableRawPointer(base + position).storeBytes(
      of: ((digits | 0x3030_3030_3030_3030) &>> (zeros &<< 3)).littleEndian, as: UInt64.self)
    position &+= 8 &- zeros
  }

  /// `value` (below 10⁸) in decimal as eight digits, leading zeros included: the bytes of a word,
  /// the first in the lowest byte.
  @inline(__always) static func eightDigits(_ value: UInt32) -> UInt64 {
    digitBytes(value) | 0x3030_3030_3030_3030
  }

  /// Appends `value` (below 10⁸) as eight digits, leading zeros included.
  @inline(__always) private mutating func appendEight(_ value: UInt32) {
    UnsafeMutableRawPointer(base + position).storeBytes(
      of: Self.eightDigits(value).littleEndian, as: UInt64.self)
    position &+= 8
  }
}
