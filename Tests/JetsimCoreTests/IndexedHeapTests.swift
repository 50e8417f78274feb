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

  /// A heap is a value: a copy changes apart from the heap it was copied from (its storage is
  /// copied on the first change), as a policy copied before a run must.
  @Test func countReadsEveryElementInPlace() {
    var heap = IndexedHeap<Int>(capacity: 10)
    for element in [3, 7, 1, 9, 4] { heap.set(element, key: element * 10) }
    heap.remove(9)
    #expect(heap.count { $0 > 2 } == 3)
    #expect(heap.count { _ in true } == heap.count)
    #expect(heap.count { $0 == 9 } == 0)
  }

  @Test func aCopyChangesApart() {
    var original = IndexedHeap<Int>(capacity: 10)
    for element in 0..<10 { original.set(element, key: 100 - element) }
    var copy = original
    copy.set(9, key: 1000)
    copy.remove(8)
    #expect(original.first == 9 && original.key(of: 9) == 91 && original.contains(8))
    #expect(copy.first == 7 && copy.key(of: 9) == 1000 && !copy.contains(8))
    original.removeAll()
    #expect(original.isEmpty && copy.count == 9)
    #expect(copy.elements.sorted() == [0, 1, 2, 3, 4, 5, 6, 7, 9])
  }
}
