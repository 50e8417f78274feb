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
      policies: PolicyRegistry.names)
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
    let replay = try ReplayReport.replay(reportsAt: paths, policies: PolicyRegistry.names)
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
      policies: ["jetsam", "largest-first"])
    #expect(xmlError(replay.html) == nil)
    #expect(replay.html.contains("<th>jetsam</th>"))
  }
}
