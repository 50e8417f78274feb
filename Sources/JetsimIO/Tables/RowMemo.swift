import JetsimCore

/// The last number a column wrote and its digits, with the comma that ends the field, so the next
/// row's number, when it is the same (the time of events at one instant, the free memory between
/// changes) or one more (the sequence number), is copied instead of formatted. The event log's
/// rows are written through these (`ReportTables.append(_:to:)`): a million rows repeat most of
/// their numbers.
struct NumberMemo {
  private var value = Int.min
  /// The digits and the comma, as bytes from the first (a sign, at most 20 digits and the comma
  /// fit).
  private var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
  /// The number of bytes in `digits`, the comma included.
  private var count = 0

  /// Appends `value` in decimal, as `CSVCursor.append(_:)` does, and a comma. Writes up to 24
  /// bytes at the cursor whatever the number's length, so the record's room must have 24 bytes
  /// beyond it. With `long`, for a column of numbers of more than eight digits (times in
  /// milliseconds), a number that differs from the last only in its last eight digits has those
  /// written over the last's; with `counting`, for a column that counts (sequence numbers), one
  /// more than a number ending in a single 9 carries into its tens in place.
  @inline(__always) mutating func writeField(
    _ value: Int, to cursor: inout CSVCursor, long: Bool = false, counting: Bool = false
  ) {
    if value != self.value {
      guard value > 0, value &- 1 == self.value, lastDigitIsBelowNine() else {
        let carried = counting && value > 0 && value &- 1 == self.value && tensCarried()
        if carried || long && lastEightReplaced(by: value) {
          self.value = value
          return copy(to: &cursor)
        }
        let start = cursor.position
        cursor.append(value)
        cursor.comma()
        count = cursor.position &- start
        digits = UnsafeRawPointer(cursor.base + start).loadUnaligned(
          as: (UInt64, UInt64, UInt64).self)
        self.value = value
        return
      }
      let last = count &- 2
      withUnsafeMutableBytes(of: &digits) { $0[last] += 1 }
      self.value = value
    }
    copy(to: &cursor)
  }

  /// Appends the digits and the comma.
  @inline(__always) private func copy(to cursor: inout CSVCursor) {
    UnsafeMutableRawPointer(cursor.base + cursor.position).storeBytes(
      of: digits, as: (UInt64, UInt64, UInt64).self)
    cursor.position &+= count
  }

  /// Writes the last eight digits of `value` over the last number's when the two differ only
  /// there (both of more than eight digits: a time in milliseconds, whose next value is seldom
  /// 10⁸ ms away): whether it did.
  @inline(__always) private mutating func lastEightReplaced(by value: Int) -> Bool {
    let long: UInt = 100_000_000
    let (new, last) = (UInt(bitPattern: value), UInt(bitPattern: self.value))
    // Both of more than eight digits (and not negative), and alike above the last eight.
    guard new >= long, last >= long, new / long == last / long, value > 0, self.value > 0 else {
      return false
    }
    // The eight digits before the comma, at most 21 bytes in.
    let offset = count &- 9
    withUnsafeMutableBytes(of: &digits) { bytes in
      bytes.storeBytes(
        of: CSVCursor.eightDigits(UInt32(truncatingIfNeeded: new % long)).littleEndian,
        toByteOffset: offset, as: UInt64.self)
    }
    return true
  }

  /// Adds one to digits that end in a single 9 (…x9 becomes …(x + 1)0, x below 9), as one more
  /// than the last number when its last digit is 9: whether they did.
  @inline(__always) private mutating func tensCarried() -> Bool {
    let last = count &- 2
    guard last >= 1 else { return false }
    return withUnsafeMutableBytes(of: &digits) { bytes in
      guard bytes[last - 1] &- UInt8(ascii: "0") < 9 else { return false }
      bytes[last - 1] &+= 1
      bytes[last] = UInt8(ascii: "0")
      return true
    }
  }

  /// Whether the last digit (before the comma) is below 9, so one more changes that digit alone.
  /// Mutating only to read the digits where they are (by value, they were copied each row).
  private mutating func lastDigitIsBelowNine() -> Bool {
    let last = count &- 2
    return last >= 0 && withUnsafeBytes(of: &digits) { $0[last] < UInt8(ascii: "9") }
  }
}

/// Short byte strings written often (the text of an event's fixed columns), each made once and
/// then found by a key: an open-addressing table of 64-bit keys over one array of bytes.
struct TextMemo {
  /// The texts one after the other, then `padding` bytes, so a text is read in 16-byte pieces.
  private var bytes: [UInt8] = Array(repeating: 0, count: padding)
  /// Key + 1 (0: empty), with where its text starts and its length.
  private var slots: [(key: UInt64, start: Int32, count: Int32)] =
    Array(repeating: (0, 0, 0), count: 64)
  private var used = 0
  private static let padding = 16

  /// Appends the text of `key`, made by `make` the first time. The cursor's record must have
  /// 16 bytes of room beyond the text. Inlined into the row it writes (once per event).
  @inline(__always) mutating func write(
    _ key: UInt64, to cursor: inout CSVCursor, make: (UInt64) -> [UInt8]
  ) {
    let mask = slots.count - 1
    var slot = Self.hash(key) & mask
    while slots[slot].key != 0, slots[slot].key != key &+ 1 { slot = (slot + 1) & mask }
    if slots[slot].key == 0 {
      let text = make(key)
      insert(key, text, at: slot)
      cursor.append(text)
      return
    }
    let (start, count) = (Int(slots[slot].start), Int(slots[slot].count))
    bytes.withUnsafeBufferPointer { all in
      guard let source = all.baseAddress else { return }
      cursor.appendPieces(source + start, count: count)
    }
  }

  /// Where `key`'s search starts, before the mask: the high bits of a multiplication by 2⁶⁴ / φ.
  @inline(__always) private static func hash(_ key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40)
  }

  private mutating func insert(_ key: UInt64, _ text: [UInt8], at slot: Int) {
    let start = bytes.count - Self.padding
    bytes.replaceSubrange(start..<start, with: text)
    slots[slot] = (key &+ 1, Int32(start), Int32(text.count))
    used += 1
    if used * 2 > slots.count {
      let old = slots.filter { $0.key != 0 }
      slots = Array(repeating: (0, 0, 0), count: slots.count * 2)
      let mask = slots.count - 1
      for entry in old {
        var slot = Self.hash(entry.key &- 1) & mask
        while slots[slot].key != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
      }
    }
  }
}

extension CSVCursor {
  /// Appends `count` bytes from `source` in 16-byte pieces: both `source` and the record's room
  /// must reach 15 bytes beyond them.
  @inline(__always) mutating func appendPieces(_ source: UnsafePointer<UInt8>, count: Int) {
    var offset = 0
    while offset < count {
      let piece = UnsafeRawPointer(source + offset).loadUnaligned(as: (UInt64, UInt64).self)
      UnsafeMutableRawPointer(base + position + offset).storeBytes(
        of: piece, as: (UInt64, UInt64).self)
      offset &+= 16
    }
    position &+= count
  }
}
