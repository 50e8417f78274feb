import Foundation
import JetsimCore

/// Reading input files whole (profiles, scenarios, reports): every failure becomes a `JetsimError`
/// that names the file and says why.
package enum InputFile {
  /// The largest file read whole: JSON profiles and reports are far smaller; anything larger is a
  /// mistake (traces and logs are streamed, see `LineReader`).
  package static let maxBytes = 256 << 20

  /// The bytes of the file at `path`.
  package static func bytes(at path: String) throws(JetsimError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(path: path)
    }
    guard !isDirectory.boolValue else {
      throw .unreadable(path: path, reason: "it is a folder, not a file")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .unreadable(path: path, reason: "permission denied")
    }
    defer { try? handle.close() }
    do {
      let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
      guard data.count <= maxBytes else {
        throw JetsimError.unreadable(
          path: path, reason: "larger than \(maxBytes >> 20) MB; is it the right file?")
      }
      return [UInt8](data)
    } catch let error as JetsimError {
      throw error
    } catch {
      throw .unreadable(path: path, reason: "I/O error")
    }
  }

  /// The text of the file at `path`, which must be UTF-8.
  package static func text(at path: String) throws(JetsimError) -> String {
    try text(bytes(at: path), path: path)
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
