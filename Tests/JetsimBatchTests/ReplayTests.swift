import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

let reports = "\(packageRoot)/Profiles/jetsam-reports"

/// `jetsim replay`: real kills set beside each policy's choices from the same state.
@Suite struct ReplayTests {
  @Test func jetsamReproducesEveryPressureKillOfTheHeldOutReport() throws {
    let replay = try ReplayReport.replay(
      reportsAt: ["\(reports)/held-out/ios12-iphonexsmax-vm-pageshortage.crash"],
      policies: PolicyName.all)
    let report = try #require(replay.replays.first)
    #expect(report.realVictims.count == 62)
    #expect(report.predicted["jetsam"] == report.realVictims, "every victim, in order")
    let jetsam = try #require(replay.agreement.first { $0.policy == "jetsam" })
    #expect(jetsam.firstVictimMatches == 1)
    #expect(jetsam.victimsMatched == 62)
    #expect(jetsam.pairs == 62 * 61 / 2)
    #expect(jetsam.pairsInOrder == jetsam.pairs)
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
    #expect(rows.count == 63, "no extra victim: the policy freed exactly what the kernel did")
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
        == "policy,reports,kills,first_victim_matches,victims_matched,pairs_in_order,pairs")
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
    let replay = ReportReplay(
      report: "r.ips", realVictims: ["big"], kills: [("big", "vm-pageshortage")],
      predicted: ["p": ["small", "smaller"]], policies: ["p"], warnings: [])
    #expect(
      replay.rows(for: "p") == [
        .init(
          kill: 1, realProcess: "big", realReason: "vm-pageshortage", predictedProcess: "small",
          match: "no"),
        .init(kill: 2, realProcess: "", realReason: "", predictedProcess: "smaller", match: "no"),
      ])
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
}
