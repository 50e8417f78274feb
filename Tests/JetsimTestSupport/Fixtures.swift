import JetsimCore

/// Megabytes in kilobytes.
public func mb(_ megabytes: Int) -> Int { megabytes * 1024 }

/// Seconds in milliseconds.
public func sec(_ seconds: Int) -> Int { seconds * 1000 }

/// Small devices, apps and runs for the rule-by-rule tests.
public enum Fixture {
  /// The device of docs/model.md §10: 1000 MB usable, warning below 200 MB free, critical below 100 MB.
  public static let device = DeviceProfile(
    name: "Test device", memoryKB: mb(1200), reservedKB: mb(200), foregroundLimitKB: mb(1000),
    warningThresholdKB: mb(200), criticalThresholdKB: mb(100))

  public static func app(
    _ id: String, resident: Int, caches: Int = 0, backing: Int = 0, work: Int = sec(5),
    configure: (inout AppProfile) -> Void = { _ in }
  ) -> AppProfile {
    var profile = AppProfile(
      id: id, residentKB: mb(resident), cachesKB: mb(caches), backingStoresKB: mb(backing),
      backgroundWorkMs: work)
    configure(&profile)
    return profile
  }

  /// Apps that between them take every path: modes, exit on suspend, a watchdog, an expiring task,
  /// growth, a launch peak, a per-app limit, caches freed on warnings.
  public static let stressApps: [AppProfile] = [
    app("game", resident: 380, caches: 120, backing: 60) {
      $0.launchPeakKB = mb(150)
      $0.growthPerMinuteKB = mb(30)
      $0.maxGrowthKB = mb(200)
      $0.memoryWarningFreesPercent = 50
    },
    app("music", resident: 90, caches: 40, backing: 30) {
      $0.backgroundModes = [.audio, .fetch]
    },
    app("maps", resident: 220, caches: 100, backing: 50) {
      $0.backgroundModes = [.location]
    },
    app("voip", resident: 120, caches: 50, backing: 40, work: sec(1)) {
      $0.backgroundModes = [.voip]
      $0.backgroundTaskMs = sec(10)
    },
    app("bank", resident: 80, caches: 20, backing: 30) { $0.exitsOnSuspend = true },
    app("slow", resident: 60, caches: 10, backing: 20, work: sec(8)),
    app("upload", resident: 70, caches: 10, backing: 20, work: sec(1)) {
      $0.backgroundTaskMs = sec(45)
    },
    app("leaky", resident: 150, caches: 60, backing: 40) {
      $0.memoryLimitKB = mb(400)
      $0.growthPerMinuteKB = mb(60)
    },
    app("feed", resident: 200, caches: 180, backing: 60) {
      $0.memoryWarningFreesPercent = 70
    },
    app("tiny", resident: 20, backing: 10),
    app("ramp", resident: 160, caches: 40, backing: 30) {
      $0.launchSteps = 4
      $0.coldLaunchMs = 3_000
    },
  ]

  /// The apps of docs/model.md §10.
  public static let workedExampleApps = [
    app("a", resident: 300, caches: 100, backing: 50),
    app("b", resident: 250, caches: 50, backing: 50),
    app("c", resident: 200, caches: 50, backing: 50),
    app("d", resident: 400, caches: 0, backing: 50),
  ]

  public static func run(
    _ apps: [AppProfile], _ actions: [TimedAction], device: DeviceProfile = device,
    durationMs: Int? = nil, policy: (any EvictionPolicy)? = nil
  ) throws -> RunResult {
    let scenario = Scenario(
      name: "test", device: device, apps: apps, actions: actions, durationMs: durationMs)
    return try Simulator.run(scenario, policy: policy)
  }
}

extension RunResult {
  /// The app's rows as `event from>to callback` strings, for readable expectations.
  public func trail(_ id: String) -> [String] {
    guard let index = summary.appIDs.firstIndex(of: id) else { return [] }
    return events.filter { $0.app == index }.map(\.trailText)
  }

  /// The app's rows at `timeMs`.
  public func trail(_ id: String, atMs timeMs: Int) -> [String] {
    guard let index = summary.appIDs.firstIndex(of: id) else { return [] }
    return events.filter { $0.app == index && $0.timeMs == timeMs }.map(\.trailText)
  }

  /// The app's footprint after its last row at or before `timeMs`.
  public func footprint(_ id: String, atMs timeMs: Int) -> Int? {
    guard let index = summary.appIDs.firstIndex(of: id) else { return nil }
    return events.last { $0.app == index && $0.timeMs <= timeMs }?.footprintKB
  }

  /// The app's state after its last row at or before `timeMs`.
  public func state(_ id: String, atMs timeMs: Int = .max) -> AppState {
    guard let index = summary.appIDs.firstIndex(of: id) else { return .notRunning }
    return events.last { $0.app == index && $0.timeMs <= timeMs }?.to ?? .notRunning
  }

  /// The ids of the apps that got didReceiveMemoryWarning at `timeMs`.
  public func warned(atMs timeMs: Int) -> [String] {
    events.filter { $0.timeMs == timeMs && $0.callback == .didReceiveMemoryWarning }.map {
      summary.appIDs[$0.app]
    }
  }

  /// Kills as `app reason` strings.
  public var killTexts: [String] { kills.map { "\(summary.appIDs[$0.app]) \($0.reason)" } }
}

extension EventRecord {
  public var trailText: String {
    var text = "\(kind) \(from.map { "\($0)" } ?? "-")>\(to.map { "\($0)" } ?? "-")"
    if let callback { text += " \(callback)" }
    if let reason { text += " (\(reason))" }
    return text
  }
}
