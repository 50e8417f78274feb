/// Parsing and formatting of the sizes and durations written in profiles (docs/model.md §1).
///
/// Sizes are integer kilobytes (1 KB = 1024 bytes, 1 MB = 1024 KB, 1 GB = 1024 MB), written with a
/// unit: `"512KB"`, `"350MB"`, `"1.5GB"`. Durations are integer milliseconds, written `"250ms"`,
/// `"5s"`, `"2m"`, `"1h"`, or combined, `"1h30m"`. Decimals are allowed and rounded to the nearest whole unit of storage.
public enum Units {
  /// The size units, in kilobytes.
  static let sizeUnits: [(suffix: String, kilobytes: Int)] = [
    ("KB", 1), ("MB", 1024), ("GB", 1_048_576),
  ]
  /// The duration units, in milliseconds (longest suffix first, so "ms" is not read as "m").
  static let durationUnits: [(suffix: String, milliseconds: Int)] = [
    ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000),
  ]

  /// The largest size accepted: 1 PB. Keeps every sum of footprints far from overflow.
  public static let maxKilobytes = 1 << 40
  /// The largest duration or time accepted: about 139 years.
  public static let maxMilliseconds = 1 << 42

  /// What a size must look like, for error messages.
  public static let sizeForm = "a size such as \"512KB\", \"350MB\" or \"1.5GB\" (at most 1 PB)"
  /// What a duration must look like, for error messages.
  public static let durationForm =
    "a duration such as \"250ms\", \"5s\", \"2m\", \"1h\" or \"1h30m\""

  /// The size in kilobytes, or nil if `text` is not a non-negative number with a size unit.
  public static func kilobytes(_ text: String) -> Int? {
    scaled(text, units: sizeUnits).flatMap { $0 <= maxKilobytes ? $0 : nil }
  }

  /// The duration in milliseconds, or nil if `text` is not a non-negative number with a time unit.
  /// Segments add up: `"1h30m"`, `"2m5s"`, `"1s250ms"`.
  public static func milliseconds(_ text: String) -> Int? {
    let trimmed = text.trimmingSpaces()
    var total = 0
    var segmentStart = trimmed.startIndex
    var index = trimmed.startIndex
    var sawUnit = false
    while index < trimmed.endIndex {
      let character = trimmed[index]
      if character.isASCIIDigit || character == "." {
        if sawUnit {
          guard let value = scaled(String(trimmed[segmentStart..<index]), units: durationUnits),
            value <= maxMilliseconds
          else { return nil }
          total += value
          segmentStart = index
          sawUnit = false
        }
      } else {
        sawUnit = true
      }
      index = trimmed.index(after: index)
    }
    guard let last = scaled(String(trimmed[segmentStart...]), units: durationUnits) else {
      return nil
    }
    total += last
    return total <= maxMilliseconds ? total : nil
  }

  /// Parses `<digits>[.<digits>]<unit>` exactly, in integers: no floating point, no locale.
  private static func scaled(_ text: String, units: [(String, Int)]) -> Int? {
    let trimmed = text.trimmingSpaces()
    guard let (suffix, factor) = units.first(where: { trimmed.hasSuffix($0.0) }) else { return nil }
    let number = trimmed.dropLast(suffix.count)
    let parts = number.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty,
      whole.allSatisfy(\.isASCIIDigit), whole.count <= 12
    else { return nil }
    guard let wholeValue = Int(whole) else { return nil }
    var value = wholeValue * factor
    if parts.count == 2 {
      let fraction = parts[1]
      guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigit),
        let digits = Int(fraction)
      else { return nil }
      var scale = 1
      for _ in 0..<fraction.count { scale *= 10 }
      // Round half up to the nearest whole unit.
      value += (digits * factor * 2 + scale) / (2 * scale)
    }
    return value
  }

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

  /// Kilobytes as megabytes with one decimal, for people: `"412.0 MB"`.
  public static func megabytes(_ kilobytes: Int) -> String {
    "\(FixedPoint.fixed(kilobytes * 10 / 1024, scaleDigits: 1, sign: kilobytes < 0)) MB"
  }

  /// `value` with exactly `digits` decimals, rounded half away from zero, the same on every platform
  /// (`nan` for a value that is not finite).
  public static func decimal(_ value: Double, digits: Int) -> String {
    FixedPoint.format(value, digits: digits)
  }

  /// Milliseconds as `HH:MM:SS.mmm`, for people.
  public static func clock(_ milliseconds: Int) -> String {
    let ms = milliseconds % 1000
    let seconds = milliseconds / 1000
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return
      "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(ms, 3))"
  }
}

/// Fixed-point decimal formatting without Foundation's locale-dependent formatters.
enum FixedPoint {
  /// Formats `scaled` (a value multiplied by 10^`scaleDigits`) with exactly `scaleDigits` decimals.
  static func fixed(_ scaled: Int, scaleDigits: Int, sign negative: Bool = false) -> String {
    var divisor = 1
    for _ in 0..<scaleDigits { divisor *= 10 }
    let magnitude = scaled.magnitude
    let whole = magnitude / UInt(divisor)
    let minus = (negative || scaled < 0) && magnitude != 0 ? "-" : ""
    guard scaleDigits > 0 else { return "\(minus)\(whole)" }
    let fraction = String(magnitude % UInt(divisor))
    let padded = String(repeating: "0", count: scaleDigits - fraction.count) + fraction
    return "\(minus)\(whole).\(padded)"
  }

  /// `value` rounded half away from zero to `digits` decimals, formatted identically on every
  /// platform. Non-finite values are written as `nan`.
  static func format(_ value: Double, digits: Int = 4) -> String {
    guard value.isFinite else { return "nan" }
    var factor = 1.0
    for _ in 0..<digits { factor *= 10 }
    let scaled = (value * factor).rounded(.toNearestOrAwayFromZero)
    guard abs(scaled) < 9.0e15 else { return "nan" }
    return fixed(Int(scaled), scaleDigits: digits)
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
  func trimmingSpaces() -> String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
