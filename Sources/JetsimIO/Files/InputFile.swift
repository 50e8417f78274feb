import JetsimCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading input files whole (profiles, scenarios, reports): every failure becomes a `JetsimError`
/// that names the file and says why.
package enum InputFile {
  /// The largest file read whole: JSON profiles and reports are far smaller; anything larger is a
  /// mistake (traces and logs are streamed, see `LineReader`).
  package static let maxBytes = 256 << 20

  /// The file at `path` opened for reading, and its size in bytes (0 for a pipe); a missing file,
  /// one that cannot be opened and a folder are errors that say so. The caller closes it.
  package static func openForReading(_ path: String) throws(JetsimError) -> (
    descriptor: Int32, size: Int
  ) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw errno == ENOENT
        ? .fileNotFound(path: path)
        : .unreadable(path: path, reason: FileSystem.words(errno: errno))
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let reason = FileSystem.words(errno: errno)
      _ = close(descriptor)
      throw .unreadable(path: path, reason: reason)
    }
    guard status.st_mode & S_IFMT != S_IFDIR else {
      _ = close(descriptor)
      throw .unreadable(path: path, reason: "it is a folder, not a file")
    }
    return (descriptor, Int(status.st_size))
  }

  /// The bytes of the file at `path`. A file larger than `maxBytes` is an error that asks whether
  /// it is the right file, or says `tooLarge` where the caller knows better.
  package static func bytes(at path: String, tooLarge advice: String? = nil) throws(JetsimError)
    -> [UInt8]
  {
    let (descriptor, size) = try openForReading(path)
    defer { _ = close(descriptor) }
    guard size <= maxBytes else { throw tooLarge(path, advice) }
    // The size is a hint (a pipe has none, a file may grow while it is read): room for one byte
    // more, so the read that finds the end needs no more room, and twice the room when it fills,
    // up to one byte past the limit.
    var bytes = [UInt8](repeating: 0, count: max(size + 1, 4096))
    var count = 0
    while true {
      if count == bytes.count {
        guard count <= maxBytes else { throw tooLarge(path, advice) }
        bytes.append(contentsOf: repeatElement(0, count: min(count, maxBytes + 1 - count)))
      }
      let got = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { read(descriptor, $0 + count, buffer.count - count) } ?? 0
      }
      if got == 0 { break }
      if got < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: FileSystem.words(errno: errno))
      }
      count += got
    }
    guard count <= maxBytes else { throw tooLarge(path, advice) }
    bytes.removeLast(bytes.count - count)
    return bytes
  }

  private static func tooLarge(_ path: String, _ advice: String?) -> JetsimError {
    .unreadable(
      path: path, reason: "larger than \(maxBytes >> 20) MB; \(advice ?? "is it the right file?")")
  }

  /// The text of the file at `path`, which must be UTF-8 (`tooLarge`: see `bytes(at:tooLarge:)`).
  package static func text(at path: String, tooLarge advice: String? = nil) throws(JetsimError)
    -> String
  {
    try text(bytes(at: path, tooLarge: advice), path: path)
  }

  /// `bytes`, read from `path`, as UTF-8 text, without a byte-order mark at its start. Text that
  /// is not UTF-8 is an error naming the line of the first byte that is not, in the words the
  /// trace reader uses for a line, so every reader of text says the same.
  package static func text(_ bytes: [UInt8], path: String) throws(JetsimError) -> String {
    let start = try textStart(bytes, path: path)
    guard let text = String(validating: bytes[start...], as: UTF8.self) else {
      throw .traceLine(
        path: path, line: firstLineNotUTF8(bytes[start...]), message: "not UTF-8 text")
    }
    return text
  }

  /// The number (from 1) of the first line of `bytes` that is not UTF-8.
  ///
  /// - Complexity: O(*n*) for *n* bytes.
  static func firstLineNotUTF8(_ bytes: ArraySlice<UInt8>) -> Int {
    var line = 1
    var lineStart = bytes.startIndex
    for index in bytes.indices where bytes[index] == 10 {
      if String(validating: bytes[lineStart..<index], as: UTF8.self) == nil { return line }
      line += 1
      lineStart = index + 1
    }
    return line
  }

  /// Where the text of a file starting with `head` begins: after a UTF-8 byte-order mark, which
  /// editors on Windows and some export tools write and which every reader of jetsim skips (RFC
  /// 8259 §8.1 lets a JSON parser ignore it); 0 without one. A file in UTF-16 or UTF-32 (a mark of
  /// theirs, or a zero byte in its first two) is refused with an error that says so.
  package static func textStart(_ head: some Collection<UInt8>, path: String)
    throws(JetsimError) -> Int
  {
    let first = Array(head.prefix(4))
    if first.starts(with: utf8Mark) { return utf8Mark.count }
    let utf16Mark = first.starts(with: [0xFF, 0xFE]) || first.starts(with: [0xFE, 0xFF])
    let utf32Mark = first.starts(with: [0, 0, 0xFE, 0xFF])
    if utf16Mark || utf32Mark || (first.count >= 2 && first.prefix(2).contains(0)) {
      let encoding = utf32Mark || first.starts(with: [0xFF, 0xFE, 0, 0]) ? "UTF-32" : "UTF-16"
      throw .unreadable(path: path, reason: "it is \(encoding) text; save it as UTF-8")
    }
    return 0
  }

  /// The UTF-8 byte-order mark, EF BB BF.
  package static let utf8Mark: [UInt8] = [0xEF, 0xBB, 0xBF]
}
