import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct RecencySplitTests {
  /// After any sequence of changes, the head holds exactly the most recent `headCapacity`
  /// processes of the LRU order, and the tail's first is the best of the others by its key: what a
  /// sort of every cached process would give.
  @Test(arguments: 1...20)
  func theHeadIsTheMostRecentAndTheTailsFirstIsTheBestOfTheRest(seed: Int) {
    typealias Split = RecencySplit<Int>
    var random = RandomStream(seed: UInt64(seed), stream: 9)
    let capacity = 60
    let headCapacity = 1 + random.below(12)
    var split = Split(capacity: capacity, headCapacity: headCapacity)
    var model: [Int: (recency: Recency, key: Int)] = [:]
    for _ in 0..<3_000 {
      let app = random.below(capacity)
      if random.below(4) == 0 {
        split.remove(app)
        model[app] = nil
      } else {
        // Few distinct times, so that ties fall to the app's rank.
        let recency = Recency(lastUsedMs: random.below(20), idRank: app)
        let key = random.below(50)
        split.set(app, recency: recency, tailKey: key)
        model[app] = (recency, key)
      }
      let order = model.keys.sorted { model[$0]!.recency < model[$1]!.recency }
      #expect(Set(split.headMembers) == Set(order.prefix(headCapacity)))
      let rest = order.dropFirst(headCapacity)
      #expect(split.tail.count == rest.count)
      if let first = split.tail.first {
        #expect(model[first]?.key == rest.map { model[$0]!.key }.min())
      }
      #expect(order.allSatisfy { split.contains($0) })
    }
  }
}
