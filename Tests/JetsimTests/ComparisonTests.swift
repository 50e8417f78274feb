import Foundation
import Testing

@testable import Jetsim

@Suite struct ComparisonTests {
  let scenario: Scenario

  init() throws {
    scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/evening-social.json")
  }

  @Test func theNumberOfThreadsChangesNothing() throws {
    let one = try Comparison.run(
      scenario, policies: PolicyRegistry.names, seeds: [1, 2, 3], jobs: 1)
    let two = try Comparison.run(
      scenario, policies: PolicyRegistry.names, seeds: [1, 2, 3], jobs: 2)
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
    let logs = try PolicyRegistry.names.map { name in
      try Simulator.run(scenario, policy: scenario.makePolicy(name))
    }
    func firstDecision(_ result: RunResult) -> Int {
      result.events.firstIndex {
        ($0.kind == .kill && [.vmPageshortage, .highwater, .idleExit].contains($0.reason))
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
    let folder = NSTemporaryDirectory() + "jetsim-compare-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let comparison = try Comparison.run(
      scenario, policies: ["lru", "jetsam"], seeds: [4, 5], jobs: 2, destination: folder)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder + "/compare.csv"))
        == Data(comparison.compareTable.bytes))
    var variant = scenario
    variant.policy = "jetsam"
    variant.seed = 5
    let single = try Simulator.run(variant).csv
    #expect(
      try String(contentsOfFile: folder + "/jetsam/seed-5/kills.csv", encoding: .utf8)
        == single.kills)
    #expect(
      try String(contentsOfFile: folder + "/jetsam/seed-5/summary.csv", encoding: .utf8)
        == single.summary)
    // Run again into the same folder: it is replaced.
    _ = try Comparison.run(scenario, policies: ["lru"], seeds: [1], jobs: 1, destination: folder)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
        "compare-summary.csv", "compare.csv", "compare.html", "lru",
      ])
  }

  @Test func anUnknownPolicyIsRefusedBeforeAnythingRuns() {
    #expect(throws: JetsimError.unknownPolicy(name: "lruu", valid: PolicyRegistry.names)) {
      try Comparison.run(scenario, policies: ["lru", "lruu"], seeds: [1], jobs: 1)
    }
  }

  @Test func aggregatesAreComputedAcrossSeeds() throws {
    let comparison = try Comparison.run(
      scenario, policies: ["random"], seeds: Array(1...8), jobs: 2)
    let kills = try #require(SummaryMetric.named("kills"))
    let values = comparison.runs.map { Double($0.metrics.totalKills) }
    let summary = try #require(comparison.aggregate(kills, of: "random"))
    #expect(summary.mean == values.reduce(0, +) / 8)
    #expect(summary.min == values.min() && summary.max == values.max())
  }
}

@Suite struct SampleSummaryTests {
  @Test func meanExtremesAndConfidenceInterval() throws {
    let summary = try #require(SampleSummary([1, 2, 3, 4]))
    #expect(summary.mean == 2.5 && summary.min == 1 && summary.max == 4 && summary.count == 4)
    // s = √(5/3) = 1.290994; t(3) = 3.182; half-width = 3.182 × 1.290994 / 2 = 2.053972.
    #expect(abs((summary.ci95 ?? 0) - 2.053972) < 1e-6)
  }

  @Test func undefinedValuesAreLeftOutAndOneValueHasNoInterval() throws {
    let summary = try #require(SampleSummary([nil, 5, nil]))
    #expect(summary.count == 1 && summary.mean == 5 && summary.ci95 == nil)
    #expect(SampleSummary([nil, nil]) == nil)
  }

  @Test func criticalValues() {
    #expect(SampleSummary.tCritical95(degreesOfFreedom: 1) == 12.706)
    #expect(SampleSummary.tCritical95(degreesOfFreedom: 19) == 2.093)
    #expect(SampleSummary.tCritical95(degreesOfFreedom: 45) == 2.021)
    #expect(SampleSummary.tCritical95(degreesOfFreedom: 5000) == 1.960)
  }
}

@Suite struct PolicyParameterTests {
  let scratch: Scratch

  init() throws { scratch = try Scratch() }

  func scenario(device extra: String = "", scenario settings: String = "") throws -> Scenario {
    let file = try scratch.write(
      "s.json",
      """
      {"version": 1, "name": "s", "policy": "jetsam",
       "device": {"name": "d", "memory": "1GB", "reserved": "200MB"\(extra)},
       "apps": [{"id": "a", "resident": "1MB"}], \(settings) "script": [{"at": "0s", "action": "home"}]}
      """)
    return try ProfileLoader.scenario(at: file)
  }

  @Test func defaultsAreTheRealSystemsValues() throws {
    let parameters = try scenario().effectivePolicyParameters
    #expect(parameters == PolicyParameters())
    #expect(JetsamPolicy.Parameters().agingTimeMs == 2_000)
    #expect(JetsamPolicy.Bands().foreground == 100 && JetsamPolicy.Bands().audioAndAccessory == 120)
    #expect(LmkdPolicy.Parameters().killHeaviest == false)
  }

  @Test func theScenarioOverridesTheDevicePolicyByPolicy() throws {
    let loaded = try scenario(
      device:
        #", "policyParameters": {"jetsam": {"agingTime": "5s"}, "lmkd": {"killHeaviest": true}}"#,
      scenario: #""policyParameters": {"jetsam": {"softLimit": "70%", "bands": {"idle": 5}}},"#)
    let parameters = loaded.effectivePolicyParameters
    #expect(parameters.jetsam?.softLimitPercent == 70)
    #expect(
      parameters.jetsam?.agingTimeMs == 2_000,
      "the scenario's jetsam settings replace the device's whole")
    #expect(parameters.jetsam?.bands.idle == 5)
    #expect(parameters.lmkd?.killHeaviest == true)
    let policy = try #require(try loaded.makePolicy() as? JetsamPolicy)
    #expect(policy.parameters.softLimitPercent == 70)
  }

  @Test func lmkdMinfreeMustBeSixAscendingSizes() throws {
    let ok = try scenario(
      scenario:
        #""policyParameters": {"lmkd": {"minfree": ["1MB","2MB","3MB","4MB","5MB","6MB"]}},"#)
    #expect(ok.effectivePolicyParameters.lmkd?.minfreeKB == [1024, 2048, 3072, 4096, 5120, 6144])
    #expect(throws: JetsimError.self) {
      try scenario(
        scenario:
          #""policyParameters": {"lmkd": {"minfree": ["2MB","1MB","3MB","4MB","5MB","6MB"]}},"#)
    }
  }

  @Test func anUnknownPolicyNameListsTheValidOnes() throws {
    let error = try #require(throws: JetsimError.self) {
      try scenario(scenario: #""policyParameters": {"xnu": {}},"#)
    }
    #expect(
      "\(error)".contains(
        "unknown key 'policyParameters.xnu'; valid keys: \(PolicyRegistry.names.joined(separator: ", "))"
      ))
  }

  @Test func anUnknownSettingSuggestsTheNearestOne() throws {
    let error = try #require(throws: JetsimError.self) {
      try scenario(scenario: #""policyParameters": {"lmkd": {"killHeavist": true}},"#)
    }
    #expect(
      "\(error)".contains(
        "unknown key 'policyParameters.lmkd.killHeavist'; did you mean 'killHeaviest'?"))
    let none = try #require(throws: JetsimError.self) {
      try scenario(scenario: #""policyParameters": {"lru": {"x": 1}},"#)
    }
    #expect("\(none)".contains("'policyParameters.lru.x'; nothing may be set here"))
  }

  @Test func settingsChangeWhatThePolicyDoes() throws {
    var base = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    base.policy = "jetsam"
    let standard = try Simulator.run(base)
    var parameters = JetsamPolicy.Parameters()
    parameters.idleThresholdPercent = 0
    parameters.softLimitPercent = 100
    base.policyParameters = PolicyParameters(jetsam: parameters)
    let changed = try Simulator.run(base)
    #expect(standard.summary.metrics.kills(.idleExit) > 0)
    #expect(changed.summary.metrics.kills(.idleExit) == 0)
  }
}
