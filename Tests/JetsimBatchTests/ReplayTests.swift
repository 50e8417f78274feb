import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

let reports = "\(packageRoot)/Profiles/jetsam-reports"

/// `jetsim replay`: real kills set beside each policy's choices from the same state.
@Suite struct ReplayTests {
  /// A replay's runs share one `ProcessTable` and look the snapshot's entries up once
  /// (`Replay.runs`): a placement made from them is the one a simulation makes on its own, under
  /// every policy: the same processes in the same states, the same memory, the same victims.
  @Test(arguments: PolicyName.all)
  func aSharedTableAndLookedUpEntriesPlaceAsASimulationOnItsOwn(_ policy: PolicyName) throws {
    let report = try JetsamReport.load(
      at: "\(reports)/held-out/ios12-iphonexsmax-vm-pageshortage.crash")
    var scenario = JetsamImport.convert(report).scenario(name: "shared")
    scenario.policy = policy
    let entries = try #require(scenario.snapshot?.entries)
    var shared = try Replay.placed(
      scenario, table: ProcessTable(device: scenario.device, profiles: scenario.apps),
      entryApps: try AppIndex(scenario.processNames).apps(of: entries))
    var alone = Simulation(
      device: scenario.device, apps: scenario.apps,
      policy: AnyEvictionPolicy(try scenario.makePolicy()), observer: DiscardingObserver(),
      seed: scenario.seed, snapshot: scenario.snapshot)
    try alone.placeForReplay()
    #expect(shared.apps == alone.apps)
    #expect(shared.memory == alone.memory)
    let victims = shared.evict(freeingKB: 1 << 20)
    #expect(!victims.isEmpty)
    #expect(victims == alone.evict(freeingKB: 1 << 20))
  }

  /// The held-out iOS 12 report gives no priorities: its bands are predicted from states and
  /// kinds, not from the list's order, so the kernel's order is no longer handed back. jetsam still
  /// takes the kernel's first 31 victims in order and beats its own control (the same snapshot with
  /// each band's order shuffled), which shows how much of the agreement is the order within bands;
  /// the baseline that needs no policy, the report's list order, is the kernel's order itself.
  @Test func jetsamOnTheHeldOutReportWithPredictedBands() throws {
    let replay = try ReplayReport.replay(
      reportsAt: ["\(reports)/held-out/ios12-iphonexsmax-vm-pageshortage.crash"],
      policies: PolicyName.all)
    let report = try #require(replay.replays.first)
    #expect(report.realVictims.count == 62)
    #expect(report.bands.isEmpty, "no priorities: nothing to score bands against")
    let jetsam = try #require(replay.agreement.first { $0.policy == "jetsam" })
    #expect(jetsam.firstVictimMatches == 1)
    #expect(jetsam.pairs == 62 * 61 / 2)
    // The non-idle daemons are predicted below HOME (140), so jetsam takes all 62 before
    // SpringBoard, but not in the kernel's order.
    #expect(jetsam.victimsMatched == 62)
    #expect(jetsam.pairsInOrder < jetsam.pairs, "predicted bands do not reproduce the list")
    #expect(jetsam.prefixMatched == 31)
    let baseline = try #require(replay.agreement.first { $0.policy == Replay.listOrderBaseline })
    #expect(replay.scoredPolicies.first == Replay.listOrderBaseline)
    #expect(
      (baseline.prefixMatched, baseline.pairsInOrder, baseline.kendallTau) == (62, 1891, 1),
      "the kernel writes its snapshot band by band: the list is its order")
    #expect((jetsam.kendallTau ?? 1) < (baseline.kendallTau ?? 0))
    let control = try #require(replay.agreement.first { $0.policy == Replay.shuffledControl })
    #expect(replay.scoredPolicies.firstIndex(of: "jetsam-shuffled") == 4, "right after jetsam")
    #expect((control.kendallTau ?? 1) < (jetsam.kendallTau ?? 0) - 0.2)
    #expect(control.prefixMatched < jetsam.prefixMatched)
    // The design card's policy takes the largest suspended app first; the kernel did not.
    let largest = try #require(replay.agreement.first { $0.policy == "largest-first" })
    #expect(largest.firstVictimMatches == 0)
    #expect(report.predicted["largest-first"]?.first == "Facebook")
    // backboardd died of its own limit: listed, not scored.
    let rows = report.rows(for: "jetsam")
    #expect(
      rows[14]
        == ReportReplay.Row(
          kill: 15, realProcess: "backboardd", realReason: "per-process-limit",
          predictedProcess: "", match: "not-scored"))
    #expect(rows.count == 64, "one extra victim: its first 62 freed less than the kernel's")
    #expect(
      rows[63]
        == .init(kill: 64, realProcess: "", realReason: "", predictedProcess: "kbd", match: "no"))
  }

  @Test func theCorpus() throws {
    let paths = try FileManager.default.contentsOfDirectory(atPath: reports).filter {
      $0.hasSuffix(".ips") || $0.hasSuffix(".crash")
    }.sorted().map { "\(reports)/\($0)" }
    #expect(paths.count == 4)
    let replay = try ReplayReport.replay(reportsAt: paths, policies: PolicyName.all)
    // The one pressure decision of the corpus (iOS 9, vm-thrashing): jetsam kills the frontmost
    // app, the only process the trimmed report shows; the highwater and vnode kills are not scored.
    let scored = replay.replays.filter { !$0.realVictims.isEmpty }
    #expect(scored.map { FileSystem.split($0.report).name } == ["ios9-iphone6s-trimmed.crash"])
    #expect(scored.first?.predicted["jetsam"] == ["KodiMusicRemoteP"])
    #expect(scored.first?.predicted["largest-first"] == ["KodiMusicRemoteP"])
    let csv = replay.csv.split(separator: "\n")
    #expect(csv.first == "report,policy,kill,real_process,real_reason,predicted_process,match")
    #expect(
      csv.contains("ios14-iphone11-highwater.ips,jetsam,1,wifianalyticsd,highwater,,not-scored"))
    #expect(
      replay.summaryCSV.split(separator: "\n").first
        == "policy,reports,kills,decided_reports,decided_kills,decided_prefix_matched,decided_kendall_tau,first_victim_matches,victims_matched,prefix_matched,pairs_in_order,pairs_reversed,pairs,kendall_tau"
    )
  }

  @Test func agreementCountsFirstVictimsMatchesAndPairs() {
    var agreement = ReplayAgreement(policy: "p")
    agreement.add(real: ["a", "b", "c"], predicted: ["b", "a", "d"])
    #expect(agreement.reports == 1)
    #expect(agreement.kills == 3)
    #expect(agreement.firstVictimMatches == 0)
    #expect(agreement.victimsMatched == 2)
    #expect(agreement.pairs == 3)
    #expect(agreement.pairsInOrder == 0, "a and b swapped; c never chosen")
    // c, never chosen, ranks after a and b: two pairs in order; a–b reversed.
    #expect(agreement.pairsConcordant == 2)
    #expect(agreement.pairsReversed == 1)
    #expect(agreement.kendallTau == 1.0 / 3)
    #expect(agreement.prefixMatched == 0)
    agreement.add(real: ["x", "y"], predicted: ["x", "y"])
    #expect(agreement.firstVictimMatches == 1)
    #expect(agreement.pairsInOrder == 1)
    agreement.add(real: [], predicted: ["z"])
    #expect(agreement.reports == 2, "a report with no scored kill is not counted")
  }

  /// A report its publisher cut to its one victim leaves no choice: every policy "agrees". It is
  /// listed and not scored, like a report with no pressure kill.
  @Test func aReportCutToOneProcessIsListedNotScored() throws {
    let replay = try ReplayReport.replay(
      reportsAt: [
        "\(reports)/ios9-iphone6s-trimmed.crash", "\(reports)/ios14-iphone11-highwater.ips",
      ], policies: PolicyName.all)
    #expect(
      replay.replays.map(\.notScoredBecause) == [
        "cut to one process: no choice to score", "no pressure kill",
      ])
    #expect(replay.agreement.allSatisfy { $0.reports == 0 && $0.kills == 0 })
  }

  @Test func extraVictimsAreRowsOfTheirOwn() {
    var replay = ReportReplay(
      report: "r.ips", realVictims: ["big"], kills: [("big", "vm-pageshortage")],
      predicted: ["p": ["small", "smaller"]], policies: ["p"], warnings: [])
    replay.processCount = 3
    #expect(
      replay.rows(for: "p") == [
        .init(
          kill: 1, realProcess: "big", realReason: "vm-pageshortage", predictedProcess: "small",
          match: "no"),
        .init(kill: 2, realProcess: "", realReason: "", predictedProcess: "smaller", match: "no"),
      ])
  }

  /// A report listed as not scored marks none of its rows `yes` or `no`: the iOS 9 report's one
  /// process is every policy's only choice, which says nothing.
  @Test func aReportNotScoredHasNoMatches() throws {
    let replay = try ReplayReport.replay(
      reportsAt: ["\(reports)/ios9-iphone6s-trimmed.crash"], policies: PolicyName.all)
    let report = try #require(replay.replays.first)
    #expect(report.notScoredBecause != nil)
    let rows = replay.scoredPolicies.flatMap { report.rows(for: $0) }
    #expect(!rows.isEmpty)
    #expect(rows.allSatisfy { $0.match == "not-scored" })
    #expect(!replay.csv.contains(",yes\n"))
  }

  @Test func thePageIsWellFormed() throws {
    let replay = try ReplayReport.replay(
      reportsAt: ["\(reports)/held-out/ios12-iphonexsmax-vm-pageshortage.crash"],
      policies: [.jetsam, .largestFirst])
    #expect(xmlError(replay.html) == nil)
    #expect(replay.html.contains("<th>jetsam</th>"))
  }
}

/// Pairs in order, counted by merge sort, against the pair-by-pair count it replaced.
@Suite struct OrderedPairsTests {
  /// The pairs `i < j` with `values[i] < values[j]`, one pair at a time.
  func byPairs(_ values: [Int]) -> Int {
    var count = 0
    for i in values.indices {
      for j in values.indices where j > i && values[i] < values[j] { count += 1 }
    }
    return count
  }

  @Test func smallCases() {
    #expect(OrderedPairs.count([]) == 0)
    #expect(OrderedPairs.count([7]) == 0)
    #expect(OrderedPairs.count([1, 2, 3, 4]) == 6, "every pair in order")
    #expect(OrderedPairs.count([4, 3, 2, 1]) == 0, "every pair reversed")
    #expect(OrderedPairs.count([2, 1, 3]) == 2)
  }

  @Test(arguments: 0..<200)
  func agreesWithThePairByPairCount(seed: Int) {
    var random = RandomStream(seed: UInt64(seed), stream: 9)
    let count = Int(random.below(60))
    // Distinct positions, as a policy's victims have: a shuffled prefix of 0..<n.
    var values = Array(0..<count)
    for index in values.indices.reversed() where index > 0 {
      values.swapAt(index, Int(random.below(index + 1)))
    }
    #expect(OrderedPairs.count(values) == byPairs(values))
  }

  /// Kendall's tau against the pair-by-pair definition, on random orders with victims never chosen.
  @Test(arguments: 1...40)
  func kendallTauIsThePairByPairCount(seed: Int) {
    var random = RandomStream(seed: UInt64(seed), stream: 0)
    let real = (0..<(2 + random.below(12))).map { "p\($0)" }
    var predicted = real.filter { _ in random.below(4) > 0 }
    for index in stride(from: predicted.count - 1, to: 0, by: -1) {
      predicted.swapAt(index, random.below(index + 1))
    }
    var agreement = ReplayAgreement(policy: "p")
    agreement.add(real: real, predicted: predicted)
    let rank = { (name: String) in predicted.firstIndex(of: name) ?? Int.max }
    var concordant = 0
    var discordant = 0
    for i in real.indices {
      for j in real.indices where j > i {
        if rank(real[i]) < rank(real[j]) { concordant += 1 }
        if rank(real[i]) > rank(real[j]) { discordant += 1 }
      }
    }
    #expect(agreement.pairsConcordant == concordant)
    #expect(agreement.pairsReversed == discordant)
    #expect(agreement.prefixMatched == zip(real, predicted).prefix { $0 == $1 }.count)
  }

  /// The control shuffles within bands only: every place keeps its band, and the entries are the
  /// same, in another order, the same every time.
  @Test func theShuffledControlKeepsEachBandInItsPlaces() {
    let entries = (0..<40).map { index in
      Snapshot.Entry(
        process: "p\(index)", state: .suspended, band: index % 3 == 0 ? nil : (index % 3) * 10)
    }
    let shuffled = Replay.shuffledWithinBands(entries)
    #expect(shuffled.map(\.band) == entries.map(\.band))
    #expect(Set(shuffled.map(\.process)) == Set(entries.map(\.process)))
    #expect(shuffled.map(\.process) != entries.map(\.process))
    #expect(Replay.shuffledWithinBands(entries).map(\.process) == shuffled.map(\.process))
  }

  /// bands.csv: on the iOS 14 report, which gives priorities, the predictor's bands beside the
  /// real ones and beside the baseline that predicts nothing (every process in IDLE); the predictor
  /// reads no priority, so the report without them predicts the same.
  @Test func bandsArePredictedWithoutReadingPriorities() throws {
    let path = "\(reports)/ios14-iphone11-highwater.ips"
    let replay = try ReplayReport.replay(reportsAt: [path], policies: [.jetsam])
    let report = try #require(replay.replays.first)
    #expect(report.bands.count == 442)
    let score = report.bandScore
    #expect(score.exact == report.bands.filter { $0.realBand == $0.predictedBand }.count)
    #expect((score.exact, score.sameClass) == (343, 386), "docs/validation.md quotes these")
    let baseline = report.idleBaselineScore
    #expect((baseline.exact, baseline.sameClass) == (298, 334), "every process in IDLE")
    #expect(replay.bandLines.first?.contains("every process in IDLE: 298 exact (67.4 %)") == true)
    // The most a rule reading the predictor's fields could score here, which the predictor cannot
    // beat: docs/validation.md quotes it.
    let ceiling = report.evidenceCeilingScore
    #expect((ceiling.exact, ceiling.sameClass) == (348, 391), "docs/validation.md quotes these")
    #expect(score.exact <= ceiling.exact && score.sameClass <= ceiling.sameClass)
    let line = "could score here: 348 exact (78.7 %), 391 in the right class (88.5 %)"
    #expect(replay.bandLines.first?.contains(line) == true)
    var stripped = try JetsamReport.load(at: path)
    let predicted = stripped.predictedBands
    for index in stripped.processes.indices { stripped.processes[index].priority = nil }
    #expect(stripped.predictedBands == predicted)
    #expect(report.bands.map(\.predictedBand) == predicted)
    // The importer predicts as replay does: the report read as a whole, its kernel included.
    #expect(JetsamImport.convert(stripped).bands == predicted)
    let csv = replay.bandsCSV.split(separator: "\n")
    #expect(
      csv.first == "report,pid,process,states,real_band,predicted_band,real_class,predicted_class")
    #expect(csv.count == 443)
  }

  /// The bound on what a report's fields allow: within each group of equal evidence, the
  /// commonest real band (and class) counts as right, the rest as wrong.
  @Test func theCeilingCountsEachEvidenceGroupsCommonestBand() {
    func seen(_ states: [String]) -> BandPredictor.Evidence {
      BandPredictor.Evidence(
        states: Set(states), leftIdle: false, isFrozen: false, inForegroundCoalition: false,
        isKernelInternal: false, wasPassedOverByFreezer: false)
    }
    let idle = seen(["daemon", "idle"])
    let daemon = seen(["daemon"])
    let ceiling = ReportReplay.ceiling(
      real: [0, 10, 40, 140, 140], evidence: [idle, idle, idle, daemon, daemon])
    #expect(ceiling.exact == 3, "one of 0, 10, 40 and both 140s")
    #expect(ceiling.sameClass == 4, "0 and 10 share the idle class")
    #expect(ReportReplay.ceiling(real: [], evidence: []) == (0, 0))
  }

  /// The memory jetsam counts as available (file-backed and free pages, XNU's
  /// `VM_CHECK_MEMORYSTATUS`) against jetsim's levels for the device, and how many kills each
  /// policy decides from there, set beside the kernel's 62.
  @Test func theLevelsAndTheKillsEachPolicyDecides() throws {
    let path = "\(reports)/held-out/ios12-iphonexsmax-vm-pageshortage.crash"
    let report = try JetsamReport.load(at: path)
    #expect(report.availableKB == (10_432 + 2_647) * 16)
    let replay = try ReplayReport.replay(reportsAt: [path], policies: PolicyName.all)
    let one = try #require(replay.replays.first)
    let levels = try #require(one.levels)
    #expect(levels.availableKB == 209_264)
    #expect(levels.availableKB > levels.criticalKB, "not below jetsim's critical level")
    #expect(levels.availableKB < levels.idleKB, "below its idle level")
    let rows = replay.levelsCSV.split(separator: "\n")
    #expect(rows.count == 2)
    #expect(
      rows[1]
        == "ios12-iphonexsmax-vm-pageshortage.crash,209264,\(levels.criticalKB),\(209_264 - levels.criticalKB),\(levels.idleKB),\(209_264 - levels.idleKB),no,yes,62"
    )
    // docs/validation.md quotes these: the kernel killed 62.
    let counts = try #require(one.predictedCounts)
    #expect(counts["jetsam"] == 35)
    #expect(counts["largest-first"] == 1, "one large suspended app fills the gap at once")
    #expect(counts["jetsam-shuffled"] == 12)
    #expect(counts[Replay.listOrderBaseline] == 31, "the list's IDLE band, then a band above it")
    // Scored as decided: the count and the order of what the policy chose itself.
    let decided = try #require(replay.decidedAgreement.first { $0.policy == "jetsam" })
    #expect(decided.predictedKills == 35)
    #expect(decided.kills == 62)
    #expect(decided.prefixMatched == 31)
    let victims = try #require(one.decided?["jetsam"])
    #expect(victims.count == 35)
    #expect(Array(victims.prefix(31)) == Array(one.realVictims.prefix(31)))
    #expect(victims[31] != one.realVictims[31], "then it parts from the kernel")
    let control = try #require(replay.decidedAgreement.first { $0.policy == "jetsam-shuffled" })
    #expect((control.kendallTau ?? 1) < (decided.kendallTau ?? 0) - 0.5)
    #expect(
      replay.summaryCSV.split(separator: "\n").dropFirst().first { $0.hasPrefix("jetsam,") }
        == "jetsam,1,62,1,35,31,\(FixedPoint.format(decided.kendallTau ?? 0)),1,62,31,1659,\(jetsam(replay).pairsReversed),1891,\(FixedPoint.format(jetsam(replay).kendallTau ?? 0))"
    )
  }

  /// With the available memory at or above every level, no policy kills; a report without page
  /// counts has no levels and no decided counts.
  @Test func noKillAboveTheLevels() throws {
    let path = "\(reports)/held-out/ios12-iphonexsmax-vm-pageshortage.crash"
    var report = try JetsamReport.load(at: path)
    report.memoryPages["free"] = 1_000_000
    let imported = JetsamImport.convert(report)
    let replay = try Replay.replay(imported, policies: PolicyName.all)
    #expect(replay.predictedCounts?.values.allSatisfy { $0 == 0 } == true)
    report.memoryPages["fileBacked"] = nil
    let without = try Replay.replay(JetsamImport.convert(report), policies: [.jetsam])
    #expect(without.levels == nil)
    #expect(without.predictedCounts == nil)
  }

  func jetsam(_ replay: ReplayReport) -> ReplayAgreement {
    replay.agreement.first { $0.policy == "jetsam" } ?? ReplayAgreement(policy: "none")
  }
}
