import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct EventQueueTests {
  @Test func eventsComeOutInTimeOrder() {
    var queue = EventQueue<String>()
    queue.schedule(at: 30, "c")
    queue.schedule(at: 10, "a")
    queue.schedule(at: 20, "b")
    var seen: [String] = []
    while let (_, payload) = queue.pop() { seen.append(payload) }
    #expect(seen == ["a", "b", "c"])
    #expect(queue.now == 30)
  }

  @Test func eventsAtTheSameInstantRunInTheOrderTheyWereScheduled() {
    var queue = EventQueue<Int>()
    for value in 0..<100 { queue.schedule(at: 5, value) }
    queue.schedule(at: 1, -1)
    var seen: [Int] = []
    while let (_, payload) = queue.pop() { seen.append(payload) }
    #expect(seen == [-1] + Array(0..<100))
  }

  /// An event scheduled `last` (a policy's wake-up) comes after every other event of its instant,
  /// even those scheduled after it; among themselves, `last` events keep their order.
  @Test func lastEventsComeAfterEveryOtherEventOfTheirInstant() {
    var queue = EventQueue<String>()
    queue.schedule(at: 5, "wake 1", last: true)
    queue.schedule(at: 5, "a")
    queue.schedule(at: 6, "later")
    queue.schedule(at: 5, "wake 2", last: true)
    queue.schedule(at: 5, "b")
    var seen: [String] = []
    while let (_, payload) = queue.pop() { seen.append(payload) }
    #expect(seen == ["a", "b", "wake 1", "wake 2", "later"])
  }

  @Test func theClockMovesOnlyWhenAnEventIsPopped() {
    var queue = EventQueue<Int>()
    queue.schedule(at: 50, 1)
    #expect(queue.now == 0)
    #expect(queue.nextTime == 50)
    _ = queue.pop()
    #expect(queue.now == 50)
    queue.schedule(at: 50, 2)  // scheduling at the current instant is allowed
    #expect(queue.pop()?.payload == 2)
  }

  @Test(arguments: 1...20)
  func matchesASortByTimeThenSequence(seed: Int) {
    var random = RandomStream(seed: UInt64(seed), stream: 99)
    var queue = EventQueue<Int>()
    var expected: [(time: Int, sequence: Int)] = []
    var popped: [Int] = []
    var sequence = 0
    for _ in 0..<500 {
      if random.below(3) == 0, let (_, payload) = queue.pop() {
        popped.append(payload)
        expected.removeAll { $0.sequence == payload }
      } else {
        let time = queue.now + random.below(50)
        queue.schedule(at: time, sequence)
        expected.append((time, sequence))
        sequence += 1
      }
    }
    expected.sort { $0.time != $1.time ? $0.time < $1.time : $0.sequence < $1.sequence }
    var rest: [Int] = []
    while let (_, payload) = queue.pop() { rest.append(payload) }
    #expect(rest == expected.map(\.sequence))
  }
}
