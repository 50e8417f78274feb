import JetsimCore

/// How far a number of a run may be from the golden's and still match (`jetsim check --numbers
/// --tolerance`): a share of the golden value, for every number, or a size, for the columns in KB
/// (other numbers then match exactly).
public enum NumberTolerance: Sendable, Equatable, CustomStringConvertible {
  /// Within this percentage of the golden value.
  case percent(Double)
  /// Within this many KB, for sizes.
  case kilobytes(Int)

  /// `5%` or a size such as `1MB`; nil for anything else.
  public init?(_ text: String) {
    if text.hasSuffix("%") {
      guard let value = Double(text.dropLast()), value >= 0, value <= 100 else { return nil }
      self = .percent(value)
    } else if let kilobytes = Units.kilobytes(text) {
      self = .kilobytes(kilobytes)
    } else {
      return nil
    }
  }

  public var description: String {
    switch self {
    case .percent(let value): "\(Units.decimal(value, digits: 2))%"
    case .kilobytes(let value): Units.formatSize(value)
    }
  }

  /// Whether the run's `actual` matches the golden `expected` in `column`: equal text, or both
  /// numbers within the tolerance.
  func matches(_ expected: String?, _ actual: String?, column: String) -> Bool {
    if expected == actual { return true }
    guard let want = expected.flatMap(Int.init), let got = actual.flatMap(Int.init) else {
      return false
    }
    let gap = (want - got).magnitude
    switch self {
    case .percent(let share): return Double(gap) <= Double(want.magnitude) * share / 100
    case .kilobytes(let size): return column.hasSuffix("_kb") && gap <= UInt(size)
    }
  }
}
