/// Receives a run's events and kills as they happen. Report writers, in-memory logs and the user's own
/// checks conform to it. The simulation calls it once per event through an existential; an observer
/// that keeps nothing (`DiscardingObserver`) costs one empty call.
public protocol SimulationObserver {
  /// Called once, before the first event, with the name of the policy the run is under: the one
  /// source of the name every report writes (kills.csv and summary.csv alike).
  mutating func start(policy: String)
  /// Called for every event, in `seq` order.
  mutating func record(_ event: EventRecord)
  /// Called for every kill, just after its event.
  mutating func record(_ kill: KillRecord)
}

extension SimulationObserver {
  /// Observers that do not need the policy's name ignore it.
  public mutating func start(policy: String) {}
}

/// Keeps every event and kill in memory: for library users and tests.
public struct EventLog: SimulationObserver, Sendable {
  /// The events, in order.
  public private(set) var events: [EventRecord] = []
  /// The kills, in order.
  public private(set) var kills: [KillRecord] = []
  private var keepsEvents = true

  /// An empty log.
  public init() {}

  /// An empty log that keeps no event when `keepsEvents` is false (its kills only).
  package init(keepsEvents: Bool) { self.keepsEvents = keepsEvents }

  public mutating func record(_ event: EventRecord) { if keepsEvents { events.append(event) } }
  public mutating func record(_ kill: KillRecord) { kills.append(kill) }
}

/// Ignores everything: for runs that need only the summary metrics.
public struct DiscardingObserver: SimulationObserver, Sendable {
  /// An observer that keeps nothing.
  public init() {}
  @inlinable public mutating func record(_ event: EventRecord) {}
  @inlinable public mutating func record(_ kill: KillRecord) {}
}
