/// A policy that keeps its candidates in `TieredCandidates`, each tier ordered by a key it reads
/// from a process's status: `largest-first` and `lru`, which differ in that key alone. Everything
/// else is written once here: the candidates follow every change, the policy acts only below the
/// critical threshold, and its eviction is `TieredCandidates.eviction(_:)`.
protocol TieredPolicy: EvictionPolicy {
  /// The order inside each tier: the least key is killed first.
  associatedtype Key: Comparable & Sendable
  /// The suspended and background processes, by key.
  var candidates: TieredCandidates<Key> { get set }
  /// The key of a process whose status is `status`.
  static func key(_ status: AppStatus) -> Key
}

extension TieredPolicy {
  /// Starts with no candidates, room for every process of `device`.
  public mutating func start(_ device: DeviceView) { candidates.start(device) }

  /// Files `app` under its new state, with its new key. Inlined into the simulation's `refresh`,
  /// which then reads the key's fields in place rather than copying the status to pass it.
  @inline(__always)
  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    candidates.update(app, state: status.state, key: Self.key(status))
  }

  /// It acts only below the critical threshold.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { device.criticalThresholdKB }

  /// The first suspended process, else the first background one, else the app on screen.
  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    candidates.eviction(device)
  }
}
