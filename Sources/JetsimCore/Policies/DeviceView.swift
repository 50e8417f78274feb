/// The device as a policy sees it when asked for a victim.
public struct DeviceView {
  /// The device profile.
  public let device: DeviceProfile
  /// The app profiles, by index.
  public let profiles: [AppProfile]
  /// Every process's status, by index: the apps first (the indices of `profiles`), then the
  /// device's system processes (in the order of `device.systemProcesses`).
  public let apps: [AppStatus]
  /// The current time, in milliseconds.
  public let nowMs: Int
  /// Free memory, less any allocation waiting for room: the free memory left once it lands.
  public let freeKB: Int
  /// The pressure level now.
  public let level: PressureLevel
  /// The app on screen, if any.
  public let foregroundApp: Int?
  /// The process whose allocation waits for room, if one does: not a victim to choose.
  public let allocatingApp: Int?
  /// The run's seed, for policies that draw random numbers (use `RandomStream(seed:source: .policy)`).
  public let seed: UInt64

  /// Whether free memory is below the device's critical threshold.
  public var isBelowCritical: Bool { freeKB < device.criticalThresholdKB }

  /// The number of apps: processes from this index on are system processes.
  public var appCount: Int { profiles.count }

  /// The system process at index `app`, if it is one.
  public func systemProcess(_ app: Int) -> SystemProcess? {
    app >= profiles.count ? device.systemProcesses[app - profiles.count] : nil
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
