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
    /// `yes`, `no`, or `not-scored` for a kill no policy decides (a limit, a vnode shortage) and for
    /// every row of a report that is not scored (`notScoredBecause`).
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
  /// For a report that gives priorities, each process's real band beside the one `BandPredictor`
  /// predicts without reading it (`bands.csv`); empty otherwise.
  public var bands: [BandRow] = []
  /// The most any rule reading only what `BandPredictor` reads (`BandPredictor.Evidence`) could
  /// score on this report, exactly and in class: among the processes that show the same
  /// evidence, the commonest real band (and class) counted as right. It reads the real bands, so
  /// it is a bound on this report, not a prediction (zero for a report without priorities).
  public var evidenceCeilingScore = (exact: 0, sameClass: 0)
  /// The memory jetsam counted as available at the snapshot (`JetsamReport.availableKB`), and
  /// jetsim's critical and idle levels for the device (nil without the report's page counts).
  public var levels: (availableKB: Int, criticalKB: Int, idleKB: Int)?
  /// Each policy's victims when it decides the count itself: taking its victims in its own order,
  /// it kills one while the available memory, with what the victims before it freed, is below the
  /// level for the victim's band (the idle level in the IDLE band, the critical level above it;
  /// XNU's `memstat_kill_idle_process` and critical kills). By policy name; nil without the
  /// report's page counts.
  public var decided: [String: [String]]?
  /// How many kills each policy decides (`decided`'s counts).
  public var predictedCounts: [String: Int]? { decided?.mapValues(\.count) }

  /// One process's real and predicted band.
  public struct BandRow: Sendable, Equatable {
    /// Its pid (nil if the report gives none).
    public var pid: Int?
    /// Its name, as the report gives it.
    public var process: String
    /// Its states (`daemon`, `idle`, `suspended`, ...).
    public var states: [String]
    /// Its band as the report writes it (current numbering).
    public var realBand: Int
    /// Its band as `BandPredictor` predicts it without reading the priority.
    public var predictedBand: Int
  }

  /// How many predicted bands are exactly right, and how many are in the right class
  /// (`BandPredictor.bandClass`).
  public var bandScore: (exact: Int, sameClass: Int) {
    (
      bands.filter { $0.realBand == $0.predictedBand }.count,
      bands.filter {
        BandPredictor.bandClass($0.realBand) == BandPredictor.bandClass($0.predictedBand)
      }.count
    )
  }

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
    let reportScored = notScoredBecause == nil
    for (index, kill) in kills.enumerated() {
      if reportScored, Replay.isPressureKill(kill.reason) {
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
          predictedProcess: extra, match: reportScored ? "no" : "not-scored"))
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
  /// The real victims found as a prefix: how many of the kernel's first victims the policy chose
  /// first, in the same order, before its first difference (summed over reports).
  public var prefixMatched = 0
  /// Pairs of real victims the policy orders the other way round: both chosen in the wrong order,
  /// or the later one chosen and the earlier one never. (A pair of two victims never chosen is
  /// a tie and counts neither way.)
  public var pairsReversed = 0

  /// Kendall's tau (tau-a) between the kernel's order of its victims and the policy's: (pairs in
  /// order − pairs reversed) ÷ pairs, from 1 (the same order) to −1 (the reverse); a victim the
  /// policy never chose ranks after all it chose. Nil without pairs.
  public var kendallTau: Double? {
    pairs == 0 ? nil : Double(pairsConcordant - pairsReversed) / Double(pairs)
  }
  /// Pairs in the kernel's order, a victim never chosen ranking after every chosen one.
  public var pairsConcordant = 0
  /// In the decided mode (`Replay.Mode.decided`), the kills the policy decides to make, to set
  /// beside `kills`, the kernel's.
  public var predictedKills = 0

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
    let found = real.compactMap { position[$0] }
    let inOrder = OrderedPairs.count(found)
    pairsInOrder += inOrder
    prefixMatched += zip(real, predicted).prefix { $0 == $1 }.count
    // Pairs with a victim never chosen: in order when the chosen one comes first in the kernel's
    // order, reversed otherwise.
    var chosenBefore = 0
    var missingBefore = 0
    var mixedInOrder = 0
    var mixedReversed = 0
    for name in real {
      if position[name] != nil {
        mixedReversed += missingBefore
        chosenBefore += 1
      } else {
        mixedInOrder += chosenBefore
        missingBefore += 1
      }
    }
    let foundPairs = found.count * (found.count - 1) / 2
    pairsConcordant += inOrder + mixedInOrder
    pairsReversed += foundPairs - inOrder + mixedReversed
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
    var decided: [String: [String]] = [:]
    let available = report.availableKB
    // Every run places the same processes: their table is made once, not once a policy.
    let names = scenario.processNames
    let table = ProcessTable(device: scenario.device, profiles: scenario.apps)
    let bands = Dictionary(
      zip(imported.names, imported.bands), uniquingKeysWith: { first, _ in first })
    for (name, policy, entries, entryApps) in try runs(
      policies, entries: scenario.snapshot?.entries ?? [], index: AppIndex(names))
    {
      scenario.policy = policy
      scenario.snapshot?.entries = entries
      // One placement serves both questions: each asks its own copy of it.
      let placed = try placed(scenario, table: table, entryApps: entryApps)
      guard let available else {
        predicted[name] = victims(of: consume placed, names: names, freeingKB: target)
        continue
      }
      predicted[name] = victims(of: copy placed, names: names, freeingKB: target)
      decided[name] = decidedVictims(
        consume placed, names: names, bands: bands, device: imported.device, availableKB: available)
    }
    var replay = ReportReplay(
      report: report.file, realVictims: scored.map { imported.names[$0] }, kills: kills,
      predicted: predicted, policies: policies.map(\.rawValue), warnings: imported.warnings)
    replay.processCount = report.processes.count
    if let available {
      replay.levels = (
        available, imported.device.criticalThresholdKB, imported.device.idleThresholdKB
      )
      replay.decided = decided
    }
    replay.addBands(of: report)
    replay.addListOrderBaseline(imported, leftOut: leftOut, freeingKB: target)
    return replay
  }

  /// The replay's runs: each policy's name, the policy, the snapshot's entries it places and the
  /// process of each (looked up in `index` once for all the policies that place them in the same
  /// order), and the control after jetsam's.
  static func runs(_ policies: [PolicyName], entries: [Snapshot.Entry], index: AppIndex)
    throws(JetsimError) -> [(String, PolicyName, [Snapshot.Entry], [Int])]
  {
    let entryApps = try index.apps(of: entries)
    var runs = policies.map { ($0.rawValue, $0, entries, entryApps) }
    if policies.contains(.jetsam) {
      // The control: jetsam with each band's order shuffled, to show what order knowledge is worth.
      let shuffled = shuffledWithinBands(entries)
      runs.append((shuffledControl, .jetsam, shuffled, try index.apps(of: shuffled)))
    }
    return runs
  }

  /// The name of the control row: jetsam on the same snapshot with each band's order shuffled.
  public static let shuffledControl = "jetsam-shuffled"

  /// The name of the baseline that needs no policy: the processes in the report's list order.
  /// The kernel writes its snapshot band by band, each band's list in order
  /// (`memorystatus_init_jetsam_snapshot_locked`), so this is the order it kills in as far as the
  /// list goes: what a policy scores beyond it is what it knows that the list does not say.
  public static let listOrderBaseline = "list-order"

  /// The seed of the control's shuffle: fixed, so a replay's files are the same every time.
  static let shuffleSeed: UInt64 = 20_251_124

  /// The victims the policy of `placed` (a simulation with its snapshot in place) chooses until
  /// `target` KB are freed; `names` are its processes' names.
  static func victims(
    of placed: consuming Simulation<AnyEvictionPolicy>, names: [String], freeingKB target: Int
  ) -> [String] {
    var simulation = placed
    let victims = target > 0 ? simulation.evict(freeingKB: target) : []
    return victims.map { names[$0] }
  }

  /// The victims of the policy of `placed` when it decides the count: in its order, each victim
  /// while the available memory (with what the victims before it freed) is below the level of its
  /// band (`bands`, the report's by name), the device's idle level in the IDLE band, its critical
  /// level above; the first victim above its level ends the kills.
  static func decidedVictims(
    _ placed: consuming Simulation<AnyEvictionPolicy>, names: [String], bands: [String: Int],
    device: DeviceProfile,
    availableKB: Int
  ) -> [String] {
    let highest = max(device.idleThresholdKB, device.criticalThresholdKB)
    guard availableKB < highest else { return [] }
    var simulation = placed
    let before = simulation.apps.map(\.footprintKB)
    let order = simulation.evict(freeingKB: highest - availableKB)
    var available = availableKB
    var victims: [String] = []
    for victim in order {
      let level =
        (bands[names[victim]] ?? 0) < JetsamPriority.background
        ? device.idleThresholdKB : device.criticalThresholdKB
      guard available < level else { break }
      victims.append(names[victim])
      available += before[victim]
    }
    return victims
  }

  /// A simulation of `scenario` under its policy, its snapshot in place, nothing run yet.
  /// `table` is the scenario's `ProcessTable` and `entryApps` the process of each snapshot entry,
  /// made once for many placements.
  static func placed(_ scenario: Scenario, table: ProcessTable, entryApps: [Int])
    throws(JetsimError) -> Simulation<AnyEvictionPolicy>
  {
    var simulation = Simulation(
      device: scenario.device, apps: scenario.apps,
      policy: AnyEvictionPolicy(try scenario.makePolicy()),
      observer: DiscardingObserver(), seed: scenario.seed, snapshot: scenario.snapshot,
      table: table)
    try simulation.placeForReplay(entryApps: entryApps)
    return simulation
  }

  /// `entries` with the entries of each band (those with no band together) in a seeded random
  /// order, each band keeping its places in the list.
  static func shuffledWithinBands(_ entries: [Snapshot.Entry]) -> [Snapshot.Entry] {
    var random = RandomStream(seed: shuffleSeed, stream: 0)
    var places: [Int?: [Int]] = [:]
    for (index, entry) in entries.enumerated() { places[entry.band, default: []].append(index) }
    var result = entries
    for band in places.keys.sorted(by: { ($0 ?? -1) < ($1 ?? -1) }) {
      let indices = places[band] ?? []
      var order = indices
      for index in stride(from: order.count - 1, to: 0, by: -1) {
        order.swapAt(index, random.below(index + 1))
      }
      for (place, source) in zip(indices, order) { result[place] = entries[source] }
    }
    return result
  }

  /// How a policy's victims are taken for scoring: until they free what the kernel's pressure
  /// kills freed (the count handed in), or as many as the policy decides (`ReportReplay.decided`).
  public enum Mode: Sendable {
    /// Each policy kills until it has freed what the kernel's kills freed.
    case freedTotal
    /// Each policy decides how many to kill, from the memory the kernel counted as available and
    /// the device's levels (reports with page counts only).
    case decided
  }

  /// Each policy's agreement over `replays` (the shuffled control after jetsam, where replayed),
  /// with its victims taken as `mode` says; in the decided mode, over the reports with page
  /// counts only.
  public static func agreement(
    _ replays: [ReportReplay], policies: [String], mode: Mode = .freedTotal
  ) -> [ReplayAgreement] {
    var policies = policies
    if let jetsam = policies.firstIndex(of: PolicyName.jetsam.rawValue),
      replays.contains(where: { $0.predicted[shuffledControl] != nil })
    {
      policies.insert(shuffledControl, at: jetsam + 1)
    }
    if replays.contains(where: { $0.predicted[listOrderBaseline] != nil }) {
      policies.insert(listOrderBaseline, at: 0)
    }
    return policies.map { policy in
      var agreement = ReplayAgreement(policy: policy)
      for replay in replays where replay.notScoredBecause == nil {
        switch mode {
        case .freedTotal:
          agreement.add(real: replay.realVictims, predicted: replay.predicted[policy] ?? [])
        case .decided:
          guard let victims = replay.decided?[policy] else { continue }
          agreement.add(real: replay.realVictims, predicted: victims)
          agreement.predictedKills += victims.count
        }
      }
      return agreement
    }
  }
}
