/// A min-heap over the integers `0..<capacity` (app indices), each with a key that can change.
///
/// Policies use it to keep their candidates ordered as apps change state and size, so choosing a
/// victim never scans every app. Insert, update and remove take O(log *n*); `first` is O(1).
package struct IndexedHeap<Key: Comparable & Sendable>: Sendable {
  /// The heap, each element's position in it (-1: absent) and each element's key, in one block
  /// of memory behind one reference: a heap is a single word, and a change checks one reference
  /// for uniqueness, not three arrays. Copied on write, like an array.
  ///
  /// Only the keys of the elements in the heap are initialized: comparing two keys then reads
  /// them as they are, with no optional to unwrap.
  private final class Storage: @unchecked Sendable {
    let capacity: Int
    @exclusivity(unchecked) var count = 0
    let heap: UnsafeMutablePointer<Int>
    let positions: UnsafeMutablePointer<Int>
    let keys: UnsafeMutablePointer<Key>

    init(capacity: Int) {
      self.capacity = capacity
      heap = .allocate(capacity: max(capacity, 1))
      positions = .allocate(capacity: max(capacity, 1))
      positions.initialize(repeating: -1, count: capacity)
      keys = .allocate(capacity: max(capacity, 1))
    }

    func copy() -> Storage {
      let copy = Storage(capacity: capacity)
      copy.count = count
      copy.heap.initialize(from: heap, count: count)
      copy.positions.update(from: positions, count: capacity)
      for index in 0..<count {
        let element = heap[index]
        (copy.keys + element).initialize(to: keys[element])
      }
      return copy
    }

    deinit {
      for index in 0..<count { (keys + heap[index]).deinitialize(count: 1) }
      keys.deallocate()
      positions.deallocate()
      heap.deallocate()
    }
  }

  private var storage: Storage

  /// An empty heap for elements `0..<capacity`.
  package init(capacity: Int) { storage = Storage(capacity: capacity) }

  /// The number of elements in the heap.
  package var count: Int { storage.count }
  /// Whether the heap is empty.
  package var isEmpty: Bool { storage.count == 0 }
  /// The element with the smallest key, if any.
  package var first: Int? { storage.count > 0 ? storage.heap[0] : nil }

  /// The element with the smallest key other than `excluded`, if any.
  ///
  /// - Complexity: O(1): the second smallest is a child of the root.
  package func first(excluding excluded: Int) -> Int? {
    let heap = storage.heap
    switch storage.count {
    case 0: return nil
    case _ where heap[0] != excluded: return heap[0]
    case 1: return nil
    case 2: return heap[1]
    default: return less(heap[2], heap[1]) ? heap[2] : heap[1]
    }
  }

  /// Whether `element` is in the heap.
  package func contains(_ element: Int) -> Bool {
    check(element)
    return storage.positions[element] >= 0
  }

  /// The key of `element`, if it is in the heap.
  package func key(of element: Int) -> Key? {
    check(element)
    return storage.positions[element] >= 0 ? storage.keys[element] : nil
  }

  /// How many elements satisfy `predicate`, read in place (no copy, unlike `elements`).
  package func count(where predicate: (Int) -> Bool) -> Int {
    var total = 0
    for index in 0..<storage.count where predicate(storage.heap[index]) { total += 1 }
    return total
  }

  /// The elements in heap order (not sorted), for tests and diagnostics.
  package var elements: [Int] {
    Array(UnsafeBufferPointer(start: storage.heap, count: storage.count))
  }

  /// Inserts `element` with `key`, or moves it to `key` if it is already present.
  ///
  /// - Complexity: O(log *n*).
  package mutating func set(_ element: Int, key: Key) {
    check(element)
    let position = storage.positions[element]
    // A key set again as it is (a quarter of the updates of a run) changes nothing, so
    // it needs no storage of its own.
    if position >= 0, key == storage.keys[element] { return }
    makeUnique()
    if position < 0 {
      (storage.keys + element).initialize(to: key)
      let last = storage.count
      storage.heap[last] = element
      storage.positions[element] = last
      storage.count = last + 1
      siftUp(last)
    } else {
      let old = storage.keys[element]
      storage.keys[element] = key
      if key < old { siftUp(position) } else { siftDown(position) }
    }
  }

  /// Sets `element`'s key, or removes it when `key` is nil.
  ///
  /// - Complexity: O(log *n*).
  package mutating func update(_ element: Int, key: Key?) {
    if let key { set(element, key: key) } else { remove(element) }
  }

  /// Removes `element` if it is present.
  ///
  /// Most calls find `element` absent (a policy files an app under one heap and removes it from
  /// the others), so that check is inlined into the caller and only a removal makes a call.
  ///
  /// - Complexity: O(log *n*).
  @inline(__always)
  package mutating func remove(_ element: Int) {
    check(element)
    guard storage.positions[element] >= 0 else { return }
    removePresent(element)
  }

  /// Removes `element`, which is present.
  private mutating func removePresent(_ element: Int) {
    makeUnique()
    let position = storage.positions[element]
    storage.count -= 1
    let last = storage.heap[storage.count]
    storage.positions[element] = -1
    (storage.keys + element).deinitialize(count: 1)
    guard position < storage.count else { return }
    storage.heap[position] = last
    storage.positions[last] = position
    // The last element fills the gap and moves one way only: less than the gap's parent, it is
    // less than the gap's children too, so it goes up; otherwise it can only go down.
    if position > 0, less(last, storage.heap[(position - 1) / 2]) {
      siftUp(position)
    } else {
      siftDown(position)
    }
  }

  /// Removes every element.
  package mutating func removeAll() {
    makeUnique()
    for index in 0..<storage.count {
      let element = storage.heap[index]
      storage.positions[element] = -1
      (storage.keys + element).deinitialize(count: 1)
    }
    storage.count = 0
  }

  /// The storage, copied first if another heap shares it.
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  private func check(_ element: Int) {
    precondition(0 <= element && element < storage.capacity, "an element outside the heap's range")
  }

  /// Whether `a`'s key is less than `b`'s; both are in the heap.
  private func less(_ a: Int, _ b: Int) -> Bool { storage.keys[a] < storage.keys[b] }

  private func siftUp(_ start: Int) {
    let heap = storage.heap
    let positions = storage.positions
    let keys = storage.keys
    var child = start
    let element = heap[child]
    // The moving element's key, read once.
    let key = keys[element]
    while child > 0 {
      let parent = (child - 1) / 2
      guard key < keys[heap[parent]] else { break }
      heap[child] = heap[parent]
      positions[heap[child]] = child
      child = parent
    }
    heap[child] = element
    positions[element] = child
  }

  private func siftDown(_ start: Int) {
    let heap = storage.heap
    let positions = storage.positions
    let keys = storage.keys
    let count = storage.count
    var parent = start
    let element = heap[parent]
    let key = keys[element]
    while true {
      var child = 2 * parent + 1
      guard child < count else { break }
      if child + 1 < count, keys[heap[child + 1]] < keys[heap[child]] { child += 1 }
      guard keys[heap[child]] < key else { break }
      heap[parent] = heap[child]
      positions[heap[parent]] = parent
      parent = child
    }
    heap[parent] = element
    positions[element] = parent
  }
}
