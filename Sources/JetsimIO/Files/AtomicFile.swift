import Foundation
import JetsimCore

/// Writes a file completely or not at all: into a temporary file beside it, then renamed over it.
package enum AtomicFile {
  /// Writes `text` to `path`, replacing the file there.
  package static func write(_ text: String, to path: String) throws(JetsimError) {
    let staged = "\(path).partial-\(ProcessInfo.processInfo.processIdentifier)"
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: staged))
      if FileManager.default.fileExists(atPath: path) {
        try FileManager.default.removeItem(atPath: path)
      }
      try FileManager.default.moveItem(atPath: staged, toPath: path)
    } catch {
      try? FileManager.default.removeItem(atPath: staged)
      throw .outputNotWritable(path: path, reason: FileFailure.reason(error))
    }
  }
}
