/// A scenario's app ids and their indices, looked up from raw bytes (a field of a trace line)
/// without building a `String`: the ids' bytes side by side, and an open-addressing table of
/// their positions, probed from an FNV-1a hash of the bytes. Immutable once made, and read through
/// raw pointers: a run looks up an id a trace line.
package final class AppIndex: @unchecked Sendable {
  /// The ids' bytes, one after the other.
  private let bytes: UnsafeMutablePointer<UInt8>
  /// Where each id starts in `bytes`; the last entry is the end of the last id.
  private let starts: UnsafeMutablePointer<Int>
  /// A power of two at least twice the number of ids: an id's index, or -1.
  private let slots: UnsafeMutablePointer<Int32>
  private let mask: Int

  /// The index of each of `ids` (its position in the array); a repeated id keeps its first index.
  package init(_ ids: [String]) {
    let all = ids.flatMap(\.utf8)
    bytes = .allocate(capacity: max(all.count, 1))
    bytes.initialize(from: all, count: all.count)
    starts = .allocate(capacity: ids.count + 1)
    starts[0] = 0
    for (index, id) in ids.enumerated() { starts[index + 1] = starts[index] + id.utf8.count }
    var size = 8
    while size < ids.count * 2 { size <<= 1 }
    slots = .allocate(capacity: size)
    slots.initialize(repeating: -1, count: size)
    mask = size - 1
    for index in ids.indices {
      let found = slot(
        of: UnsafeBufferPointer(
          start: bytes + starts[index], count: starts[index + 1] - starts[index]))
      if slots[found] < 0 { slots[found] = Int32(index) }
    }
  }

  deinit {
    bytes.deallocate()
    starts.deallocate()
    slots.deallocate()
  }

  /// The index of the app whose id is `id`, or nil.
  package func index(of id: String) -> Int? {
    var id = id
    return id.withUTF8 { index(of: $0) }.map(Int.init)
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
    // FNV-1a over four bytes a step: a multiplication for every four bytes rather than for every
    // byte. An id of four bytes or more ends with the word of its last four, which may overlap the
    // word before (an id of seven: two words, not a word and three bytes). The hash only places
    // ids in this index.
    let prime: UInt64 = 0x0000_0100_0000_01b3
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    if let base = id.baseAddress {
      if id.count >= 4 {
        var offset = 0
        while offset &+ 4 < id.count {
          hash = (hash ^ UInt64(Self.word(base, offset))) &* prime
          offset &+= 4
        }
        hash = (hash ^ UInt64(Self.word(base, id.count &- 4))) &* prime
      } else {
        for offset in 0..<id.count { hash = (hash ^ UInt64(base[offset])) &* prime }
      }
    }
    // Mixed by a multiplication by 2⁶⁴ / φ, whose high half depends on every bit of the hash: ids
    // that differ only in their last bytes (`app0001`, `app0002`) land in different slots.
    var slot = Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    while slots[slot] >= 0, !holds(Int(slots[slot]), id) { slot = (slot + 1) & mask }
    return slot
  }

  /// Whether app `index`'s id is `id`'s bytes.
  private func holds(_ index: Int, _ id: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = starts[index]
    guard starts[index + 1] - start == id.count, let other = id.baseAddress else {
      return id.isEmpty && starts[index + 1] == start
    }
    // Read through a pointer fixed before the loop: read through `bytes`, a stored property, each
    // byte reloaded it and checked the sum for overflow.
    let own = UnsafePointer(bytes + start)
    guard id.count >= 4 else {
      for offset in 0..<id.count where own[offset] != other[offset] { return false }
      return true
    }
    // Four bytes at a time, the last four (which may overlap the word before) last.
    var offset = 0
    while offset &+ 4 < id.count {
      guard Self.word(own, offset) == Self.word(other, offset) else { return false }
      offset &+= 4
    }
    return Self.word(own, id.count &- 4) == Self.word(other, id.count &- 4)
  }

  /// The four bytes at `offset` from `bytes`, as a word.
  @inline(__always)
  private static func word(_ bytes: UnsafePointer<UInt8>, _ offset: Int) -> UInt32 {
    UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt32.self)
  }
}

extension AppIndex {
  /// The process of each of `entries`, by the index of its name.
  ///
  /// - Throws: `JetsimError.invalidValue` for an entry whose process is not in the index.
  package func apps(of entries: [Snapshot.Entry]) throws(JetsimError) -> [Int] {
    try entries.map { entry throws(JetsimError) in
      guard let app = index(of: entry.process) else {
        throw .invalidValue(
          path: "snapshot", keyPath: "process", value: "'\(entry.process.excerpt())'",
          expected: "an app or system process of the scenario")
      }
      return app
    }
  }
}
