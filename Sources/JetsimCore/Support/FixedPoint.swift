/// Fixed-point decimal formatting without Foundation's locale-dependent formatters: the same digits
/// on every platform, for every report and message.
package enum FixedPoint {
  /// Formats `scaled` (a value multiplied by 10^`scaleDigits`) with exactly `scaleDigits` decimals,
  /// with a minus sign if `negative` (and the value is not zero).
  package static func fixed(_ scaled: UInt, scaleDigits: Int, negative: Bool = false) -> String {
    // Written in place: no intermediate strings (charts write tens of thousands of these).
    String(unsafeUninitializedCapacity: maxFixedBytes(scaleDigits: scaleDigits)) { buffer in
      var position = 0
      write(scaled, scaleDigits: scaleDigits, negative: negative, into: buffer, at: &position)
      return position
    }
  }

  /// The most bytes `write(_:scaleDigits:negative:into:at:)` writes.
  package static func maxFixedBytes(scaleDigits: Int) -> Int { 22 + scaleDigits }

  /// Writes what `fixed(_:scaleDigits:negative:)` returns at `position` in `buffer` (which has
  /// room for `maxFixedBytes(scaleDigits:)` bytes there), and moves `position` past it.
  package static func write(
    _ scaled: UInt, scaleDigits: Int, negative: Bool,
    into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int
  ) {
    var divisor: UInt = 1
    for _ in 0..<scaleDigits { divisor *= 10 }
    let whole = scaled / divisor
    if negative && scaled != 0 {
      buffer[position] = UInt8(ascii: "-")
      position += 1
    }
    put(whole, width: digitCount(whole), into: buffer, at: &position)
    if scaleDigits > 0 {
      buffer[position] = UInt8(ascii: ".")
      position += 1
      put(scaled % divisor, width: scaleDigits, into: buffer, at: &position)
    }
  }

  /// Writes `value`'s last `width` decimal digits (leading zeros included) at `position` in
  /// `buffer`, and moves `position` past them.
  package static func put(
    _ value: UInt, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>,
    at position: inout Int
  ) {
    var rest = value
    for index in stride(from: position + width - 1, through: position, by: -1) {
      buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    }
    position += width
  }

  /// The number of decimal digits of `value` (1 for 0), by comparisons alone: the CSV writer
  /// counts every integer of every row with it.
  @inlinable @inline(__always) package static func digitCount(_ value: UInt) -> Int {
    // Most report numbers (times, sizes in KB, sequence numbers) have 4 to 10 digits: halve the
    // range first rather than count up from one.
    if value < 100_000_000 {
      if value < 10_000 { return value < 100 ? (value < 10 ? 1 : 2) : (value < 1_000 ? 3 : 4) }
      return value < 1_000_000 ? (value < 100_000 ? 5 : 6) : (value < 10_000_000 ? 7 : 8)
    }
    var digits = 9
    var bound: UInt = 1_000_000_000
    while value >= bound {
      digits += 1
      guard bound <= UInt.max / 10 else { break }
      bound *= 10
    }
    return digits
  }

  /// `value` rounded half away from zero to `digits` decimals, formatted identically on every
  /// platform. Values that are not finite, or too large to hold exactly, are written as `nan`.
  package static func format(_ value: Double, digits: Int = 4) -> String {
    String(unsafeUninitializedCapacity: maxFixedBytes(scaleDigits: digits)) { buffer in
      var position = 0
      write(value, digits: digits, into: buffer, at: &position)
      return position
    }
  }

  /// Writes what `format(_:digits:)` returns at `position` in `buffer` (which has room for
  /// `maxFixedBytes(scaleDigits: digits)` bytes there), and moves `position` past it.
  package static func write(
    _ value: Double, digits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>,
    at position: inout Int
  ) {
    var factor = 1.0
    for _ in 0..<digits { factor *= 10 }
    let scaled = (value * factor).rounded(.toNearestOrAwayFromZero)
    guard value.isFinite, abs(scaled) < 9.0e15 else {
      for byte in "nan".utf8 {
        buffer[position] = byte
        position += 1
      }
      return
    }
    write(UInt(abs(scaled)), scaleDigits: digits, negative: scaled < 0, into: buffer, at: &position)
  }
}
