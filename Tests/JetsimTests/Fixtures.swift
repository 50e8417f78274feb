import Testing

@testable import Jetsim

/// Megabytes in kilobytes.
func mb(_ megabytes: Int) -> Int { megabytes * 1024 }

/// Seconds in milliseconds.
func sec(_ seconds: Int) -> Int { seconds * 1000 }

/// Small devices, apps and runs for the rule-by-rule tests.
enum Fixture {
  /// The device of docs/model.md §10: 1000 MB usable, warning below 200 MB free, critical below 100 MB.
  static let device = DeviceProfile(
    name: "Test device", memoryKB: mb(1200), reservedKB: mb(200), foregroundLimitKB: mb(1000),
    warningThresholdKB: mb(200), criticalThresholdKB: mb(100))

  static func app(
    _ id: String, resident: Int, caches: Int = 0, backing: Int = 0, work: Int = sec(5),
    configure: (inout AppProfile) -> Void = { _ in }
  ) -> AppProfile {
    var profile = AppProfile(
      id: id, residentKB: mb(resident), cachesKB: mb(caches), backingStoresKB: mb(backing),
      backgroundWorkMs: work)
    configure(&profile)
    return profile
  }

  /// The apps of docs/model.md §10.
  static let workedExampleApps = [
    app("a", resident: 300, caches: 100, backing: 50),
    app("b", resident: 250, caches: 50, backing: 50),
    app("c", resident: 200, caches: 50, backing: 50),
    app("d", resident: 400, caches: 0, backing: 50),
  ]

  static func run(
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
  func trail(_ id: String) -> [String] {
    guard let index = summary.appIDs.firstIndex(of: id) else { return [] }
    return events.filter { $0.app == index }.map(\.trailText)
  }

  /// The app's rows at `timeMs`.
  func trail(_ id: String, atMs timeMs: Int) -> [String] {
    guard let index = summary.appIDs.firstIndex(of: id) else { return [] }
    return events.filter { $0.app == index && $0.timeMs == timeMs }.map(\.trailText)
  }

  /// The app's footprint after its last row at or before `timeMs`.
  func footprint(_ id: String, atMs timeMs: Int) -> Int? {
    guard let index = summary.appIDs.firstIndex(of: id) else { return nil }
    return events.last { $0.app == index && $0.timeMs <= timeMs }?.footprintKB
  }

  /// The app's state after its last row at or before `timeMs`.
  func state(_ id: String, atMs timeMs: Int = .max) -> AppState {
    guard let index = summary.appIDs.firstIndex(of: id) else { return .notRunning }
    return events.last { $0.app == index && $0.timeMs <= timeMs }?.to ?? .notRunning
  }

  /// The ids of the apps that got didReceiveMemoryWarning at `timeMs`.
  func warned(atMs timeMs: Int) -> [String] {
    events.filter { $0.timeMs == timeMs && $0.callback == .didReceiveMemoryWarning }.map {
      summary.appIDs[$0.app]
    }
  }

  /// Kills as `app reason` strings.
  var killTexts: [String] { kills.map { "\(summary.appIDs[$0.app]) \($0.reason)" } }
}

extension EventRecord {
  var trailText: String {
    var text = "\(kind) \(from.map { "\($0)" } ?? "-")>\(to.map { "\($0)" } ?? "-")"
    if let callback { text += " \(callback)" }
    if let reason { text += " (\(reason))" }
    return text
  }
}
