/// Sizes and durations as profiles and the command line write them (docs/model.md §1).
///
/// Sizes are integer kilobytes (1 KB = 1024 bytes, 1 MB = 1024 KB, 1 GB = 1024 MB), written with a
/// unit: `"512KB"`, `"350MB"`, `"1.5GB"`. Durations are integer milliseconds, written `"250ms"`,
/// `"5s"`, `"2m"`, `"1h"`, or combined, `"1h30m"`. Units are read without regard to case (`"1.5gb"`,
/// `"2MiB"` and `"30 S"` are accepted); decimals round to the nearest kilobyte or millisecond. Every
/// value is checked against a cap before any arithmetic that could overflow.
public enum Units {
  /// The size units, in kilobytes, by lowercase suffix (longest first, so "mib" is not read as "b").
  private static let sizeUnits = suffixes([
    ("kib", 1), ("mib", 1024), ("gib", 1_048_576), ("tib", 1_073_741_824), ("pib", 1 << 40),
    ("kb", 1), ("mb", 1024), ("gb", 1_048_576), ("tb", 1_073_741_824), ("pb", 1 << 40),
    ("k", 1), ("m", 1024), ("g", 1_048_576), ("t", 1_073_741_824), ("p", 1 << 40),
  ])
  /// The duration units, in milliseconds, by lowercase suffix (longest first, so "ms" is not read as
  /// "m" + "s").
  private static let durationUnits = suffixes([
    ("ms", 1), ("min", 60_000), ("sec", 1000), ("s", 1000), ("m", 60_000), ("h", 3_600_000),
  ])

  /// The largest size accepted: 1 PB. Keeps every sum of footprints far from overflow.
  public static let maxKilobytes = 1 << 40
  /// The most processes (apps and system processes) a scenario or report may hold: 2^20. With
  /// sizes at most `maxKilobytes` and times at most `maxMilliseconds`, every sum of footprints over
  /// processes (at most 2^60 KB) and of process-milliseconds (at most 2^62) fits in an `Int`
  /// (docs/hardening.md, "Totals").
  public static let maxProcesses = 1 << 20
  /// The largest duration or time accepted: about 139 years.
  public static let maxMilliseconds = 1 << 42
  /// The most MetricKit payloads jetsim adds together, in a file or a command: with each span at
  /// most `maxMilliseconds` and each count at most `maxKilobytes`, no sum can overflow.
  public static let maxPayloads = 1 << 20

  /// What a size must look like, for error messages.
  public static let sizeForm = "a size such as \"512KB\", \"350MB\" or \"1.5GB\" (at most 1 PB)"
  /// What a duration must look like, for error messages.
  public static let durationForm =
    "a duration such as \"250ms\", \"5s\", \"2m\", \"1h\" or \"1h30m\" (at most 139 years)"

  /// The size in kilobytes, or nil if `text` is not a non-negative number with a size unit, or is
  /// over `maxKilobytes`.
  public static func kilobytes(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { kilobytes(utf8: $0) }
  }

  /// `kilobytes(_:)` of the text whose UTF-8 bytes are `bytes`.
  package static func kilobytes(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let whole = trimmed(bytes, 0..<bytes.count)
    return whole.isEmpty ? nil : scaled(bytes, whole, units: sizeUnits, cap: maxKilobytes)
  }

  /// The duration in milliseconds, or nil if `text` is not a non-negative number with a time unit,
  /// or is over `maxMilliseconds`. Segments add up: `"1h30m"`, `"2m5s"`, `"1s250ms"`.
  public static func milliseconds(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { milliseconds(utf8: $0) }
  }

  /// `milliseconds(_:)` of the text whose UTF-8 bytes are `bytes`.
  package static func milliseconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let whole = trimmed(bytes, 0..<bytes.count)
    guard !whole.isEmpty else { return nil }
    var total = 0
    var segmentStart = whole.lowerBound
    while segmentStart < whole.upperBound {
      // A segment: digits (and a point), then the rest up to the next digit or point (the unit).
      var position = segmentStart
      while position < whole.upperBound, isNumeric(bytes[position]) { position += 1 }
      while position < whole.upperBound, !isNumeric(bytes[position]) { position += 1 }
      guard
        let value = scaled(
          bytes, segmentStart..<position, units: durationUnits, cap: maxMilliseconds)
      else { return nil }
      total += value
      guard total <= maxMilliseconds else { return nil }
      segmentStart = position
    }
    return total
  }

  /// Parses `<digits>[.<digits>]<unit>` in `bytes[range]` exactly, in integers: no floating point, no
  /// locale. Units are matched without regard to ASCII case; a space between the number and the unit
  /// is allowed.
  private static func scaled(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
    units: [(suffix: [UInt8], factor: Int)],
    cap: Int
  ) -> Int? {
    func hasSuffix(_ suffix: [UInt8]) -> Bool {
      guard suffix.count <= range.count else { return false }
      let offset = range.upperBound - suffix.count
      for index in suffix.indices where lowercase(bytes[offset + index]) != suffix[index] {
        return false
      }
      return true
    }
    guard let (suffix, factor) = units.first(where: { hasSuffix($0.suffix) }) else { return nil }
    let number = trimmed(bytes, range.lowerBound..<(range.upperBound - suffix.count))
    var position = number.lowerBound
    func digits(limit: Int) -> (value: Int, count: Int)? {
      var value = 0
      let first = position
      while position < number.upperBound, bytes[position] &- 48 < 10 {
        guard position - first < limit else { return nil }
        value = value * 10 + Int(bytes[position] &- 48)
        position += 1
      }
      return position > first ? (value, position - first) : nil
    }
    guard let whole = digits(limit: 15), whole.value <= cap / factor else { return nil }
    var value = whole.value * factor
    if position < number.upperBound {
      guard bytes[position] == UInt8(ascii: ".") else { return nil }
      position += 1
      guard let fraction = digits(limit: 9), position == number.upperBound else { return nil }
      var scale = 1
      for _ in 0..<fraction.count { scale *= 10 }
      // Round half up to the nearest whole unit; digits < 10^9 and factor ≤ 2^30 cannot overflow.
      value += (fraction.value * factor * 2 + scale) / (2 * scale)
    }
    return value <= cap ? value : nil
  }

  private static func suffixes(_ units: [(String, Int)]) -> [(suffix: [UInt8], factor: Int)] {
    units.map { (Array($0.0.utf8), $0.1) }
  }

  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<
    Int
  > {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, bytes[lower] == UInt8(ascii: " ") { lower += 1 }
    while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") { upper -= 1 }
    return lower..<upper
  }

  private static func isNumeric(_ byte: UInt8) -> Bool {
    byte &- 48 < 10 || byte == UInt8(ascii: ".")
  }

  private static func lowercase(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }

  /// `kilobytes` written with the largest unit that divides it: `"350MB"`, `"1536KB"`.
  public static func formatSize(_ kilobytes: Int) -> String {
    if kilobytes != 0, kilobytes % 1_048_576 == 0 { return "\(kilobytes / 1_048_576)GB" }
    if kilobytes != 0, kilobytes % 1024 == 0 { return "\(kilobytes / 1024)MB" }
    return "\(kilobytes)KB"
  }

  /// `milliseconds` written with the largest unit that divides it: `"2m"`, `"90s"`, `"250ms"`.
  public static func formatDuration(_ milliseconds: Int) -> String {
    if milliseconds != 0, milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
    if milliseconds != 0, milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
    if milliseconds != 0, milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
    return "\(milliseconds)ms"
  }

  /// Kilobytes as megabytes with one decimal, for people: `"412.0 MB"`. Exact for every `Int`.
  public static func megabytes(_ kilobytes: Int) -> String {
    // kilobytes × 10 / 1024 without overflow: whole megabytes, then tenths of the remainder.
    let magnitude = kilobytes.magnitude
    let tenths = magnitude / 1024 * 10 + magnitude % 1024 * 10 / 1024
    return "\(FixedPoint.fixed(tenths, scaleDigits: 1, negative: kilobytes < 0)) MB"
  }

  /// `value` with exactly `digits` decimals, rounded half away from zero, the same on every platform
  /// (`nan` for a value that is not finite).
  public static func decimal(_ value: Double, digits: Int) -> String {
    FixedPoint.format(value, digits: digits)
  }

  /// Milliseconds as `HH:MM:SS.mmm`, for people.
  public static func clock(_ milliseconds: Int) -> String {
    // Written in place: no intermediate strings (a report draws tens of thousands of these).
    String(unsafeUninitializedCapacity: maxClockBytes) { buffer in
      var position = 0
      writeClock(milliseconds, into: buffer, at: &position)
      return position
    }
  }

  /// The most bytes `writeClock(_:into:at:)` writes.
  package static let maxClockBytes = 32

  /// Writes what `clock(_:)` returns at `position` in `buffer` (which has room for
  /// `maxClockBytes` bytes there), and moves `position` past it.
  package static func writeClock(
    _ milliseconds: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int
  ) {
    let magnitude = milliseconds.magnitude
    let seconds = magnitude / 1000
    let hours = seconds / 3600
    if milliseconds < 0 {
      buffer[position] = UInt8(ascii: "-")
      position += 1
    }
    func put(_ value: UInt, width: Int, then separator: UInt8?) {
      FixedPoint.put(value, width: width, into: buffer, at: &position)
      guard let separator else { return }
      buffer[position] = separator
      position += 1
    }
    put(hours, width: max(2, FixedPoint.digitCount(hours)), then: UInt8(ascii: ":"))
    put(seconds / 60 % 60, width: 2, then: UInt8(ascii: ":"))
    put(seconds % 60, width: 2, then: UInt8(ascii: "."))
    put(magnitude % 1000, width: 3, then: nil)
  }
}
