import JetsimCore
import JetsimIO

/// One report replayed under several policies (`jetsim replay`, docs/validation.md): from the
/// device's state at the report's snapshot, each policy is asked for victims until they free what
/// the kernel's pressure kills freed, and its victims are set beside the kernel's.
public struct ReportReplay: Sendable {
  /// One kill of the report, or one victim a policy chose beyond the report's.
  public struct Row: Sendable, Equatable {
    /// The kill's position in the report's kill order (1-based); past the last, an extra victim.
    public var kill: Int
    /// The process the kernel killed there, and why (empty for an extra victim).
    public var realProcess: String
    /// The reason the kernel gave for its kill.
    public var realReason: String
    /// The policy's victim at that step of the scored kills (empty if none).
    public var predictedProcess: String
    /// `yes`, `no`, or `not-scored` for a kill no policy decides (a limit, a vnode shortage).
    public var match: String
  }

  /// The report's file.
  public var report: String
  /// The kernel's scored victims (pressure kills), in kill order.
  public var realVictims: [String]
  /// Every victim of the report, in kill order, with its reason.
  public var kills: [(process: String, reason: String)]
  /// Each policy's victims, in order, by policy name.
  public var predicted: [String: [String]]
  /// The policies, in the order asked.
  public var policies: [String]
  /// What a person should know (from the import).
  public var warnings: [String]
  /// How many processes the report lists: one alone (a report its publisher cut to its victim)
  /// leaves no choice to score.
  public var processCount = 0

  /// Why the report is listed but not scored (nil when it is scored): no pressure kill, or a list
  /// cut to a single process, where every policy can only name that one.
  public var notScoredBecause: String? {
    if realVictims.isEmpty { return "no pressure kill" }
    if processCount < 2 { return "cut to one process: no choice to score" }
    return nil
  }

  /// The rows of `replay.csv` for `policy`.
  public func rows(for policy: String) -> [Row] {
    let predictions = predicted[policy] ?? []
    var rows: [Row] = []
    var scored = 0
    for (index, kill) in kills.enumerated() {
      if Replay.isPressureKill(kill.reason) {
        let guess = scored < predictions.count ? predictions[scored] : ""
        rows.append(
          Row(
            kill: index + 1, realProcess: kill.process, realReason: kill.reason,
            predictedProcess: guess, match: guess == kill.process ? "yes" : "no"))
        scored += 1
      } else {
        rows.append(
          Row(
            kill: index + 1, realProcess: kill.process, realReason: kill.reason,
            predictedProcess: "", match: "not-scored"))
      }
    }
    for (offset, extra) in predictions.dropFirst(scored).enumerated() {
      rows.append(
        Row(
          kill: kills.count + offset + 1, realProcess: "", realReason: "",
          predictedProcess: extra, match: "no"))
    }
    return rows
  }
}

/// A policy's agreement with the kernel over a set of reports: `replay-summary.csv`.
public struct ReplayAgreement: Sendable, Equatable {
  /// The policy scored.
  public var policy: String
  /// Reports with at least one scored kill.
  public var reports = 0
  /// Scored kills.
  public var kills = 0
  /// Reports whose first scored victim the policy chose first.
  public var firstVictimMatches = 0
  /// Real victims the policy chose too (at any step).
  public var victimsMatched = 0
  /// Pairs of real victims the policy killed in the kernel's order, of all pairs of real victims.
  public var pairsInOrder = 0
  /// The ordered pairs of the kernel's victims this policy puts in the same order.
  public var pairs = 0

  /// An empty score for `policy`.
  public init(policy: String) { self.policy = policy }

  /// Adds one report's real and predicted victims.
  mutating func add(real: [String], predicted: [String]) {
    guard !real.isEmpty else { return }
    reports += 1
    kills += real.count
    if predicted.first == real.first { firstVictimMatches += 1 }
    var position: [String: Int] = [:]
    for (index, name) in predicted.enumerated() where position[name] == nil {
      position[name] = index
    }
    victimsMatched += real.filter { position[$0] != nil }.count
    pairs += real.count * (real.count - 1) / 2
    pairsInOrder += OrderedPairs.count(real.compactMap { position[$0] })
  }
}

/// Replays JetsamEvent reports under policies.
public enum Replay {
  /// The kill reasons of memory pressure, which a policy decides (XNU's
  /// `memorystatus_kill_cause_name`): the others (`highwater` without known soft limits,
  /// `per-process-limit`, `vnode-limit`, `jettisoned`, ...) are listed, not scored.
  public static let pressureReasons: Set<String> = [
    "vm-pageshortage", "vm-thrashing", "proc-thrashing", "fc-thrashing",
    "vm-compressor-thrashing", "vm-compressor-space-shortage",
  ]

  static func isPressureKill(_ reason: String) -> Bool { pressureReasons.contains(reason) }

  /// Replays `imported` under each of `policies` (registry names).
  public static func replay(_ imported: ImportedReport, policies: [PolicyName])
    throws(JetsimError)
    -> ReportReplay
  {
    let report = imported.report
    let order = report.victims
    let kills = order.map { (imported.names[$0], report.processes[$0].reason ?? "") }
    let scored = order.filter { isPressureKill(report.processes[$0].reason ?? "") }
    let target = scored.reduce(0) { $0 + report.footprintKB(report.processes[$1]) }
    // Victims of kills no policy decides are left out: they died for reasons of their own.
    let leftOut = Set(
      order.filter { !isPressureKill(report.processes[$0].reason ?? "") }.map {
        imported.names[$0]
      })
    var scenario = imported.scenario(name: FileSystem.split(report.file).name)
    scenario.apps.removeAll { leftOut.contains($0.id) }
    scenario.device.systemProcesses.removeAll { leftOut.contains($0.name) }
    scenario.snapshot?.entries.removeAll { leftOut.contains($0.process) }
    var predicted: [String: [String]] = [:]
    for policy in policies {
      scenario.policy = policy
      var simulation = Simulation(
        device: scenario.device, apps: scenario.apps, policy: try scenario.makePolicy(),
        observer: DiscardingObserver(), seed: scenario.seed, snapshot: scenario.snapshot)
      try simulation.placeForReplay()
      let victims = target > 0 ? simulation.evict(freeingKB: target) : []
      let names = scenario.processNames
      predicted[policy.rawValue] = victims.map { names[$0] }
    }
    var replay = ReportReplay(
      report: report.file, realVictims: scored.map { imported.names[$0] }, kills: kills,
      predicted: predicted, policies: policies.map(\.rawValue), warnings: imported.warnings)
    replay.processCount = report.processes.count
    return replay
  }

  /// Each policy's agreement over `replays`.
  public static func agreement(_ replays: [ReportReplay], policies: [String]) -> [ReplayAgreement] {
    policies.map { policy in
      var agreement = ReplayAgreement(policy: policy)
      for replay in replays where replay.notScoredBecause == nil {
        agreement.add(real: replay.realVictims, predicted: replay.predicted[policy] ?? [])
      }
      return agreement
    }
  }
}
