/// The built-in policies by name, for scenarios and the command line.
public enum PolicyRegistry {
  /// A built-in policy: its name, what it does, and how to make one.
  public struct Entry: Sendable {
    public let name: String
    public let summary: String
    let make: @Sendable () -> any EvictionPolicy
  }

  /// Every built-in policy, the default first.
  public static let all: [Entry] = [
    Entry(
      name: "largest-first",
      summary: "iOS: suspended apps largest first, then background apps, the foreground app last",
      make: { LargestFirstPolicy() })
  ]

  /// The names of the built-in policies.
  public static var names: [String] { all.map(\.name) }

  /// A fresh policy named `name`.
  public static func make(_ name: String) throws(JetsimError) -> any EvictionPolicy {
    guard let entry = all.first(where: { $0.name == name }) else {
      throw .unknownPolicy(name: name, valid: names)
    }
    return entry.make()
  }
}
