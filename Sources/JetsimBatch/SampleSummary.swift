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
    var sums = SampleSums()
    for value in values { sums.add(value) }
    for value in values { sums.addDeviation(value) }
    guard let summary = sums.summary else { return nil }
    self = summary
  }

  /// The summary of `count` values with these sums (`SampleSums`).
  fileprivate init(count n: Int, sum: Double, min: Double, max: Double, deviations: Double) {
    count = n
    mean = sum / Double(n)
    self.min = min
    self.max = max
    if n > 1 {
      let variance = deviations / Double(n - 1)
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

/// A `SampleSummary` of values met one at a time, in two passes over them: first each value
/// (`add`), then each again (`addDeviation`), for the squared deviations from the mean of the
/// first. The sums are taken in the values' order, so the summary is the same to the bit whether
/// the values are held together or read twice from a file.
struct SampleSums {
  private var count = 0
  private var sum = 0.0
  private var min = 0.0
  private var max = 0.0
  private var deviations = 0.0

  /// Counts `value` (nil is left out); in the first pass.
  mutating func add(_ value: Double?) {
    guard let value else { return }
    if count == 0 { (min, max) = (value, value) }
    count += 1
    sum += value
    min = Swift.min(min, value)
    max = Swift.max(max, value)
  }

  /// Adds `value`'s squared deviation from the mean (nil is left out); in the second pass, once
  /// every value is added.
  mutating func addDeviation(_ value: Double?) {
    guard let value else { return }
    let mean = sum / Double(count)
    deviations += (value - mean) * (value - mean)
  }

  /// The summary; nil without a value.
  var summary: SampleSummary? {
    count == 0
      ? nil : SampleSummary(count: count, sum: sum, min: min, max: max, deviations: deviations)
  }

  /// The sums of several metrics side by side (a row's values, in their order).
  struct Columns {
    private var columns: [SampleSums]

    init(count: Int) { columns = Array(repeating: SampleSums(), count: count) }

    /// Adds a row's values, one to each column; in the first pass.
    mutating func add(_ values: some Sequence<Double?>) {
      for (column, value) in zip(columns.indices, values) { columns[column].add(value) }
    }

    /// Adds a row's squared deviations; in the second pass.
    mutating func addDeviations(_ values: some Sequence<Double?>) {
      for (column, value) in zip(columns.indices, values) { columns[column].addDeviation(value) }
    }

    /// Each column's summary.
    var summaries: [SampleSummary?] { columns.map(\.summary) }
  }
}
