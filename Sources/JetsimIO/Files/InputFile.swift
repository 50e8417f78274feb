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

  /// `bytes`, read from `path`, as UTF-8 text.
  package static func text(_ bytes: [UInt8], path: String) throws(JetsimError) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .unreadable(path: path, reason: "not UTF-8 text")
    }
    return text
  }
}
