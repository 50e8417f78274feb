/// `lru`: while free memory is below critical, kill the least recently used suspended app (ties: app
/// id), then the least recently used app running in the background, then the foreground app.
/// Recency is the last time the app entered the background (docs/model.md §4).
public struct LRUPolicy: EvictionPolicy {
  public var name: String { Self.registration.name }

  struct Key: Comparable, Sendable {
    var lastUsedMs: Int
    var idRank: Int

    static func < (a: Key, b: Key) -> Bool {
      a.lastUsedMs != b.lastUsedMs ? a.lastUsedMs < b.lastUsedMs : a.idRank < b.idRank
    }
  }

  private var candidates = TieredCandidates<Key>()

  /// The least-recently-used policy.
  public init() {}

  public mutating func start(_ device: DeviceView) { candidates.start(device) }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    candidates.update(
      app, state: status.state, key: Key(lastUsedMs: status.lastUsedMs, idRank: status.idRank))
  }

  /// It acts only below the critical threshold.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { device.criticalThresholdKB }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    candidates.eviction(device)
  }
}

extension LRUPolicy {
  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "lru",
    summary:
      "least recently used first: suspended apps, then background apps, the foreground app last",
    make: { LRUPolicy() })
}
