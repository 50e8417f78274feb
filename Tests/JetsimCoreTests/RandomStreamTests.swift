import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct RandomStreamTests {
  @Test func theSameSeedGivesTheSameNumbers() {
    var a = RandomStream(seed: 42, source: .workload)
    var b = RandomStream(seed: 42, source: .workload)
    for _ in 0..<1000 { #expect(a.next() == b.next()) }
  }

  /// Pins the algorithm: if these change, every seeded report changes.
  @Test func theAlgorithmIsPinned() {
    var random = RandomStream(seed: 1, stream: 0)
    let first = (0..<3).map { _ in random.next() }
    var again = RandomStream(seed: 1, stream: 0)
    #expect(first == (0..<3).map { _ in again.next() })
    // Reference values from an independent implementation of SplitMix64 seeding and xoshiro256**.
    #expect(
      first == [12_966_619_160_104_079_557, 9_600_361_134_598_540_522, 10_590_380_919_521_690_900])
  }

  @Test func streamsOfOneSeedDiffer() {
    var workload = RandomStream(seed: 7, source: .workload)
    var policy = RandomStream(seed: 7, source: .policy)
    #expect((0..<8).map { _ in workload.next() } != (0..<8).map { _ in policy.next() })
  }

  @Test func belowStaysInRangeAndCoversIt() {
    var random = RandomStream(seed: 3, stream: 1)
    var counts = [Int](repeating: 0, count: 6)
    for _ in 0..<60_000 { counts[random.below(6)] += 1 }
    #expect(counts.allSatisfy { (9_000...11_000).contains($0) })
    for _ in 0..<1000 { #expect((0..<1).contains(random.below(1))) }
  }
}
