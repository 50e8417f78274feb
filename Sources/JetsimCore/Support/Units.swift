/// Sizes and durations as profiles and the command line write them (docs/model.md §1).
///
/// Sizes are integer kilobytes (1 KB = 1024 bytes, 1 MB = 1024 KB, 1 GB = 1024 MB), written with a
/// unit: `"512KB"`, `"350MB"`, `"1.5GB"`. Durations are integer milliseconds, written `"250ms"`,
/// `"5s"`, `"2m"`, `"1h"`, or combined, `"1h30m"`. Units are read without regard to case (`"1.5gb"`,
/// `"2MiB"` and `"30 S"` are accepted); decimals round to the nearest kilobyte or millisecond. Every
/// value is checked against a cap before any arithmetic that could overflow.
public enum Units {
  /// The size units, in kilobytes, by lowercase suffix (longest first, so "mib" is not read as "b").
  static let sizeUnits: [(suffix: String, kilobytes: Int)] = [
    ("kib", 1), ("mib", 1024), ("gib", 1_048_576), ("tib", 1_073_741_824),
    ("kb", 1), ("mb", 1024), ("gb", 1_048_576), ("tb", 1_073_741_824),
    ("k", 1), ("m", 1024), ("g", 1_048_576), ("t", 1_073_741_824),
  ]
  /// The duration units, in milliseconds, by lowercase suffix (longest first, so "ms" is not read as
  /// "m" + "s").
  static let durationUnits: [(suffix: String, milliseconds: Int)] = [
    ("ms", 1), ("min", 60_000), ("sec", 1000), ("s", 1000), ("m", 60_000), ("h", 3_600_000),
  ]

  /// The largest size accepted: 1 PB. Keeps every sum of footprints far from overflow.
  public static let maxKilobytes = 1 << 40
  /// The largest duration or time accepted: about 139 years.
  public static let maxMilliseconds = 1 << 42

  /// What a size must look like, for error messages.
  public static let sizeForm = "a size such as \"512KB\", \"350MB\" or \"1.5GB\" (at most 1 PB)"
  /// What a duration must look like, for error messages.
  public static let durationForm =
    "a duration such as \"250ms\", \"5s\", \"2m\", \"1h\" or \"1h30m\" (at most 139 years)"

  /// The size in kilobytes, or nil if `text` is not a non-negative number with a size unit, or is
  /// over `maxKilobytes`.
  public static func kilobytes(_ text: String) -> Int? {
    scaled(Substring(text.trimmingSpaces()), units: sizeUnits, cap: maxKilobytes)
  }

  /// The duration in milliseconds, or nil if `text` is not a non-negative number with a time unit,
  /// or is over `maxMilliseconds`. Segments add up: `"1h30m"`, `"2m5s"`, `"1s250ms"`.
  public static func milliseconds(_ text: String) -> Int? {
    let trimmed = Substring(text.trimmingSpaces())
    guard !trimmed.isEmpty else { return nil }
    var total = 0
    var rest = trimmed[...]
    while !rest.isEmpty {
      // A segment: digits (and a point), then letters (the unit).
      let numberEnd = rest.firstIndex { !($0.isASCIIDigit || $0 == ".") } ?? rest.endIndex
      let unitEnd = rest[numberEnd...].firstIndex { $0.isASCIIDigit || $0 == "." } ?? rest.endIndex
      guard let value = scaled(rest[..<unitEnd], units: durationUnits, cap: maxMilliseconds)
      else { return nil }
      total += value
      guard total <= maxMilliseconds else { return nil }
      rest = rest[unitEnd...]
    }
    return total
  }

  /// Parses `<digits>[.<digits>]<unit>` exactly, in integers: no floating point, no locale. A space
  /// between the number and the unit is allowed.
  private static func scaled(_ text: Substring, units: [(String, Int)], cap: Int) -> Int? {
    let lowered = text.lowercased()
    guard let (suffix, factor) = units.first(where: { lowered.hasSuffix($0.0) }) else { return nil }
    let number = lowered.dropLast(suffix.count).trimmingSpaces()
    let parts = number.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 15,
      whole.allSatisfy(\.isASCIIDigit), let wholeValue = Int(whole),
      wholeValue <= cap / factor
    else { return nil }
    var value = wholeValue * factor
    if parts.count == 2 {
      let fraction = parts[1]
      guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigit),
        let digits = Int(fraction)
      else { return nil }
      var scale = 1
      for _ in 0..<fraction.count { scale *= 10 }
      // Round half up to the nearest whole unit; digits < 10^9 and factor ≤ 2^30 cannot overflow.
      value += (digits * factor * 2 + scale) / (2 * scale)
    }
    return value <= cap ? value : nil
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
    let negative = milliseconds < 0
    let magnitude = milliseconds.magnitude
    let ms = magnitude % 1000
    let seconds = magnitude / 1000
    func pad(_ value: UInt, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return (negative ? "-" : "")
      + "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(ms, 3))"
  }
}
