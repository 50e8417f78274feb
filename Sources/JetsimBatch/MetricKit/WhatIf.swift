import JetsimCore
import JetsimIO

/// "What if my app used less memory?": the same workload with one app at several resident sizes on
/// several devices, read as what MetricKit would report for that app (`jetsim what-if`).
public struct WhatIf: Sendable {
  /// One device and size: the app's payload over every seed, and its background memory-pressure
  /// exits per day on each seed.
  public struct Point: Sendable {
    /// The device's name.
    public var device: String
    /// The app's resident memory (its suspended footprint), in KB.
    public var residentKB: Int
    /// The app's payload summed over every seed's run (counts added, time added).
    public var payload: MetricKitPayload
    /// `exit` per day on each seed, for `SampleSummary`.
    public var perDay: [MetricKitExit: [Double?]]

    /// The mean and 95 % interval across seeds of `exit` per day.
    public func summary(_ exit: MetricKitExit) -> SampleSummary? {
      SampleSummary(perDay[exit] ?? [])
    }
  }

  /// The counters a what-if reports per seed: background memory pressure first, then the other
  /// memory counters.
  public static let exits: [MetricKitExit] = [
    .backgroundMemoryPressure, .backgroundMemoryResourceLimit, .foregroundMemoryResourceLimit,
  ]

  /// The app's payload in one run of `scenario` (which must have an app `app`).
  static func payload(_ scenario: Scenario, app index: Int) throws(JetsimError) -> MetricKitPayload
  {
    var quiet = DiscardingObserver()
    return MetricKitPayload(app: index, of: try Simulator.run(scenario, observer: &quiet))
  }

  /// The index of `app` in `scenario`, or an error naming the apps it has.
  public static func index(of app: String, in scenario: Scenario) throws(JetsimError) -> Int {
    guard let index = scenario.apps.firstIndex(where: { $0.id == app }) else {
      let known = scenario.apps.prefix(8).map(\.id).joined(separator: ", ")
      throw .invalidValue(
        path: scenario.origin, keyPath: "apps", value: app,
        expected: "the id of one of its apps (\(known)\(scenario.apps.count > 8 ? ", ..." : ""))")
    }
    return index
  }

  /// `app`'s payloads in `scenario` on each seed, in seed order, on `jobs` threads.
  public static func payloads(
    _ scenario: Scenario, app: String, seeds: [UInt64], jobs: Int
  ) throws(JetsimError) -> [MetricKitPayload] {
    let index = try index(of: app, in: scenario)
    return try ParallelMap.runs(of: scenario, count: seeds.count, jobs: jobs) { seed in
      var run = scenario.unshared
      run.seed = seeds[seed]
      return try payload(run, app: index)
    }
  }

  /// Runs `scenario` on every device in `devices` (its own when empty) with `app`'s resident
  /// memory at each of `residentsKB`, on every seed: devices outermost, sizes in the given order.
  ///
  /// - Complexity: *devices* × *sizes* × *seeds* runs.
  public static func run(
    _ scenario: Scenario, app: String, residentsKB: [Int], devices: [DeviceProfile],
    seeds: [UInt64], jobs: Int, progress: (@Sendable (_ done: Int, _ of: Int) -> Void)? = nil
  ) throws(JetsimError) -> [Point] {
    let index = try index(of: app, in: scenario)
    let devices = devices.isEmpty ? [scenario.device] : devices
    let grid = devices.flatMap { device in residentsKB.map { (device, $0) } }
    let total = grid.count * seeds.count
    var finished: (@Sendable (Int) -> Void)?
    if let progress { finished = { progress($0, total) } }
    let runs = try ParallelMap.runs(of: scenario, count: total, jobs: jobs, progress: finished) {
      number in
      let (device, residentKB) = grid[number / seeds.count]
      var run = scenario.unshared
      run.device = device
      run.apps[index].residentKB = residentKB
      run.seed = seeds[number % seeds.count]
      return try payload(run, app: index)
    }
    return grid.enumerated().map { number, cell in
      let mine = runs[(number * seeds.count)..<((number + 1) * seeds.count)]
      var total = MetricKitPayload(app: app, device: cell.0.name, durationMs: 0)
      for payload in mine { total.add(payload) }
      var perDay: [MetricKitExit: [Double?]] = [:]
      for exit in exits { perDay[exit] = mine.map { $0.perDay(exit) } }
      return Point(device: cell.0.name, residentKB: cell.1, payload: total, perDay: perDay)
    }
  }
}
