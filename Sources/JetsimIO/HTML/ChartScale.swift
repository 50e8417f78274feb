import JetsimCore
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a chart axis measures: it decides the ticks and how they read.
package enum ChartUnit: Sendable, Equatable {
  /// Plain numbers: ticks at 1, 2 or 5 × 10ⁿ.
  case count
  /// A share, from 0 to at most 1.
  case ratio
  /// Sizes in kilobytes, read in MB or GB.
  case kilobytes
  /// Durations in milliseconds, read in ms, s, min or h.
  case milliseconds
  /// Time since the start of a run, in milliseconds, read as h:mm (or m:ss when short).
  case clock

  /// The unit of a `summary.csv` column, by its name's suffix.
  package static func of(metric name: String) -> ChartUnit {
    if name.hasSuffix("_kb") { return .kilobytes }
    if name.hasSuffix("_ms") { return .milliseconds }
    if name.hasSuffix("_ratio") { return .ratio }
    return .count
  }
}

/// A continuous axis: a domain and round ticks in it, with labels for people ("0", "500 MB",
/// "1.5 GB", "0:30"). With `roundOut`, the domain grows to the ticks around the data, so no mark
/// falls outside it; without, it stays the data's range (a run's timeline ends where the run ends).
package struct ChartScale: Sendable {
  package let lower: Double
  package let upper: Double
  /// The ticks, in the data's units, ascending, inside the domain.
  package let ticks: [Double]
  package let unit: ChartUnit
  /// The display unit: the data divided by `divisor`, followed by `suffix`.
  private let divisor: Double
  private let suffix: String
  private let digits: Int
  private let step: Double

  /// A scale for data from `low` to `high`; with `includingZero`, 0 is in the domain (bars and
  /// counts start there).
  package init(
    from low: Double, to high: Double, unit: ChartUnit, includingZero: Bool = true,
    roundOut: Bool = true, maxTicks: Int = 7
  ) {
    self.unit = unit
    var low = low.isFinite ? low : 0
    var high = high.isFinite ? high : 0
    if includingZero { (low, high) = (min(low, 0), max(high, 0)) }
    // A share lies in 0…1, whatever its confidence interval says.
    if unit == .ratio { (low, high) = (max(low, 0), min(high, 1)) }
    if high <= low { high = low + Self.defaultSpan(unit) }
    let largest = max(abs(low), abs(high))
    (divisor, suffix) = Self.displayUnit(unit, largest: largest, span: high - low)
    let raw = (high - low) / Double(max(2, maxTicks) - 1)
    step = unit == .clock ? Self.clockStep(raw) : Self.niceStep(raw / divisor) * divisor
    let first = (low / step).rounded(.down)
    let last = (high / step).rounded(.up)
    if roundOut {
      lower = first * step
      upper = unit == .ratio ? min(last * step, 1) : last * step
    } else {
      (lower, upper) = (low, high)
    }
    let lowerBound = lower
    let upperBound = upper
    let step = step
    ticks = stride(from: first, through: last, by: 1).map { $0 * step }.filter {
      $0 >= lowerBound - step * 1e-9 && $0 <= upperBound + step * 1e-9
    }
    let scaledStep = step / divisor
    digits = scaledStep >= 1 ? 0 : min(6, Int((-log10(scaledStep)).rounded(.up)))
  }

  /// Where `value` falls, from 0 (lower) to 1 (upper), clamped.
  package func fraction(_ value: Double) -> Double {
    guard upper > lower else { return 0 }
    return min(max((value - lower) / (upper - lower), 0), 1)
  }

  /// `value` as a tick label.
  package func label(_ value: Double) -> String {
    if unit == .clock {
      return Self.clock(value, hours: upper >= 3_600_000, seconds: step < 60_000)
    }
    let scaled = value / divisor
    if abs(scaled) < step / divisor * 1e-6 { return "0" }
    var text = Units.decimal(scaled, digits: digits)
    // 2.50 → 2.5: a label shows the digits it needs.
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text + suffix
  }

  private static func defaultSpan(_ unit: ChartUnit) -> Double {
    switch unit {
    case .count, .ratio: 1
    case .kilobytes: 1024
    case .milliseconds, .clock: 1000
    }
  }

  private static func displayUnit(_ unit: ChartUnit, largest: Double, span: Double) -> (
    Double, String
  ) {
    switch unit {
    case .count, .ratio, .clock: return (1, "")
    case .kilobytes: return largest >= 2_097_152 ? (1_048_576, " GB") : (1024, " MB")
    case .milliseconds:
      if largest >= 7_200_000 { return (3_600_000, " h") }
      if largest >= 120_000 { return (60_000, " min") }
      if largest >= 2_000 { return (1000, " s") }
      return (1, " ms")
    }
  }

  /// The smallest of 1, 2 or 5 × 10ⁿ at least `raw`.
  private static func niceStep(_ raw: Double) -> Double {
    guard raw > 0, raw.isFinite else { return 1 }
    let power = pow(10, (log10(raw)).rounded(.down))
    for multiple in [1.0, 2, 5, 10] where multiple * power >= raw * (1 - 1e-9) {
      return multiple * power
    }
    return 10 * power
  }

  /// The smallest step of a clock at least `raw` milliseconds: seconds, minutes, hours, days.
  private static func clockStep(_ raw: Double) -> Double {
    let steps: [Double] = [
      1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
      172_800, 604_800,
    ].map { $0 * 1000 }
    return steps.first { $0 >= raw } ?? niceStep(raw / 604_800_000) * 604_800_000
  }

  /// How the clock's labels read: `m:ss` on an axis shorter than an hour, `h:mm` on a longer one
  /// (`h:mm:ss` if its ticks are seconds apart), and `d hh:mm` past a day on one longer than a day.
  package var clockFormat: String {
    let format = upper < 3_600_000 ? "m:ss" : step < 60_000 ? "h:mm:ss" : "h:mm"
    guard upper > 86_400_000 else { return format }
    return "\(format); past a day, d \(format.replacing("h:", with: "hh:"))"
  }

  /// A time on the clock: `m:ss` without `hours`, else `h:mm` (`h:mm:ss` with `seconds`), and past
  /// a day `1 d 02:00`, never `26:00`.
  static func clock(_ milliseconds: Double, hours: Bool, seconds: Bool) -> String {
    let total = Int((milliseconds / 1000).rounded())
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    guard hours else { return "\(total / 60):\(two(total % 60))" }
    let days = total / 86_400
    let hour = total / 3600 % 24
    let hoursAndMinutes =
      "\(days > 0 ? "\(days) d \(two(hour))" : "\(hour)"):\(two(total / 60 % 60))"
    return seconds ? "\(hoursAndMinutes):\(two(total % 60))" : hoursAndMinutes
  }
}

/// The look of a chart's series: Okabe–Ito's eight colours (safe for colour-blind readers), then
/// the same colours again with another dash and marker, so no two series look alike.
package enum ChartStyle {
  package static let colours = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000",
  ]
  package static let dashes: [String?] = [nil, "6 3", "2 2", "8 3 2 3"]
  package enum Marker: String, CaseIterable, Sendable { case circle, square, triangle, diamond }

  /// Series `index`'s colour, dash (nil: solid) and marker.
  package static func series(_ index: Int) -> (colour: String, dash: String?, marker: Marker) {
    let round = index / colours.count
    return (
      colours[index % colours.count], dashes[round % dashes.count],
      Marker.allCases[round % Marker.allCases.count]
    )
  }

  /// A marker centred on (`x`, `y`) as SVG, with `format` writing numbers.
  package static func marker(
    _ marker: Marker, x: Double, y: Double, colour: String, format: (Double) -> String
  ) -> String {
    switch marker {
    case .circle:
      return "<circle cx=\"\(format(x))\" cy=\"\(format(y))\" r=\"3.5\" fill=\"\(colour)\"/>"
    case .square:
      return
        "<rect x=\"\(format(x - 3.2))\" y=\"\(format(y - 3.2))\" width=\"6.4\" height=\"6.4\" fill=\"\(colour)\"/>"
    case .triangle:
      return "<path d=\"M\(format(x)) \(format(y - 4.5))l4 7.5h-8z\" fill=\"\(colour)\"/>"
    case .diamond:
      return
        "<path d=\"M\(format(x)) \(format(y - 4.5))l4.5 4.5l-4.5 4.5l-4.5 -4.5z\" fill=\"\(colour)\"/>"
    }
  }

  /// A legend of series `names`: each one's line (with its dash, when `joined`) and marker.
  package static func legend(_ names: [String], joined: Bool) -> String {
    let entries = names.enumerated().map { index, name -> String in
      let style = series(index)
      let line =
        joined
        ? "<line x1=\"0\" y1=\"6\" x2=\"26\" y2=\"6\" stroke=\"\(style.colour)\" stroke-width=\"2\"\(style.dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>"
        : ""
      let mark = marker(style.marker, x: 13, y: 6, colour: style.colour) {
        Units.decimal($0, digits: 1)
      }
      return
        "<span><svg width=\"26\" height=\"12\" viewBox=\"0 0 26 12\">\(line)\(mark)</svg>\(HTMLDocument.escape(name))</span>"
    }
    return "<div class=\"legend\">\(entries.joined())</div>\n"
  }
}
