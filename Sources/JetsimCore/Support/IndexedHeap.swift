/// A min-heap over the integers `0..<capacity` (app indices), each with a key that can change.
///
/// Policies use it to keep their candidates ordered as apps change state and size, so choosing a
/// victim never scans every app. Insert, update and remove take O(log *n*); `first` is O(1).
package struct IndexedHeap<Key: Comparable & Sendable>: Sendable {
  private var heap: [Int] = []
  private var positions: [Int]
  private var keys: [Key?]

  /// An empty heap for elements `0..<capacity`.
  package init(capacity: Int) {
    positions = Array(repeating: -1, count: capacity)
    keys = Array(repeating: nil, count: capacity)
    heap.reserveCapacity(capacity)
  }

  /// The number of elements in the heap.
  package var count: Int { heap.count }
  /// Whether the heap is empty.
  package var isEmpty: Bool { heap.isEmpty }
  /// The element with the smallest key, if any.
  package var first: Int? { heap.first }

  /// The element with the smallest key other than `excluded`, if any.
  ///
  /// - Complexity: O(1): the second smallest is a child of the root.
  package func first(excluding excluded: Int) -> Int? {
    guard let root = heap.first else { return nil }
    guard root == excluded else { return root }
    switch heap.count {
    case 1: return nil
    case 2: return heap[1]
    default: return less(heap[2], heap[1]) ? heap[2] : heap[1]
    }
  }

  /// Whether `element` is in the heap.
  package func contains(_ element: Int) -> Bool { positions[element] >= 0 }

  /// The key of `element`, if it is in the heap.
  package func key(of element: Int) -> Key? { keys[element] }

  /// The elements in heap order (not sorted), for tests and diagnostics.
  package var elements: [Int] { heap }

  /// Inserts `element` with `key`, or moves it to `key` if it is already present.
  ///
  /// - Complexity: O(log *n*).
  package mutating func set(_ element: Int, key: Key) {
    let position = positions[element]
    if position < 0 {
      keys[element] = key
      heap.append(element)
      positions[element] = heap.count - 1
      siftUp(heap.count - 1)
    } else if let old = keys[element], key != old {
      keys[element] = key
      if key < old { siftUp(position) } else { siftDown(position) }
    }
  }

  /// Removes `element` if it is present.
  ///
  /// - Complexity: O(log *n*).
  package mutating func remove(_ element: Int) {
    let position = positions[element]
    guard position >= 0 else { return }
    let last = heap.removeLast()
    positions[element] = -1
    keys[element] = nil
    guard position < heap.count else { return }
    heap[position] = last
    positions[last] = position
    siftDown(position)
    siftUp(positions[last])
  }

  /// Removes every element.
  package mutating func removeAll() {
    for element in heap {
      positions[element] = -1
      keys[element] = nil
    }
    heap.removeAll(keepingCapacity: true)
  }

  private func less(_ a: Int, _ b: Int) -> Bool {
    guard let ka = keys[a], let kb = keys[b] else { return false }
    return ka < kb
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    let element = heap[child]
    while child > 0 {
      let parent = (child - 1) / 2
      guard less(element, heap[parent]) else { break }
      heap[child] = heap[parent]
      positions[heap[child]] = child
      child = parent
    }
    heap[child] = element
    positions[element] = child
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    let element = heap[parent]
    let count = heap.count
    while true {
      var child = 2 * parent + 1
      guard child < count else { break }
      if child + 1 < count, less(heap[child + 1], heap[child]) { child += 1 }
      guard less(heap[child], element) else { break }
      heap[parent] = heap[child]
      positions[heap[parent]] = parent
      parent = child
    }
    heap[parent] = element
    positions[element] = parent
  }
}
