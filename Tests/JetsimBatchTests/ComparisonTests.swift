import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

@Suite struct ComparisonTests {
  let scenario: Scenario

  init() throws {
    scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/evening-social.json")
  }

  @Test func theNumberOfThreadsChangesNothing() throws {
    let one = try Comparison.run(
      scenario, policies: PolicyName.all, seeds: [1, 2, 3], jobs: 1)
    let two = try Comparison.run(
      scenario, policies: PolicyName.all, seeds: [1, 2, 3], jobs: 2)
    #expect(one.compareTable.bytes == two.compareTable.bytes)
    #expect(one.aggregateTable.bytes == two.aggregateTable.bytes)
    #expect(
      one.runs.map(\.policy) == PolicyRegistry.names.flatMap { Array(repeating: $0, count: 3) })
    #expect(
      one.runs.map(\.seed)
        == Array(repeating: [1, 2, 3], count: PolicyRegistry.names.count).flatMap { $0 })
  }

  /// Every policy sees the same workload: the logs agree up to the first thing a policy does.
  @Test func eventsBeforeTheFirstPolicyDecisionAreIdenticalAcrossPolicies() throws {
    let logs = try PolicyName.all.map { name in
      try Simulator.run(scenario, policy: scenario.makePolicy(name))
    }
    func firstDecision(_ result: RunResult) -> Int {
      result.events.firstIndex {
        ($0.kind == .kill && $0.reason?.isMemoryPressure == true)
          || ($0.kind == .purge && $0.from != .background)
      } ?? result.events.count
    }
    let shared = logs.map(firstDecision).min() ?? 0
    #expect(shared > 20, "the comparison compares something")
    for log in logs.dropFirst() {
      #expect(Array(log.events.prefix(shared)) == Array(logs[0].events.prefix(shared)))
    }
    #expect(Set(logs.map { $0.killOrder.map(\.app) }).count > 1, "the policies do differ")
  }

  @Test func writtenReportsMatchTheInMemoryRuns() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.file("cmp")
    let comparison = try Comparison.run(
      scenario, policies: [.lru, .jetsam], seeds: [4, 5], jobs: 2, destination: folder,
      keepRuns: true)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder + "/compare.csv"))
        == Data(comparison.compareTable.bytes))
    var variant = scenario
    variant.policy = .jetsam
    variant.seed = 5
    let single = try Simulator.run(variant).csv
    #expect(
      try String(contentsOfFile: folder + "/jetsam/seed-5/kills.csv", encoding: .utf8)
        == single.kills)
    #expect(
      try String(contentsOfFile: folder + "/jetsam/seed-5/summary.csv", encoding: .utf8)
        == single.summary)
    // Run again into the same folder: it is replaced, whole; its marker says what it is.
    _ = try Comparison.run(
      scenario, policies: [.lru], seeds: [1], jobs: 1, destination: folder, keepRuns: true)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
        ".jetsim", "compare-summary.csv", "compare.csv", "compare.html", "lru",
      ])
    // Nothing is left beside it: no staging area, no lock.
    let parent = (folder as NSString).deletingLastPathComponent
    let name = (folder as NSString).lastPathComponent
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: parent).filter {
        $0.hasPrefix(".jetsim-staging-") || $0.hasPrefix(".\(name)")
      }.isEmpty)
  }

  /// A name is checked once, when it is made: a comparison is only ever given checked names.
  /// A tie is a paired interval that includes 0; the best is clear only when no other policy ties.
  @Test func aTieIsAPairedIntervalThatIncludesZero() {
    func standing(_ differences: [Double]) -> Comparison.Standing {
      Comparison.Standing(
        policy: "p", rank: 2, equalMeans: false,
        vsBest: SampleSummary(differences.map { $0 as Double? }))
    }
    #expect(standing([0.1, -0.1, 0.05]).tiedWithBest, "mean 0.017, interval wider")
    #expect(!standing([-1.0, -1.1, -0.9]).tiedWithBest, "mean -1, interval ±0.25")
    #expect(!standing([-1.0]).tiedWithBest, "one seed: no interval, a nonzero difference")
  }

  @Test func standingsAgreeWithTheRankingAndThePairedDifferences() throws {
    let social = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/light-user-2gb.json")
    let comparison = try Comparison.run(
      social, policies: [.lru, .largestFirst, .random], seeds: Array(1...4), jobs: 2)
    let metric = SummaryMetric.rankDefault
    let standings = comparison.standings(by: metric)
    #expect(standings.map(\.policy) == comparison.ranking(by: metric).map(\.policy))
    let best = try #require(standings.first?.policy)
    for entry in standings.dropFirst() {
      let paired = comparison.pairedDifference(metric, of: entry.policy, from: best)
      #expect(entry.vsBest == paired)
      let tied = paired.map { summary in abs(summary.mean) <= (summary.ci95 ?? 0) } ?? false
      #expect(entry.tiedWithBest == tied, "\(entry.policy)")
    }
    #expect(
      comparison.bestIsClear(by: metric) == !standings.dropFirst().contains(where: \.tiedWithBest))
  }

  /// Better or worse only with two seeds or more and a paired interval that excludes 0; policies
  /// the evidence cannot tell apart share a rank. On evening-social, largest-first and oom-badness
  /// resume the same 4 of 7 apps warm on every seed, jetsam 2 of 7.
  @Test func verdictsNeedEvidence() throws {
    let warm = try #require(SummaryMetric.named("warm_resume_ratio"))
    let three = try Comparison.run(
      scenario, policies: [.jetsam, .largestFirst, .oomBadness], seeds: [1, 2, 3], jobs: 2)
    let standings = three.standings(by: warm)
    #expect(standings.map(\.policy) == ["largest-first", "oom-badness", "jetsam"])
    #expect(standings.map(\.rank) == [1, 1, 3])
    #expect(standings.map(\.sharesRank) == [true, true, false])
    #expect(standings.map(\.verdict.name) == ["no_verdict", "no_verdict", "worse"])
    #expect(standings[1].verdict.reason == "the same on every seed")
    #expect(standings[0].verdict.reason == "best by mean, but not clearly ahead of oom-badness")
    let once = try Comparison.run(
      scenario, policies: [.jetsam, .largestFirst, .oomBadness], seeds: [1], jobs: 2)
    let single = once.standings(by: warm)
    #expect(
      single.allSatisfy { $0.verdict.reason?.hasPrefix("one seed gives no interval") == true })
    #expect(single.allSatisfy { $0.rank == 1 && $0.sharesRank })
    #expect(!once.isClearlyBetter("largest-first", than: "jetsam", by: warm))
    #expect(three.isClearlyBetter("largest-first", than: "jetsam", by: warm))
    #expect(!three.isClearlyBetter("jetsam", than: "largest-first", by: warm))
    // compare-summary.csv carries the same ranks and verdicts, in the order the policies were given,
    // and the paired difference from the best behind each verdict (none for the best itself):
    // jetsam resumes 2 of 7 apps warm where largest-first resumes 4 of 7, on every seed.
    let rows = three.aggregateTable(rankBy: warm).text.split(separator: "\n")
    #expect(
      rows[0].hasSuffix(
        ",rank_by,rank,verdict,verdict_reason,vs,paired_difference_mean,paired_difference_ci95"))
    #expect(
      rows[1].hasPrefix("jetsam,")
        && rows[1].hasSuffix(",warm_resume_ratio,3,worse,,largest-first,-0.2857,0.0000"))
    #expect(
      rows[2].hasPrefix("largest-first,")
        && rows[2].hasSuffix(
          ",warm_resume_ratio,1,no_verdict,\"best by mean, but not clearly ahead of oom-badness\",,,"
        ))
    #expect(
      rows[3].hasSuffix(
        ",warm_resume_ratio,1,no_verdict,the same on every seed,largest-first,0.0000,0.0000"))
  }

  @Test func anUnknownPolicyIsRefusedBeforeAnythingRuns() {
    #expect(throws: JetsimError.unknownPolicy(name: "lruu", valid: PolicyRegistry.names)) {
      try PolicyName("lruu")
    }
    #expect((try? PolicyName("lru")) == .lru)
    #expect(PolicyName.all.map(\.rawValue) == PolicyRegistry.names)
    #expect(PolicyName.default == .largestFirst)
  }

  @Test func equalMeansShareARankAndSeedsThatChangeNothingAreNamed() throws {
    // evening-social replays a trace: only `random` draws numbers of its own, and it resumes as
    // many apps warm as largest-first and oom-badness on every seed.
    let comparison = try Comparison.run(
      scenario, policies: [.jetsam, .largestFirst, .oomBadness, .random], seeds: [1, 2, 3],
      jobs: 2)
    let warm = try #require(SummaryMetric.named("warm_resume_ratio"))
    let ranking = comparison.ranking(by: warm)
    #expect(ranking.map(\.policy) == ["largest-first", "oom-badness", "random", "jetsam"])
    #expect(ranking.map(\.rank) == [1, 1, 1, 4])
    #expect(ranking.map(\.tied) == [true, true, true, false])
    #expect(comparison.policiesSeedsDoNotChange == ["jetsam", "largest-first", "oom-badness"])
    // With one seed there is nothing to say.
    let once = try Comparison.run(scenario, policies: [.lru], seeds: [1], jobs: 1)
    #expect(once.policiesSeedsDoNotChange.isEmpty)
  }

  @Test func thePairedDifferenceIsTakenSeedBySeed() throws {
    let comparison = try Comparison.run(
      scenario, policies: [.largestFirst, .random], seeds: Array(1...6), jobs: 2)
    let kills = try #require(SummaryMetric.named("kills"))
    let difference = try #require(
      comparison.pairedDifference(kills, of: "random", from: "largest-first"))
    let expected = zip(comparison.runs(of: "random"), comparison.runs(of: "largest-first")).map {
      Double($0.metrics.totalKills - $1.metrics.totalKills)
    }
    #expect(difference == SampleSummary(expected))
    #expect(comparison.pairedDifference(kills, of: "random", from: "random")?.mean == 0)
  }

  @Test func aggregatesAreComputedAcrossSeeds() throws {
    let comparison = try Comparison.run(
      scenario, policies: [.random], seeds: Array(1...8), jobs: 2)
    let kills = try #require(SummaryMetric.named("kills"))
    let values = comparison.runs.map { Double($0.metrics.totalKills) }
    let summary = try #require(comparison.aggregate(kills, of: "random"))
    #expect(summary.mean == values.reduce(0, +) / 8)
    #expect(summary.min == values.min() && summary.max == values.max())
  }
}
