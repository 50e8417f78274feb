/// What a run produced, apart from its event log: the counters behind `summary.csv` and `apps.csv`.
public struct RunSummary: Sendable, Equatable {
  /// The scenario's name.
  public var scenario: String
  /// The device's name.
  public var device: String
  /// The policy's name.
  public var policy: String
  /// The seed.
  public var seed: UInt64
  /// The process names by index: the apps' ids, then the system processes' names.
  public var appIDs: [String]
  /// The processes' display names, by index.
  public var appNames: [String]
  /// The number of apps: processes from this index on are system processes.
  public var appCount: Int
  /// The kinds of the system processes (`idle-daemon`, `active-daemon`, `extension`), in order.
  public var systemKinds: [String]
  /// Run-wide counters.
  public var metrics: RunMetrics
  /// Per-app counters, by index.
  public var apps: [AppStats]
  /// The SHA-256 of the scenario's trace file as the run read it, when the run read it to its end
  /// (a run cut short by its duration did not); nil without a trace.
  public var traceDigest: String?
  /// The script actions and trace lines after the run's end, which it did not play.
  public var unplayed = UnplayedActions()
}

/// A run kept in memory: its summary, every event and every kill.
public struct RunResult: Sendable {
  /// The counters.
  public var summary: RunSummary
  /// Every event, in order.
  public var events: [EventRecord]
  /// Every kill, in order.
  public var kills: [KillRecord]

  /// The kills as `(app id, reason)` pairs, in order: handy for asserting kill order.
  public var killOrder: [(app: String, reason: KillReason)] {
    kills.map { (summary.appIDs[$0.app], $0.reason) }
  }
}

/// Runs scenarios: the entry point for library users.
///
/// ```swift
/// let scenario = try ProfileLoader.scenario(at: "Profiles/scenarios/worked-example.json")
/// let result = try Simulator.run(scenario)
/// print(result.killOrder)            // [("example.a", vm-pageshortage)]
/// print(result.summary.metrics.opens)
/// ```
public enum Simulator {
  /// Runs `scenario` in memory under `policy` (by default the one the scenario names) and returns
  /// every event and kill with the summary.
  public static func run(_ scenario: Scenario, policy: (any EvictionPolicy)? = nil)
    throws(JetsimError) -> RunResult
  {
    var log = EventLog()
    let summary = try run(scenario, policy: policy, observer: &log)
    return RunResult(summary: summary, events: log.events, kills: log.kills)
  }

  /// Runs `scenario` keeping its kills and not its events (`RunResult.events` is empty): for
  /// checks of the kill order, which a long run's event log would only weigh on.
  package static func runKeepingKills(_ scenario: Scenario) throws(JetsimError) -> RunResult {
    var log = EventLog(keepsEvents: false)
    let summary = try run(scenario, observer: &log)
    return RunResult(summary: summary, events: [], kills: log.kills)
  }

  /// Runs `scenario` under `policy` (by default the one the scenario names), sending every event and
  /// kill to `observer` as it happens (a report writer streams them to files).
  public static func run<Observer: SimulationObserver>(
    _ scenario: Scenario, policy: (any EvictionPolicy)? = nil, observer: inout Observer
  ) throws(JetsimError) -> RunSummary {
    var workload = try scenario.workload()
    var chosen: any EvictionPolicy
    if let policy { chosen = policy } else { chosen = try scenario.makePolicy() }
    var unplayed: WorkloadStep?
    var summary = try run(
      scenario, policy: chosen, workload: &workload, observer: &observer, unplayed: &unplayed)
    // Nothing is dropped without a count: the rest of the script and the trace are read (and
    // checked) to count what came after the end.
    summary.unplayed = workload.unplayed(after: unplayed)
    // A workload that ended early (a trace line that cannot be read) fails the run.
    if let failure = workload.failure { throw failure }
    summary.traceDigest = workload.traceDigest
    return summary
  }

  /// Runs `scenario`'s device and apps on a workload of your own (its script is not used). A
  /// workload longer than the scenario's `duration` is not read past it.
  public static func run<Observer: SimulationObserver>(
    _ scenario: Scenario, policy: any EvictionPolicy, workload: inout some WorkloadSource,
    observer: inout Observer
  ) throws(JetsimError) -> RunSummary {
    var unplayed: WorkloadStep?
    return try run(
      scenario, policy: policy, workload: &workload, observer: &observer, unplayed: &unplayed)
  }

  /// What a run reads and hands back, whatever its policy: the workload and the observer, each
  /// reached through one indirect call (so that the simulation is compiled once a policy, not once
  /// a policy, workload and observer), and the step read but not played.
  private struct Erased {
    var workload: AnyWorkloadSource
    var observer: any SimulationObserver
    var unplayed: WorkloadStep?
  }

  /// The run, with the step read and not played when it reached its end in `unplayed`. Each
  /// built-in policy runs in a simulation compiled for it; any other behind `AnyEvictionPolicy`.
  static func run<Observer: SimulationObserver, Workload: WorkloadSource>(
    _ scenario: Scenario, policy: any EvictionPolicy, workload: inout Workload,
    observer: inout Observer, unplayed: inout WorkloadStep?
  ) throws(JetsimError) -> RunSummary {
    var erased = Erased(workload: AnyWorkloadSource(workload), observer: observer)
    defer {
      // Hand the caller's values back, as they are at the end.
      if let updated = erased.workload.base as? Workload { workload = updated }
      if let updated = erased.observer as? Observer { observer = updated }
      unplayed = erased.unplayed
    }
    switch policy {
    case let policy as JetsamPolicy: return try run(scenario, policy, &erased)
    case let policy as LmkdPolicy: return try run(scenario, policy, &erased)
    case let policy as LargestFirstPolicy: return try run(scenario, policy, &erased)
    case let policy as LRUPolicy: return try run(scenario, policy, &erased)
    case let policy as OOMBadnessPolicy: return try run(scenario, policy, &erased)
    case let policy as RandomPolicy: return try run(scenario, policy, &erased)
    default: return try run(scenario, AnyEvictionPolicy(policy), &erased)
    }
  }

  /// The run under `policy`, whose type the simulation is compiled for.
  private static func run(
    _ scenario: Scenario, _ policy: some EvictionPolicy, _ erased: inout Erased
  ) throws(JetsimError) -> RunSummary {
    var simulation = Simulation(
      device: scenario.device, apps: scenario.apps, policy: policy, observer: erased.observer,
      seed: scenario.seed, snapshot: scenario.snapshot)
    defer { erased.observer = simulation.observer }
    try simulation.run(&erased.workload, untilMs: scenario.durationMs)
    erased.unplayed = simulation.unplayed
    return RunSummary(
      scenario: scenario.name, device: scenario.device.name, policy: simulation.policy.name,
      seed: scenario.seed, appIDs: scenario.processNames,
      appNames: scenario.apps.map(\.name) + scenario.device.systemProcesses.map(\.name),
      appCount: scenario.apps.count,
      systemKinds: scenario.device.systemProcesses.map(\.kind.rawValue),
      metrics: simulation.metrics,
      apps: simulation.appStats)
  }
}
