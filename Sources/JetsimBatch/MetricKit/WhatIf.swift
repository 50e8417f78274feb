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
    /// `exit` per day (24 h of simulated time) on each seed, for `SampleSummary`.
    public var perDay: [MetricKitExit: [Double?]]
    /// The app's size today (see `WhatIf.todayKB`), in KB.
    public var todayKB = 0
    /// `exit` per day on each seed with the app at its size today, on the same device.
    public var todayPerDay: [MetricKitExit: [Double?]] = [:]
    /// The app's memory limit on the device, in KB: its profile's `memoryLimit`, else the device's
    /// foreground limit (0 when unknown).
    public var limitKB = 0
    /// Whether the limit is the device's foreground limit (the app sets no `memoryLimit`).
    public var limitIsTheDevices = true

    /// Whether the app's resident memory alone is over its limit: every launch crosses it and is
    /// killed (`per-process-limit`, MetricKit's memory-resource-limit exits), so the app is rarely
    /// in the background for memory pressure to push out, and its fewer pressure exits save nothing.
    public var isOverLimit: Bool { limitKB > 0 && residentKB > limitKB }

    /// Memory-limit exits (background and foreground) per day on each seed at `perDay`.
    static func limitExits(_ perDay: [MetricKitExit: [Double?]]) -> [Double?] {
      let background = perDay[.backgroundMemoryResourceLimit] ?? []
      let foreground = perDay[.foregroundMemoryResourceLimit] ?? []
      return zip(background, foreground).map { a, b in
        guard let a, let b else { return nil }
        return a + b
      }
    }

    /// The mean and 95 % interval across seeds of memory-limit exits (background and foreground)
    /// per day.
    public var limitExitsSummary: SampleSummary? { SampleSummary(Self.limitExits(perDay)) }

    /// Memory-limit exits per day at this size minus at today's size, seed by seed, with its 95 %
    /// interval.
    public var limitExitsVsToday: SampleSummary? {
      SampleSummary(
        zip(Self.limitExits(perDay), Self.limitExits(todayPerDay)).map { value, base in
          guard let value, let base else { return nil }
          return value - base
        })
    }

    /// The mean and 95 % interval across seeds of `exit` per day.
    public func summary(_ exit: MetricKitExit) -> SampleSummary? {
      SampleSummary(perDay[exit] ?? [])
    }

    /// `exit` per day at this size minus at today's size, seed by seed (the same seeds and
    /// workload), with its 95 % interval: what the change costs or saves.
    public func vsToday(_ exit: MetricKitExit) -> SampleSummary? {
      let today = todayPerDay[exit] ?? []
      return SampleSummary(
        zip(perDay[exit] ?? [], today).map { value, base in
          guard let value, let base else { return nil }
          return value - base
        })
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

  /// The index of `app` in `scenario`, or an error saying it is a system process, or naming the
  /// apps it has.
  public static func index(of app: String, in scenario: Scenario) throws(JetsimError) -> Int {
    if !scenario.apps.contains(where: { $0.id == app }),
      scenario.device.systemProcesses.contains(where: { $0.name == app })
    {
      throw .invalidEntry(
        path: scenario.origin, keyPath: "apps",
        message:
          "'\(app.excerpt())' is a system process of the device, not an app; a system process's memory is the device's, not an app's to change"
      )
    }
    guard let index = scenario.apps.firstIndex(where: { $0.id == app }) else {
      let ids = scenario.apps.map(\.id)
      let hint = Suggestion.closest(to: app, in: ids).map { "did you mean '\($0)'? " } ?? ""
      let known = ids.prefix(8).joined(separator: ", ") + (ids.count > 8 ? ", ..." : "")
      throw .invalidEntry(
        path: scenario.origin, keyPath: "apps",
        message: "no app '\(app.excerpt())' to change; \(hint)its apps are \(known)")
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
  /// memory at each of `residentsKB` and at its size today (`todayKB`), on every seed: devices
  /// outermost, sizes in the given order. The size replaces the app's footprint in the
  /// scenario's snapshot too. Each point carries its paired difference from today's size.
  ///
  /// - Complexity: *devices* × (*sizes* + 1) × *seeds* runs.
  public static func run(
    _ scenario: Scenario, app: String, residentsKB: [Int], devices: [DeviceProfile],
    seeds: [UInt64], jobs: Int, progress: (@Sendable (_ done: Int, _ of: Int) -> Void)? = nil
  ) throws(JetsimError) -> [Point] {
    let index = try index(of: app, in: scenario)
    let devices = devices.isEmpty ? [scenario.device] : devices
    let today = todayKB(of: index, in: scenario)
    let sizes = sizesRun(residentsKB, todayKB: today)
    let grid = devices.flatMap { device in sizes.map { (device, $0) } }
    let total = grid.count * seeds.count
    var finished: (@Sendable (Int) -> Void)?
    if let progress { finished = { progress($0, total) } }
    let runs: [MetricKitPayload]
    do {
      runs = try ParallelMap.runs(of: scenario, count: total, jobs: jobs, progress: finished) {
        number in
        let (device, residentKB) = grid[number / seeds.count]
        var run = resized(scenario, app: index, residentKB: residentKB).unshared
        run.device = device
        run.seed = seeds[number % seeds.count]
        return try payload(run, app: index)
      }
    } catch .invalidValue("snapshot", let process, let value, _) {
      throw .invalidValue(
        path: scenario.origin, keyPath: "snapshot",
        value: "\(app) at up to \(Units.megabytes(sizes.max() ?? 0))",
        expected:
          "sizes that leave room for the snapshot's other processes at time 0 ('\(process)' is \(value)); try smaller ones"
      )
    }
    let points = grid.enumerated().map { number, cell in
      let mine = runs[(number * seeds.count)..<((number + 1) * seeds.count)]
      var total = MetricKitPayload(app: app, device: cell.0.name, durationMs: 0)
      for payload in mine { total.add(payload) }
      var perDay: [MetricKitExit: [Double?]] = [:]
      for exit in exits { perDay[exit] = mine.map { $0.perDay(exit) } }
      let limit = scenario.apps[index].memoryLimitKB
      return Point(
        device: cell.0.name, residentKB: cell.1, payload: total, perDay: perDay, todayKB: today,
        limitKB: limit ?? cell.0.foregroundLimitKB, limitIsTheDevices: limit == nil)
    }
    return pairedWithToday(points, sizes: sizes.count, asked: residentsKB.count)
  }

  /// The sizes run on each device for `residentsKB` asked: those, then today's size unless it is
  /// among them.
  public static func sizesRun(_ residentsKB: [Int], todayKB: Int) -> [Int] {
    residentsKB.contains(todayKB) ? residentsKB : residentsKB + [todayKB]
  }

  /// The points asked for (the first `asked` of every `sizes` a device), each with its device's
  /// point at today's size as `todayPerDay`.
  static func pairedWithToday(_ points: [Point], sizes: Int, asked: Int) -> [Point] {
    stride(from: 0, to: points.count, by: sizes).flatMap { start in
      let device = points[start..<(start + sizes)]
      let today = device.first { $0.residentKB == $0.todayKB }?.perDay ?? [:]
      return device.prefix(asked).map { point in
        var paired = point
        paired.todayPerDay = today
        return paired
      }
    }
  }
}
