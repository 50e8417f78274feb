/// Candidates kept in two indexed heaps, suspended processes and processes running in the background,
/// each ordered by a policy's key: the shared machinery of `largest-first` and `lru`. Idle system
/// processes (idle daemons, extensions) are suspended; active daemons run in the background.
///
/// Choosing is O(1) and each change O(log *n*), so a kill never scans every app.
struct TieredCandidates<Key: Comparable & Sendable>: Sendable {
  private var suspended = IndexedHeap<Key>(capacity: 0)
  private var background = IndexedHeap<Key>(capacity: 0)

  mutating func start(appCount: Int) {
    suspended = IndexedHeap(capacity: appCount)
    background = IndexedHeap(capacity: appCount)
  }

  /// Files `app` under its state: suspended, background, or neither.
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

  /// The first suspended process, else the first background process, else the app on screen;
  /// never `excluded` (the process whose allocation waits for room).
  func victim(foreground: Int?, excluding excluded: Int?) -> Int? {
    let excluded = excluded ?? -1
    return suspended.first(excluding: excluded) ?? background.first(excluding: excluded)
      ?? foreground.flatMap { $0 == excluded ? nil : $0 }
  }
}
