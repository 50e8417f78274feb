/// The built-in policies by name, for scenarios and the command line.
public enum PolicyRegistry {
  /// A built-in policy: its name, what it does, its settings, and how to make one.
  public struct Entry: Sendable {
    public let name: String
    public let summary: String
    /// The settings it takes under `policyParameters` (empty if none).
    public let settings: [String]
    let make: @Sendable (PolicyParameters) -> any EvictionPolicy
  }

  /// Every built-in policy, the default first.
  public static let all: [Entry] = [
    Entry(
      name: "largest-first",
      summary:
        "iOS as documented: suspended apps largest first, then background apps, the foreground app last",
      settings: [], make: { _ in LargestFirstPolicy() }),
    Entry(
      name: "lru",
      summary:
        "least recently used first: suspended apps, then background apps, the foreground app last",
      settings: [], make: { _ in LRUPolicy() }),
    Entry(
      name: "jetsam",
      summary:
        "Apple XNU memorystatus: priority bands with aging, purge before kill, highwater/idle/critical tiers",
      settings: JetsamPolicy.Parameters.keys,
      make: { JetsamPolicy(parameters: $0.jetsam ?? .init()) }),
    Entry(
      name: "lmkd",
      summary:
        "Android lmkd: oom_score_adj by importance, minfree levels by device memory, highest adj first",
      settings: LmkdPolicy.Parameters.keys, make: { LmkdPolicy(parameters: $0.lmkd ?? .init()) }),
    Entry(
      name: "oom-badness",
      summary:
        "Linux OOM killer: highest badness (footprint in pages + adj × total pages ÷ 1000) first",
      settings: [], make: { _ in OOMBadnessPolicy() }),
    Entry(
      name: "random",
      summary: "a seeded baseline: a uniformly random app off screen, the foreground app last",
      settings: [], make: { _ in RandomPolicy() }),
  ]

  /// The names of the built-in policies.
  public static var names: [String] { all.map(\.name) }

  /// A fresh policy named `name`, with `parameters` where it takes any.
  public static func make(_ name: String, parameters: PolicyParameters = PolicyParameters())
    throws(JetsimError)
    -> any EvictionPolicy
  {
    guard let entry = all.first(where: { $0.name == name }) else {
      throw .unknownPolicy(name: name, valid: names)
    }
    return entry.make(parameters)
  }
}
