/// Many short byte strings (app ids, state names) in one block of memory that never changes once
/// made. The table keeps raw pointers into it beside the reference that owns it, so writing an
/// entry reads through them without reference counting or a call to `memcpy`: rows are written
/// a million times a run. Sendable: the memory is never written after `init`.
struct ByteTable: @unchecked Sendable {
  /// The memory: the entries one after the other, then `padding` bytes; then where each starts.
  private final class Storage: @unchecked Sendable {
    let bytes: UnsafeMutablePointer<UInt8>
    let starts: UnsafeMutablePointer<Int>

    init(_ entries: [[UInt8]]) {
      let total = entries.reduce(0) { $0 + $1.count }
      bytes = .allocate(capacity: total + ByteTable.padding)
      bytes.initialize(repeating: 0, count: total + ByteTable.padding)
      starts = .allocate(capacity: entries.count + 1)
      var position = 0
      for (index, entry) in entries.enumerated() {
        starts[index] = position
        (bytes + position).update(from: entry, count: entry.count)
        position += entry.count
      }
      starts[entries.count] = position
    }

    deinit {
      bytes.deallocate()
      starts.deallocate()
    }
  }

  /// Bytes after the last entry, so every entry can be read in 16-byte pieces.
  fileprivate static let padding = 16
  private let storage: Storage
  private let bytes: UnsafePointer<UInt8>
  private let starts: UnsafePointer<Int>
  /// The number of entries.
  let count: Int

  init(_ entries: [[UInt8]]) {
    storage = Storage(entries)
    bytes = UnsafePointer(storage.bytes)
    starts = UnsafePointer(storage.starts)
    count = entries.count
  }

  /// The longest entry's length.
  var maxLength: Int { (0..<count).map(length).max() ?? 0 }

  /// The length of entry `index`.
  func length(_ index: Int) -> Int { starts[index + 1] - starts[index] }

  /// Appends entry `index` at the cursor, whose record must have room for 15 bytes beyond it.
  @inline(__always) func write(_ index: Int, to cursor: inout CSVCursor) {
    precondition(0 <= index && index < count, "no such entry in a byte table")
    let start = starts[index]
    cursor.appendPieces(bytes + start, count: starts[index + 1] - start)
  }
}
