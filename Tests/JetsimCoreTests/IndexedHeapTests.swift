import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct IndexedHeapTests {
  @Test(arguments: 1...30)
  func firstIsAlwaysTheSmallestKey(seed: Int) {
    var random = RandomStream(seed: UInt64(seed), stream: 5)
    var heap = IndexedHeap<Int>(capacity: 40)
    var model: [Int: Int] = [:]
    for _ in 0..<2000 {
      let element = random.below(40)
      switch random.below(3) {
      case 0, 1:
        let key = random.below(100)
        heap.set(element, key: key)
        model[element] = key
      default:
        heap.remove(element)
        model[element] = nil
      }
      #expect(heap.count == model.count)
      if let first = heap.first {
        #expect(model[first] == model.values.min())
      } else {
        #expect(model.isEmpty)
      }
    }
  }
}
