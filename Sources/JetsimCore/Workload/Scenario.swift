/// Everything one run needs: a device, its apps, a workload, a policy name and a seed.
///
/// Build one in code or load it with `ProfileLoader.scenario(at:)`; `Simulator.run` runs it.
public struct Scenario: Sendable {
  /// The scenario's name; reports go in `Reports/<name>/` by default.
  public var name: String
  /// What the scenario is for.
  public var summary: String
  /// The device.
  public var device: DeviceProfile
  /// The apps installed on it; their order is the order of `apps.csv`.
  public var apps: [AppProfile]
  /// The scripted actions, in time order.
  public var actions: [TimedAction]
  /// The eviction policy's name (see `PolicyRegistry`).
  public var policy: String
  /// Settings of the built-in policies; where a policy is left out, the device's apply.
  public var policySettings = PolicySettings()
  /// The seed of every random stream in the run.
  public var seed: UInt64
  /// When the run ends, in milliseconds; nil ends it when the workload and its timers are done.
  public var durationMs: Int?
  /// Where the scenario came from, for error messages.
  public var origin: String
  /// A seeded user model whose actions (for `durationMs`, drawn from `seed`) join the scripted ones.
  public var userModel: UserModel?
  /// The files it was loaded from, with their digests (empty for a scenario built in code).
  public var inputs: [RunInput] = []
  /// The device's state at time 0, if the run starts from one (docs/model.md §11).
  public var snapshot: Snapshot?
  /// Where each action came from (`script[3]`, `trace.csv:12`), for error messages.
  package var actionOrigins: [(path: String, location: String)] = []

  public init(
    name: String, summary: String = "", device: DeviceProfile, apps: [AppProfile],
    actions: [TimedAction], policy: String = Defaults.policy, seed: UInt64 = Defaults.seed,
    durationMs: Int? = nil, origin: String? = nil
  ) {
    self.name = name
    self.summary = summary
    self.device = device
    self.apps = apps
    self.actions = actions
    self.policy = policy
    self.seed = seed
    self.durationMs = durationMs
    self.origin = origin ?? "scenario '\(name)'"
  }

  /// A copy that shares no strings or arrays with this one. Runs on several threads each take one,
  /// so that their reference counting never touches the same objects.
  public var unshared: Scenario {
    var copy = self
    copy.device = device.unshared
    copy.apps = apps.map(\.unshared)
    copy.actions = actions.map { TimedAction($0.timeMs, $0.action.unshared) }
    if var model = userModel {
      model.apps = model.apps.map(\.unshared)
      model.wakes = model.wakes.map {
        UserModel.Wakes(app: $0.app.unshared, perHour: $0.perHour, durationMs: $0.durationMs)
      }
      model.audio = model.audio.map {
        UserModel.AudioSessions(app: $0.app.unshared, perHour: $0.perHour, duration: $0.duration)
      }
      copy.userModel = model
    }
    return copy
  }

  /// The policy settings in force: the scenario's, else the device's, else the real systems'.
  public var effectivePolicySettings: PolicySettings {
    policySettings.overriding(device.policySettings)
  }

  /// A fresh instance of the policy named `name` (by default the scenario's), with its settings.
  public func makePolicy(_ name: String? = nil) throws(JetsimError) -> any EvictionPolicy {
    try PolicyRegistry.make(name ?? policy, settings: effectivePolicySettings)
  }

  /// Every process's name, by index: the apps' ids, then the device's system processes' names.
  public var processNames: [String] { apps.map(\.id) + device.systemProcesses.map(\.name) }

  /// The index of the app with `id`, if any.
  public func appIndex(_ id: String) -> Int? { apps.firstIndex { $0.id == id } }

  /// The workload as simulator steps, after checking that app ids are unique, every action names a
  /// defined app, modes are declared by their apps and times never go back.
  public func compiledWorkload() throws(JetsimError) -> [WorkloadStep] {
    var indices: [String: Int32] = [:]
    for (index, app) in apps.enumerated() {
      guard indices.updateValue(Int32(index), forKey: app.id) == nil else {
        throw .duplicateApp(path: origin, id: app.id)
      }
    }
    var names = Set(indices.keys)
    for process in device.systemProcesses {
      guard names.insert(process.name).inserted else {
        throw .duplicateApp(path: origin, id: process.name)
      }
    }
    // Each action keeps the number of the scripted action it came from (-1: the user model); the
    // words of its origin are built only for an error message.
    var actions = self.actions
    var sources = Array(actions.indices)
    if let userModel {
      guard let durationMs else {
        throw .invalidValue(
          path: origin, keyPath: "duration", value: "missing",
          expected: "a duration for the user model")
      }
      let modelled = userModel.actions(durationMs: durationMs, seed: seed).map { ($0, -1) }
      let merged = (Array(zip(actions, sources)) + modelled).stableSorted {
        $0.0.timeMs < $1.0.timeMs
      }
      actions = merged.map(\.0)
      sources = merged.map(\.1)
    }
    func location(_ position: Int) -> (path: String, location: String) {
      let source = sources[position]
      if source < 0 { return (origin, "userModel") }
      return source < actionOrigins.count ? actionOrigins[source] : (origin, "actions[\(source)]")
    }
    var steps: [WorkloadStep] = []
    steps.reserveCapacity(actions.count)
    var previous = 0
    for (position, timed) in actions.enumerated() {
      guard timed.timeMs >= previous else {
        let (path, place) = location(position)
        throw .invalidValue(
          path: path, keyPath: place,
          value: "at \(timed.timeMs)ms, before the previous action (\(previous)ms)",
          expected: "actions in time order")
      }
      previous = timed.timeMs
      var app: Int32 = -1
      if let id = timed.action.app {
        guard let index = indices[id] else {
          let (path, place) = location(position)
          throw .unknownApp(
            path: path, location: place, id: id,
            suggestion: Suggestion.closest(to: id, in: apps.map(\.id)))
        }
        app = index
        if case .startMode(_, let mode) = timed.action, !apps[Int(index)].declares(mode) {
          let (path, place) = location(position)
          let declared = apps[Int(index)].backgroundModes.map(\.rawValue).joined(separator: ", ")
          throw .invalidValue(
            path: path, keyPath: place, value: "mode '\(mode)' for '\(id)'",
            expected: "a mode the app declares in backgroundModes (\(declared))")
        }
      }
      steps.append(
        WorkloadStep(
          timeMs: timed.timeMs, kind: timed.action.kind, app: app, value: timed.action.value))
    }
    return steps
  }
}
