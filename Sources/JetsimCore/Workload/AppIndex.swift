/// A scenario's app ids and their indices, looked up from raw bytes (a field of a trace line)
/// without building a `String`: the ids' bytes side by side, and an open-addressing table of
/// their positions, probed from an FNV-1a hash of the bytes.
package struct AppIndex: Sendable {
  /// The ids' bytes, one after the other.
  private var bytes: [UInt8] = []
  /// Where each id starts in `bytes`; the last entry is the end of the last id.
  private var starts: [Int] = [0]
  /// A power of two at least twice the number of ids: an id's index, or -1.
  private var slots: [Int32]

  /// The index of each of `ids` (its position in the array); a repeated id keeps its first index.
  package init(_ ids: [String]) {
    var size = 8
    while size < ids.count * 2 { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    for (index, id) in ids.enumerated() {
      bytes += id.utf8
      starts.append(bytes.count)
      let found = bytes.withUnsafeBufferPointer { all in
        slot(of: UnsafeBufferPointer(rebasing: all[starts[index]..<starts[index + 1]]))
      }
      if slots[found] < 0 { slots[found] = Int32(index) }
    }
  }

  /// The index of the app whose id is `id`'s bytes, or nil.
  ///
  /// - Complexity: O(`id.count`) expected.
  package func index(of id: UnsafeBufferPointer<UInt8>) -> Int32? {
    let index = slots[slot(of: id)]
    return index < 0 ? nil : index
  }

  /// The slot that holds `id`, or the empty slot where it would go.
  private func slot(of id: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in id { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
    while slots[slot] >= 0, !holds(Int(slots[slot]), id) { slot = (slot + 1) & mask }
    return slot
  }

  /// Whether app `index`'s id is `id`'s bytes.
  private func holds(_ index: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = starts[index]
    guard starts[index + 1] - start == id.count else { return false }
    return bytes.withUnsafeBufferPointer { bytes in
      var offset = 0
      while offset < id.count, bytes[start + offset] == id[offset] { offset += 1 }
      return offset == id.count
    }
  }
}
