import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

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
