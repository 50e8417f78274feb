/// Fixed-point decimal formatting without Foundation's locale-dependent formatters: the same digits
/// on every platform, for every report and message.
package enum FixedPoint {
  /// Formats `scaled` (a value multiplied by 10^`scaleDigits`) with exactly `scaleDigits` decimals,
  /// with a minus sign if `negative` (and the value is not zero).
  package static func fixed(_ scaled: UInt, scaleDigits: Int, negative: Bool = false) -> String {
    var divisor: UInt = 1
    for _ in 0..<scaleDigits { divisor *= 10 }
    let whole = scaled / divisor
    let minus = negative && scaled != 0 ? "-" : ""
    guard scaleDigits > 0 else { return "\(minus)\(whole)" }
    let fraction = String(scaled % divisor)
    let padded = String(repeating: "0", count: scaleDigits - fraction.count) + fraction
    return "\(minus)\(whole).\(padded)"
  }

  /// `value` rounded half away from zero to `digits` decimals, formatted identically on every
  /// platform. Values that are not finite, or too large to hold exactly, are written as `nan`.
  package static func format(_ value: Double, digits: Int = 4) -> String {
    guard value.isFinite else { return "nan" }
    var factor = 1.0
    for _ in 0..<digits { factor *= 10 }
    let scaled = (value * factor).rounded(.toNearestOrAwayFromZero)
    guard abs(scaled) < 9.0e15 else { return "nan" }
    return fixed(UInt(abs(scaled)), scaleDigits: digits, negative: scaled < 0)
  }
}
