import Foundation

/// Writes a file completely or not at all: into a temporary file beside it, then renamed over it.
public enum AtomicFile {
  /// Writes `text` to `path`, replacing the file there.
  public static func write(_ text: String, to path: String) throws(JetsimError) {
    let staged = "\(path).partial-\(ProcessInfo.processInfo.processIdentifier)"
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: staged))
      if FileManager.default.fileExists(atPath: path) {
        try FileManager.default.removeItem(atPath: path)
      }
      try FileManager.default.moveItem(atPath: staged, toPath: path)
    } catch {
      try? FileManager.default.removeItem(atPath: staged)
      throw .outputNotWritable(path: path, reason: ReportFolder.reason(error))
    }
  }
}
