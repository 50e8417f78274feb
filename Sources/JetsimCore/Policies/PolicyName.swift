/// The name of a built-in policy, checked when it is made: where a profile, a sweep file or the
/// command line gives it (`init(_:)`), or taken from the registry (`.jetsam`, `all`). It is carried
/// as this value to the run (`Scenario.policy`), so nothing after that checks a name again. The
/// reports write the name of the policy that ran (`SimulationObserver.start(policy:)`), which is this
/// one unless a library user passes a policy of their own.
public struct PolicyName: Hashable, Sendable, CustomStringConvertible {
  /// The name, as in `jetsim policies`.
  public let rawValue: String

  /// The policy called `name`; throws `unknownPolicy` (with the valid names) if there is none.
  public init(_ name: String) throws(JetsimError) {
    try PolicyRegistry.check(name)
    rawValue = name
  }

  private init(registered registration: PolicyRegistration) { rawValue = registration.name }

  public var description: String { rawValue }

  /// Every built-in policy, the default first.
  public static let all = PolicyRegistry.all.map(PolicyName.init(registered:))
  /// The policy of a scenario that names none: the design card's `largest-first`.
  public static let `default` = largestFirst
  /// `largest-first` (docs/model.md §6).
  public static let largestFirst = PolicyName(registered: LargestFirstPolicy.registration)
  /// `lru`.
  public static let lru = PolicyName(registered: LRUPolicy.registration)
  /// `jetsam`: XNU's memorystatus.
  public static let jetsam = PolicyName(registered: JetsamPolicy.registration)
  /// `lmkd`: Android's low memory killer daemon.
  public static let lmkd = PolicyName(registered: LmkdPolicy.registration)
  /// `oom-badness`: Linux's OOM killer.
  public static let oomBadness = PolicyName(registered: OOMBadnessPolicy.registration)
  /// `random`.
  public static let random = PolicyName(registered: RandomPolicy.registration)
}
