/// Candidates kept in two indexed heaps, suspended processes and processes running in the background,
/// each ordered by a policy's key: the shared machinery of `largest-first` and `lru`. Idle system
/// processes (idle daemons, extensions) are suspended; active daemons run in the background.
///
/// Choosing is O(1) and each change O(log *n*), so a kill never scans every app.
struct TieredCandidates<Key: Comparable & Sendable>: Sendable {
  private var suspended = IndexedHeap<Key>(capacity: 0)
  private var background = IndexedHeap<Key>(capacity: 0)

  /// Empty heaps for the processes of `device`.
  mutating func start(_ device: DeviceView) {
    suspended = IndexedHeap(capacity: device.apps.count)
    background = IndexedHeap(capacity: device.apps.count)
  }

  /// Files `app` under its state: suspended, background, or neither.
  @inline(__always)
  mutating func update(_ app: Int, state: AppState, key: Key) {
    switch state {
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

  /// The eviction both policies make: only below the critical threshold, the first suspended
  /// process, else the first background process, else the app on screen; never the process whose
  /// allocation waits for room.
  func eviction(_ device: DeviceView) -> Eviction? {
    guard device.isBelowCritical else { return nil }
    let excluded = device.allocatingApp ?? -1
    let victim =
      suspended.first(excluding: excluded) ?? background.first(excluding: excluded)
      ?? device.foregroundApp.flatMap { $0 == excluded ? nil : $0 }
    return victim.map { Eviction(app: $0) }
  }
}
