/// The default policy (docs/model.md §6): while free memory is below critical, kill suspended apps,
/// largest footprint first (ties: least recently used, then app id), with no callback; when none is
/// left, running background apps in the same order (the simulation sends each willTerminate); the
/// foreground app last.
public struct LargestFirstPolicy: TieredPolicy {
  public var name: String { Self.registration.name }

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

  /// The suspended and background processes, by key.
  var candidates = TieredCandidates<Key>()

  /// The default policy: suspended apps, largest footprint first.
  public init() {}

  /// The key of a process whose status is `status`.
  static func key(_ status: AppStatus) -> Key {
    Key(footprintKB: status.footprintKB, lastUsedMs: status.lastUsedMs, idRank: status.idRank)
  }
}

extension LargestFirstPolicy {
  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "largest-first",
    summary:
      "iOS as documented: suspended apps largest first, then background apps, the foreground app last",
    make: { LargestFirstPolicy() })
}
