/// Candidates kept in two indexed heaps, suspended apps and apps running in the background, each
/// ordered by a policy's key: the shared machinery of `largest-first` and `lru`.
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

  /// The first suspended app, else the first background app, else the app on screen.
  func victim(foreground: Int?) -> Int? {
    suspended.first ?? background.first ?? foreground
  }
}
