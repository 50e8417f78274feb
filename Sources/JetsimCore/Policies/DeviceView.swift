/// The device as a policy sees it when asked for a victim.
public struct DeviceView {
  /// What does not change during a run, shared by every view of it: one reference to count, not
  /// the profile's every string and array, each time a policy is asked.
  final class Fixed: Sendable {
    let device: DeviceProfile
    let profiles: [AppProfile]

    init(device: DeviceProfile, profiles: [AppProfile]) {
      self.device = device
      self.profiles = profiles
    }
  }

  private let fixed: Fixed
  /// The device profile.
  public var device: DeviceProfile { fixed.device }
  /// The app profiles, by index.
  public var profiles: [AppProfile] { fixed.profiles }
  /// Every process's status, by index: the apps first (the indices of `profiles`), then the
  /// device's system processes (in the order of `device.systemProcesses`).
  public let apps: [AppStatus]
  /// The current time, in milliseconds.
  public let nowMs: Int
  /// Where every page is (`DeviceMemory`), the allocation waiting for room included.
  public let memory: DeviceMemory
  /// Available memory less any allocation waiting for room: what is left once it lands, and
  /// what the levels are compared with.
  public var availableKB: Int { memory.availableAfterPendingKB }
  /// Available memory less any allocation waiting for room, as jetsim 0.3 called it.
  @available(*, deprecated, renamed: "availableKB")
  public var freeKB: Int { availableKB }
  /// The pressure level now.
  public let level: PressureLevel
  /// The app on screen, if any.
  public let foregroundApp: Int?
  /// The process whose allocation waits for room, if one does: not a victim to choose.
  public let allocatingApp: Int?
  /// The run's seed, for policies that draw random numbers (use `RandomStream(seed:source: .policy)`).
  public let seed: UInt64
  /// The number of the simulation's pass of questions to the policy: it asks for victims in
  /// passes, one at each change of memory that calls for the policy, until it has none or memory
  /// suffices — as a kernel's jetsam thread wakes once and kills until the device is healthy. 0
  /// where no simulation counts them.
  public internal(set) var pass = 0

  /// The device as a policy sees it.
  public init(
    device: DeviceProfile, profiles: [AppProfile], apps: [AppStatus], nowMs: Int,
    memory: DeviceMemory, level: PressureLevel, foregroundApp: Int?, allocatingApp: Int?,
    seed: UInt64
  ) {
    self.init(
      fixed: Fixed(device: device, profiles: profiles), apps: apps, nowMs: nowMs, memory: memory,
      level: level, foregroundApp: foregroundApp, allocatingApp: allocatingApp, seed: seed)
  }

  /// The device as a policy sees it, with `availableKB` of available memory once the pending
  /// allocation lands: a device whose processes hold the rest.
  public init(
    device: DeviceProfile, profiles: [AppProfile], apps: [AppStatus], nowMs: Int,
    availableKB: Int, level: PressureLevel, foregroundApp: Int?, allocatingApp: Int?, seed: UInt64
  ) {
    var memory = DeviceMemory(device: device)
    memory.hold(memory.availableKB - availableKB, compressed: false)
    self.init(
      device: device, profiles: profiles, apps: apps, nowMs: nowMs, memory: memory, level: level,
      foregroundApp: foregroundApp, allocatingApp: allocatingApp, seed: seed)
  }

  init(
    fixed: Fixed, apps: [AppStatus], nowMs: Int, memory: DeviceMemory, level: PressureLevel,
    foregroundApp: Int?, allocatingApp: Int?, seed: UInt64, pass: Int = 0
  ) {
    self.pass = pass
    self.fixed = fixed
    self.apps = apps
    self.nowMs = nowMs
    self.memory = memory
    self.level = level
    self.foregroundApp = foregroundApp
    self.allocatingApp = allocatingApp
    self.seed = seed
  }

  /// Whether available memory is below the device's critical threshold.
  public var isBelowCritical: Bool { availableKB < fixed.device.criticalThresholdKB }

  /// The number of apps: processes from this index on are system processes.
  public var appCount: Int { fixed.profiles.count }

  /// The system process at index `app`, if it is one.
  public func systemProcess(_ app: Int) -> SystemProcess? {
    let apps = fixed.profiles.count
    return app >= apps ? fixed.device.systemProcesses[app - apps] : nil
  }

  /// The name of process `app`: an app's id or a system process's name.
  public func name(of app: Int) -> String {
    systemProcess(app)?.name ?? profiles[app].id
  }

  /// The hard limit of process `app`: an app's own `memoryLimit`, or the device's foreground limit;
  /// a system process's hard limit, if it has one.
  public func limitKB(of app: Int) -> Int? {
    if let process = systemProcess(app) { return process.hardLimitKB }
    return profiles[app].memoryLimitKB ?? device.foregroundLimitKB
  }
}
