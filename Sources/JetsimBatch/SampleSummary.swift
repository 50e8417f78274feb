import JetsimCore
import JetsimIO

/// Mean, extremes and a 95 % confidence interval of one metric across runs (seeds).
public struct SampleSummary: Sendable, Equatable {
  /// How many runs had a value.
  public let count: Int
  /// The mean.
  public let mean: Double
  /// The smallest value.
  public let min: Double
  /// The largest value.
  public let max: Double
  /// Half-width of the 95 % confidence interval of the mean (Student's t, n − 1 degrees of freedom);
  /// nil with fewer than two values.
  public let ci95: Double?

  /// The summary of the defined `values` (nil ones are left out); nil if none is defined.
  public init?(_ values: [Double?]) {
    let defined = values.compactMap { $0 }
    guard let first = defined.first else { return nil }
    let n = defined.count
    let average = defined.reduce(0, +) / Double(n)
    count = n
    mean = average
    min = defined.reduce(first, Swift.min)
    max = defined.reduce(first, Swift.max)
    if n > 1 {
      let variance = defined.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(n - 1)
      ci95 =
        Self.tCritical95(degreesOfFreedom: n - 1) * variance.squareRoot() / Double(n).squareRoot()
    } else {
      ci95 = nil
    }
  }

  /// Two-sided 95 % critical values of Student's t for 1 to 30 degrees of freedom.
  static let tTable: [Double] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145,
    2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
    2.048,
    2.045, 2.042,
  ]

  /// The critical value for `degreesOfFreedom`; beyond 30, the value of the nearest tabulated degrees
  /// of freedom below (40, 60, 120), which errs on the wide side, and 1.960 from 1000.
  static func tCritical95(degreesOfFreedom: Int) -> Double {
    if degreesOfFreedom <= 30 { return tTable[degreesOfFreedom - 1] }
    if degreesOfFreedom < 40 { return 2.042 }
    if degreesOfFreedom < 60 { return 2.021 }
    if degreesOfFreedom < 120 { return 2.000 }
    if degreesOfFreedom < 1000 { return 1.980 }
    return 1.960
  }
}
