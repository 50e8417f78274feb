/// `lru`: while free memory is below critical, kill the least recently used suspended app (ties: app
/// id), then the least recently used app running in the background, then the foreground app.
/// Recency is the last time the app entered the background (docs/model.md §4).
public struct LRUPolicy: TieredPolicy {
  public var name: String { Self.registration.name }

  struct Key: Comparable, Sendable {
    var lastUsedMs: Int
    var idRank: Int

    static func < (a: Key, b: Key) -> Bool {
      a.lastUsedMs != b.lastUsedMs ? a.lastUsedMs < b.lastUsedMs : a.idRank < b.idRank
    }
  }

  /// The suspended and background processes, by key.
  var candidates = TieredCandidates<Key>()

  /// The least-recently-used policy.
  public init() {}

  /// The key of a process whose status is `status`.
  static func key(_ status: AppStatus) -> Key {
    Key(lastUsedMs: status.lastUsedMs, idRank: status.idRank)
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
