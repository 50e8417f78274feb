import JetsimCore
import JetsimIO

/// A sweep file (docs/scaling.md): a base scenario and axes whose Cartesian product, times the seeds,
/// is the set of runs. Axes vary in a fixed order (the order of `SweepDefinition.axisNames`), seeds
/// innermost, so run numbers are stable.
public struct SweepDefinition: Sendable {
  /// The axes a sweep file may have, in the order they vary (the last fastest, before the seeds).
  public static let axisNames = [
    "device", "memory", "apps", "policy", "userModel.zipf", "userModel.dwell", "userModel.gap",
    "userModel.growthPerMinute", "seeds",
  ]

  /// One value of one axis: its label in the reports and how it changes the scenario.
  public struct Value: Sendable {
    /// The value as `sweep.csv` writes it.
    public var label: String
    let apply: @Sendable (inout Scenario) -> Void
  }

  /// One axis: its column name in the reports and its values.
  public struct Axis: Sendable {
    /// The axis's name in the sweep file (`memory`, `policy`, `userModel.zipf`...).
    public var name: String
    /// Its column in `sweep.csv` (`memory_kb`, `policy`...).
    public var column: String
    /// Its values, in the file's order.
    public var values: [Value]
  }

  /// The sweep's name.
  public var name: String
  /// The scenario every run varies.
  public var base: Scenario
  /// The axes present, in the order they vary (without seeds).
  public var axes: [Axis]
  /// The seeds each point is run with.
  public var seeds: [UInt64]
  /// A digest of the sweep file and every input it names, to tell whether a partial sweep may be
  /// resumed or shards merged.
  public var digest: String

  /// The number of points (runs per seed) and of runs.
  public var pointCount: Int { axes.reduce(1) { $0 * $1.values.count } }
  /// The number of runs: points × seeds.
  public var runCount: Int { pointCount * seeds.count }

  /// The column names of the axes in `sweep.csv`, then `seed`.
  public var columns: [String] { axes.map(\.column) + ["seed"] }

  /// Run `index`'s scenario and the labels of its axis values (with the seed last).
  public func run(_ index: Int) -> (scenario: Scenario, labels: [String]) {
    var scenario = base
    var labels: [String] = []
    var rest = index / seeds.count
    var choices: [Int] = []
    for axis in axes.reversed() {
      choices.append(rest % axis.values.count)
      rest /= axis.values.count
    }
    for (axis, choice) in zip(axes, choices.reversed()) {
      axis.values[choice].apply(&scenario)
      labels.append(axis.values[choice].label)
    }
    scenario.seed = seeds[index % seeds.count]
    labels.append(String(scenario.seed))
    return (scenario, labels)
  }
}
