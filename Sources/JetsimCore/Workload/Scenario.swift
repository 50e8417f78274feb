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
  /// A trace whose actions join the scripted ones, read as the run goes (a file is never held in
  /// memory whole); at equal times the script's come first.
  public var trace: ActionFeed?
  /// The eviction policy's name (see `PolicyRegistry`).
  public var policy: PolicyName
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

  /// A scenario; `origin` is the file errors name (a scenario built in code may give any label).
  public init(
    name: String, summary: String = "", device: DeviceProfile, apps: [AppProfile],
    actions: [TimedAction], policy: PolicyName = .default, seed: UInt64 = Defaults.seed,
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
    copy.userModel = userModel?.unshared
    return copy
  }

  /// The policy settings in force: the scenario's, else the device's, else the real systems'.
  public var effectivePolicySettings: PolicySettings {
    policySettings.overriding(device.policySettings)
  }

  /// Every process's name, by index: the apps' ids, then the device's system processes' names.
  public var processNames: [String] { apps.map(\.id) + device.systemProcesses.map(\.name) }

  /// The index of the app with `id`, if any.
  public func appIndex(_ id: String) -> Int? { apps.firstIndex { $0.id == id } }
}
