import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

@Suite struct BatchHTMLReportTests {
  @Test func comparisonAndSweepPagesAreWellFormedAndSelfContained() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/evening-social.json")
    let comparison = try Comparison.run(
      scenario, policies: ["largest-first", "lmkd"], seeds: [1, 2, 3], jobs: 2)
    let compare = BatchHTMLReport.comparison(comparison)
    #expect(xmlError(compare) == nil && externalReferences(compare).isEmpty)
    #expect(compare.contains(">largest-first</text>") && compare.contains(">lmkd</text>"))
    let scratch = try ScratchFolder()
    let definition = try SweepDefinition.load(
      at: "\(packageRoot)/Profiles/sweeps/light-user-memory.json")
    _ = try Sweep.run(definition, into: scratch.path, jobs: 2)
    let sweep = try String(contentsOfFile: scratch.path + "/sweep.html", encoding: .utf8)
    #expect(xmlError(sweep) == nil && externalReferences(sweep).isEmpty)
    #expect(sweep.contains("warm resume ratio (higher is better)"))
    #expect(sweep.contains("memory_kb (MB)"))
  }
}
