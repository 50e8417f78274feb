import JetsimCore
import JetsimIO

/// Finds the smallest memory for a target by bisection (`jetsim plan`).
public enum Planner {
  /// The memory range searched when none is given: from the smallest size above the device's
  /// reserved memory (plus one step of the precision) to 16 GB, or twice the device's memory if
  /// that is more.
  public static func defaultRange(for device: DeviceProfile, precisionKB: Int) -> (
    minKB: Int, maxKB: Int
  ) {
    let step = max(precisionKB, 1)
    let minimum = (device.reservedKB + step + step - 1) / step * step
    let maximum = max(16 * 1_048_576, 2 * device.memoryKB, minimum + step)
    return (minimum, maximum)
  }

  /// The memory range searched when none is given, for `scenario`: from the smallest size on the
  /// grid at which it can run on its device (`startProblem` finds nothing: the device validates,
  /// its system processes and the snapshot fit beside the reserved memory), and at least the
  /// device's reserved memory plus one step, to 16 GB or twice the device's memory (and above the
  /// smallest).
  public static func defaultRange(for scenario: Scenario, precisionKB: Int) -> (
    minKB: Int, maxKB: Int
  ) {
    let range = defaultRange(for: scenario.device, precisionKB: precisionKB)
    let step = max(precisionKB, 1)
    guard
      let smallest = smallestStartingKB(
        scenario, fromKB: range.minKB, toKB: range.maxKB, precisionKB: step)
    else { return range }
    return (smallest, max(range.maxKB, smallest + step))
  }

  /// Why `scenario` cannot run with its device at `memoryKB`, checked as `validate` checks a
  /// device and a sweep each memory of its axis (the device's problems, then the scenario's parts
  /// on it), and by placing the snapshot's processes at time 0 where there is a snapshot; nil when
  /// it can.
  package static func startProblem(_ scenario: Scenario, atKB memoryKB: Int) -> String? {
    var sized = scenario
    sized.device = scenario.device.withMemory(memoryKB)
    if let problem = sized.device.problems().first {
      return "'\(problem.key)' is \(problem.value); expected \(problem.expected)"
    }
    do throws(JetsimError) {
      try ProfileLoader.checkParts(of: sized, path: scenario.origin)
      if sized.snapshot != nil {
        var start = sized.unshared
        start.durationMs = 1
        var quiet = DiscardingObserver()
        _ = try Simulator.run(start, observer: &quiet)
      }
    } catch .invalidValue(_, let keyPath, let value, let expected) {
      return "'\(keyPath)' is \(value); expected \(expected)"
    } catch {
      return "\(error)"
    }
    return nil
  }

  /// The smallest size on the `precisionKB` grid from `fromKB` to `toKB` at which `scenario` can
  /// run (`startProblem`), by bisection (a size that fits its processes fits them with more
  /// memory); nil when it cannot run even at `toKB`.
  package static func smallestStartingKB(
    _ scenario: Scenario, fromKB: Int, toKB: Int, precisionKB: Int
  ) -> Int? {
    let grid = { (kb: Int) in (kb + precisionKB - 1) / precisionKB * precisionKB }
    var (low, high) = (grid(fromKB), max(grid(toKB), grid(fromKB)))
    if startProblem(scenario, atKB: low) == nil { return low }
    guard startProblem(scenario, atKB: high) == nil else { return nil }
    while high - low > precisionKB {
      let middle = low + (high - low) / 2 / precisionKB * precisionKB
      if startProblem(scenario, atKB: middle) == nil { high = middle } else { low = middle }
    }
    return high
  }

  /// Bisects device memory between `minKB` and `maxKB` until the bracket is `precisionKB` wide,
  /// running every seed at each size (on `jobs` threads): the smallest size whose statistic over
  /// the seeds meets the target, then the smallest whose statistic's 95 % interval meets it at
  /// its good end and at its bad end (the answer's interval). With `maxSeeds` above the seeds'
  /// count, runs rounds of twice as many seeds (the next numbers after the largest) until the
  /// answer moves by no more than `precisionKB` and its interval has both ends (or the target is
  /// missed in both of the last two rounds), or `maxSeeds` is reached; a size tried before is
  /// only run with the seeds it lacks. Memory sizes are multiples of `precisionKB`; thresholds the
  /// device does not set follow the memory. Bisection assumes that more memory never hurts; the
  /// curve shows whether it did. The result depends on the inputs only, not on `jobs`.
  ///
  /// - Complexity: O(log((*max* − *min*) / *precision*)) memory sizes a round, each *s* runs for
  ///   *s* seeds.
  public static func plan(
    _ scenario: Scenario, target: CapacityTarget, seeds: [UInt64], minKB: Int, maxKB: Int,
    precisionKB: Int, jobs: Int, maxSeeds: Int? = nil,
    progress: (@Sendable (Int) -> Void)? = nil
  ) throws(JetsimError) -> CapacityPlan {
    try checkRange(scenario, minKB: minKB, maxKB: maxKB, precisionKB: precisionKB)
    let grid = { (kb: Int) in (kb + precisionKB - 1) / precisionKB * precisionKB }
    var search = PlanSearch(
      scenario: scenario, target: target, lowKB: grid(minKB), highKB: grid(maxKB),
      precisionKB: precisionKB, jobs: jobs, progress: progress)
    var seeds = seeds
    var rounds: [CapacityPlan.Round] = []
    while true {
      rounds.append(try search.round(seeds))
      try checkHasValue(search, scenario, seeds)
      let limit = maxSeeds ?? seeds.count
      guard seeds.count < limit, !done(rounds, precisionKB) else { break }
      seeds += nextSeeds(after: seeds, count: min(limit, 2 * seeds.count) - seeds.count)
    }
    return CapacityPlan(
      target: target, seeds: seeds, precisionKB: precisionKB, probes: search.probes(seeds),
      rounds: rounds, maxSeeds: maxSeeds)
  }

  /// Whether more seeds are not needed: the last two rounds' answers are within `precisionKB`,
  /// and the last answer has an interval with both ends (or both rounds missed the target).
  static func done(_ rounds: [CapacityPlan.Round], _ precisionKB: Int) -> Bool {
    let settled =
      CapacityPlan(
        target: CapacityTarget(metric: .rankDefault, comparison: .atLeast, value: 0), seeds: [],
        precisionKB: precisionKB, probes: [], rounds: rounds
      ).settled ?? false
    guard let last = rounds.last, last.answerKB != nil else { return settled }
    return settled && last.lowKB != nil && last.highKB != nil
  }

  /// Refuses a target whose metric no run has a value of (a ratio over none: no app opened again,
  /// for the warm-resume ratios): no memory meets it or misses it, so the plan would only say it
  /// was not met. A seed without a value among seeds with one counts as a day that misses the
  /// target (under `@mean`, the mean is over the seeds with one).
  static func checkHasValue(_ search: PlanSearch, _ scenario: Scenario, _ seeds: [UInt64])
    throws(JetsimError)
  {
    guard !search.outcomes.values.contains(where: { $0.contains { $0.value != nil } }) else {
      return
    }
    let metric = search.target.metric
    let sizes = search.outcomes.keys.sorted().map(Units.formatSize).joined(separator: ", ")
    throw .invalidEntry(
      path: scenario.origin, keyPath: "target",
      message:
        "no run has a value of \(metric.name) (\(seeds.count.counted("seed")) at \(sizes)): it is a ratio this workload gives nothing to divide by, so no memory meets or misses \(search.target); choose another metric, such as kills_per_hour"
    )
  }

  /// `count` seeds after the largest of `seeds`, in order.
  static func nextSeeds(after seeds: [UInt64], count: Int) -> [UInt64] {
    let start = (seeds.max() ?? 0) &+ 1
    return (0..<UInt64(max(count, 0))).map { start &+ $0 }
  }

  /// Rejects a range below the device's reserved memory plus one step, or an empty one, or one
  /// whose smallest memory the policy settings given do not fit (lmkd's watermarks above it: every
  /// size under them would be under pressure from the start, and the bisection would measure that),
  /// or one whose smallest memory the scenario cannot run at (`startProblem`: the device does not
  /// validate there, or its snapshot does not fit), naming the smallest memory it can run at.
  static func checkRange(_ scenario: Scenario, minKB: Int, maxKB: Int, precisionKB: Int)
    throws(JetsimError)
  {
    let floor = scenario.device.reservedKB + precisionKB
    let range =
      "\(Units.megabytes(minKB)) to \(Units.megabytes(maxKB)) in steps of \(Units.megabytes(precisionKB))"
    guard precisionKB > 0, minKB < maxKB, minKB >= floor else {
      throw .invalidValue(
        path: scenario.origin, keyPath: "memory range", value: range,
        expected:
          "a minimum of at least the device's reserved memory plus one step (\(Units.megabytes(floor))), below the maximum"
      )
    }
    let grid = (minKB + precisionKB - 1) / precisionKB * precisionKB
    let smallest = scenario.device.withMemory(grid)
    if let (policy, problem) = scenario.effectivePolicySettings.problem(on: smallest) {
      throw .invalidValue(
        path: scenario.origin, keyPath: "memory range", value: range,
        expected:
          "a minimum at which policyParameters.\(policy).\(problem.key), \(problem.value), fits: \(problem.expected)"
      )
    }
    if let problem = startProblem(scenario, atKB: grid) {
      let top = max(maxKB, 16 * 1_048_576, 2 * scenario.device.memoryKB)
      let smallest = smallestStartingKB(
        scenario, fromKB: grid, toKB: top, precisionKB: precisionKB)
      throw .invalidValue(
        path: scenario.origin, keyPath: "memory range", value: range,
        expected:
          "a minimum at which the scenario can run on \(scenario.device.name), as validate and a sweep check each size (at \(Units.formatSize(grid)), \(problem)); "
          + (smallest.map { "the smallest on the grid is \(Units.formatSize($0))" }
            ?? "it cannot run even at \(Units.formatSize(top))")
      )
    }
  }
}
