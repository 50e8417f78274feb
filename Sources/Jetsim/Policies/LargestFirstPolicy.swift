/// The default policy (docs/model.md §6): while free memory is below critical, kill suspended apps,
/// largest footprint first (ties: least recently used, then app id), with no callback; when none is
/// left, running background apps in the same order (the simulation sends each willTerminate); the
/// foreground app last.
///
/// Candidates are kept in two heaps, so choosing a victim is O(1) and each change O(log *n*).
public struct LargestFirstPolicy: EvictionPolicy {
  public let name = "largest-first"

  /// Larger footprint first, then least recently used, then app id.
  struct Key: Comparable, Sendable {
    var footprintKB: Int
    var lastUsedMs: Int
    var idRank: Int

    static func < (a: Key, b: Key) -> Bool {
      if a.footprintKB != b.footprintKB { return a.footprintKB > b.footprintKB }
      if a.lastUsedMs != b.lastUsedMs { return a.lastUsedMs < b.lastUsedMs }
      return a.idRank < b.idRank
    }
  }

  private var suspended = IndexedHeap<Key>(capacity: 0)
  private var background = IndexedHeap<Key>(capacity: 0)

  public init() {}

  public mutating func start(_ device: DeviceView) {
    suspended = IndexedHeap(capacity: device.apps.count)
    background = IndexedHeap(capacity: device.apps.count)
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    let key = Key(
      footprintKB: status.footprintKB, lastUsedMs: status.lastUsedMs, idRank: status.idRank)
    switch status.state {
    case .suspended:
      background.remove(app)
      suspended.set(app, key: key)
    case .background:
      suspended.remove(app)
      background.set(app, key: key)
    default:
      suspended.remove(app)
      background.remove(app)
    }
  }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    guard device.isBelowCritical else { return nil }
    guard let victim = suspended.first ?? background.first ?? device.foregroundApp else {
      return nil
    }
    return Eviction(app: victim)
  }
}
