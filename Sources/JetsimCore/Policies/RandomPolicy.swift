/// `random`: a seeded baseline. While free memory is below critical, kill an app drawn uniformly from
/// those in memory and off screen; the foreground app only when no other is left. Draws come from the
/// run's policy stream, so the workload's draws never change with it.
public struct RandomPolicy: EvictionPolicy {
  public var name: String { Self.registration.name }
  private var offScreen = AppSet(capacity: 0)
  private var random = RandomStream(seed: 0, source: .policy)

  /// The random policy (a baseline): any killable process, drawn from the seed.
  public init() {}

  public mutating func start(_ device: DeviceView) {
    offScreen = AppSet(capacity: device.apps.count)
    random = RandomStream(seed: device.seed, source: .policy)
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    offScreen.update(app, isMember: status.state == .background || status.state == .suspended)
  }

  /// It acts only below the critical threshold.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { device.criticalThresholdKB }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    guard device.isBelowCritical else { return nil }
    // A draw among the processes off screen other than the one allocating.
    let excluded = device.allocatingApp.map { offScreen.contains($0) ? 1 : 0 } ?? 0
    if offScreen.count > excluded {
      var index = random.below(offScreen.count - excluded)
      if excluded == 1, let allocating = device.allocatingApp,
        let position = offScreen.position(of: allocating), index >= position
      {
        index += 1
      }
      return Eviction(app: offScreen.member(at: index))
    }
    return device.foregroundApp.flatMap { $0 == device.allocatingApp ? nil : Eviction(app: $0) }
  }
}

extension RandomPolicy {
  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "random",
    summary: "a seeded baseline: a uniformly random app off screen, the foreground app last",
    make: { RandomPolicy() })
}
