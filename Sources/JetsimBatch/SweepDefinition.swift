import Foundation
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
    public var label: String
    let apply: @Sendable (inout Scenario) -> Void
  }

  /// One axis: its column name in the reports and its values.
  public struct Axis: Sendable {
    public var name: String
    public var column: String
    public var values: [Value]
  }

  public var name: String
  public var base: Scenario
  /// The axes present, in the order they vary (without seeds).
  public var axes: [Axis]
  public var seeds: [UInt64]
  /// A digest of the sweep file and every input it names, to tell whether a partial sweep may be
  /// resumed or shards merged.
  public var digest: String

  /// The number of points (runs per seed) and of runs.
  public var pointCount: Int { axes.reduce(1) { $0 * $1.values.count } }
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
