import JetsimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a text file line by line through one fixed buffer, so memory stays the same whatever the
/// file's length. Lines end with `\n`, `\r\n` or a lone `\r`; a line longer than `maxLineBytes` is
/// an error (a file without line ends is not a trace). Optionally hashes the bytes as it reads them
/// (SHA-256), so one pass both reads and fingerprints a file.
package final class LineReader {
  /// The longest line accepted.
  package static let maxLineBytes = 1 << 20
  private let chunkBytes: Int

  package let path: String
  // The reading state. A reader is used by one thread at a time and its methods never overlap
  // their own accesses, so the per-line dynamic exclusivity checks (a run reads a million lines)
  // are left out.
  /// The number of the line handed out last (1-based).
  @exclusivity(unchecked) package private(set) var lineNumber = 0
  private let descriptor: Int32
  /// The bytes read and not yet handed out, `buffer[start..<end]`, in memory the reader owns: a
  /// line is handed out as a pointer into it, with no array to retain and no index to check.
  @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var capacity: Int
  @exclusivity(unchecked) private var start = 0
  @exclusivity(unchecked) private var end = 0
  @exclusivity(unchecked) private var atEOF = false
  /// Hashes what is read, on a thread of its own.
  private let hasher: BackgroundSHA256?
  /// The SHA-256 the file must have (`checkDigest`), if any.
  private let expected: String?

  /// Opens the file at `path`; with `hashing`, `digest` gives its SHA-256 once it is read to the end.
  /// With `expecting`, it is hashed, and `checkDigest` at the end of a file whose SHA-256 is not
  /// `expecting` is an error (the file changed after it was checked). Reads `chunkBytes` at a time
  /// (tests read a few bytes at a time, to meet every boundary).
  package init(
    path: String, hashing: Bool = false, expecting: String? = nil, chunkBytes: Int = 1 << 16
  ) throws(JetsimError) {
    self.path = path
    expected = expecting
    self.chunkBytes = max(1, chunkBytes)
    let descriptor = try InputFile.openForReading(path).descriptor
    do {
      hasher = hashing || expecting != nil ? try BackgroundSHA256() : nil
    } catch {
      _ = close(descriptor)
      throw .unreadable(
        path: path, reason: "no thread could be started to hash it: \(error.reason)")
    }
    self.descriptor = descriptor
    capacity = self.chunkBytes * 2
    buffer = .allocate(capacity: capacity)
  }

  deinit {
    hasher?.end()
    _ = close(descriptor)
    buffer.deallocate()
  }

  /// The SHA-256 of the file in hexadecimal, once it has been read to the end with `hashing` or
  /// `expecting`.
  package var digest: String? {
    guard atEOF, let hasher else { return nil }
    return hasher.hex()
  }

  /// At the end of the file: an error if it is not the file that was expected (`expecting`).
  package func checkDigest() throws(JetsimError) {
    if let expected, digest != expected {
      throw .unreadable(
        path: path,
        reason: "the file changed after jetsim checked it (its SHA-256 differs); run again")
    }
  }

  /// Calls `body` with the next line's bytes (without its line end) and returns its result, or nil
  /// at the end of the file. The bytes are valid only during the call.
  package func nextLine<T>(_ body: (UnsafeBufferPointer<UInt8>) throws(JetsimError) -> T)
    throws(JetsimError) -> T?
  {
    guard let line = try nextLineBytes() else { return nil }
    return try body(line)
  }

  /// The next line's bytes (without its line end), or nil at the end of the file. The bytes are
  /// the reader's own: valid until its next read, while it lives. A caller that reads a line at a
  /// time in a loop (a trace, a million lines) passes no closure and no captures.
  package func nextLineBytes() throws(JetsimError) -> UnsafeBufferPointer<UInt8>? {
    var scanned = start
    while true {
      if let newline = Self.lineEnd(in: buffer, from: scanned, to: end) {
        // A `\r` at the end of what is read may be the first half of `\r\n`: read on first.
        if buffer[newline] == 13, newline + 1 == end, !atEOF {
          let shift = start
          try fill()
          scanned = newline - shift
          continue
        }
        let lineStart = lineNumber == 0 ? try firstLineStart(newline) : start
        try checkLength(newline - lineStart)
        start = newline + 1
        if buffer[newline] == 13, start < end, buffer[start] == 10 { start += 1 }
        lineNumber += 1
        return UnsafeBufferPointer(start: buffer + lineStart, count: newline - lineStart)
      }
      if atEOF {
        guard start < end else { return nil }
        try checkLength(end - start)
        let lineStart = lineNumber == 0 ? try firstLineStart(end) : start
        let lineEnd = end
        start = end
        lineNumber += 1
        return UnsafeBufferPointer(start: buffer + lineStart, count: lineEnd - lineStart)
      }
      try checkLength(end - start)
      scanned = end
      let shift = start
      try fill()
      scanned -= shift
    }
  }

  /// Where the file's first line, starting at `start` and ending before `lineEnd`, begins: after a
  /// UTF-8 byte-order mark (`InputFile.textStart`, which also refuses UTF-16).
  private func firstLineStart(_ lineEnd: Int) throws(JetsimError) -> Int {
    let head = UnsafeBufferPointer(start: buffer + start, count: max(start, lineEnd) - start)
    return try start + InputFile.textStart(head, path: path)
  }

  /// The position of the first `\n` or `\r` in `buffer[from..<to]`, if any.
  ///
  /// `memchr` looks for each (many bytes a step, where a loop over the bytes took six
  /// instructions a byte): the `\n`, then a `\r` before it.
  private static func lineEnd(in buffer: UnsafeMutablePointer<UInt8>, from: Int, to: Int) -> Int? {
    guard from < to else { return nil }
    let base = UnsafeRawPointer(buffer)
    var end = to
    if let found = memchr(base + from, 10, to - from) { end = base.distance(to: found) }
    if end > from, let found = memchr(base + from, 13, end - from) {
      return base.distance(to: found)
    }
    return end < to ? end : nil
  }

  /// Fails if a line of `length` bytes is too long; inlined, as every line passes.
  @inline(__always)
  private func checkLength(_ length: Int) throws(JetsimError) {
    guard length <= Self.maxLineBytes else { throw tooLong() }
  }

  private func tooLong() -> JetsimError {
    .traceLine(
      path: path, line: lineNumber + 1,
      message:
        "a line longer than \(Self.maxLineBytes >> 20) MB; is this a text file with line ends?")
  }

  /// Moves the unread bytes to the front and reads more after them.
  private func fill() throws(JetsimError) {
    if start > 0 {
      memmove(buffer, buffer + start, end - start)
      end -= start
      start = 0
    }
    if capacity - end < chunkBytes {
      // Twice as large, as an array grows.
      let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
      larger.update(from: buffer, count: end)
      buffer.deallocate()
      buffer = larger
      capacity *= 2
    }
    let room = min(capacity - end, chunkBytes)
    let count = read(descriptor, buffer + end, room)
    guard count >= 0 else {
      throw .unreadable(path: path, reason: FileSystem.words(errno: errno))
    }
    if count == 0 {
      atEOF = true
    } else {
      hasher?.update(UnsafeRawBufferPointer(start: buffer + end, count: count))
      end += count
    }
  }
}
