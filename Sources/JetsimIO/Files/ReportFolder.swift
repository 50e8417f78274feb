import Foundation
import JetsimCore

/// A run's report folder, written completely or not at all: files go into a hidden temporary folder
/// beside the destination, which replaces the destination only once every file is written.
///
/// An existing destination is replaced only if it holds nothing but report files, so a mistyped
/// `--out` never deletes someone's data.
public struct ReportFolder: Sendable {
  /// The files jetsim writes in a report folder; a folder holding anything else is never replaced.
  public static let reportFiles: Set<String> = [
    "events.csv", "kills.csv", "apps.csv", "summary.csv", "run.json", "report.html",
  ]

  /// What the folder holds, which decides when an existing one may be replaced.
  public enum Kind: Sendable {
    /// One run's reports: an existing folder is replaced only if it holds nothing but report files.
    case run
    /// A comparison: an existing folder is replaced only if it is empty or holds a `compare.csv`.
    case comparison
  }

  /// Where the reports will be.
  public let destination: String
  /// Where they are written meanwhile.
  public let staging: String

  /// Prepares to write reports to `destination`, creating its parent folders and a staging folder.
  public init(destination: String, kind: Kind = .run) throws(JetsimError) {
    let manager = FileManager.default
    let url = URL(fileURLWithPath: destination)
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: destination, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw .outputNotWritable(path: destination, reason: "a file of that name exists")
      }
      let contents = (try? manager.contentsOfDirectory(atPath: destination)) ?? []
      switch kind {
      case .run:
        if let stranger = contents.first(where: { !Self.reportFiles.contains($0) }) {
          throw .outputNotWritable(
            path: destination, reason: "the folder holds '\(stranger)', which is not a report file")
        }
      case .comparison:
        if !contents.isEmpty, !contents.contains("compare.csv") {
          throw .outputNotWritable(
            path: destination, reason: "the folder is not empty and holds no earlier comparison")
        }
      }
    }
    let parent = url.deletingLastPathComponent()
    let stagingURL = parent.appendingPathComponent(
      ".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    )
    do {
      try manager.createDirectory(at: parent, withIntermediateDirectories: true)
      try manager.createDirectory(at: stagingURL, withIntermediateDirectories: false)
    } catch {
      throw .outputNotWritable(path: destination, reason: FileFailure.reason(error))
    }
    self.destination = destination
    self.staging = stagingURL.path
  }

  /// The staging path of the report file `name`.
  public func path(_ name: String) -> String { staging + "/" + name }

  /// Moves the staged files into place, replacing an earlier report folder.
  public func commit() throws(JetsimError) {
    let manager = FileManager.default
    let retired = staging + ".old"
    do {
      if manager.fileExists(atPath: destination) {
        try manager.moveItem(atPath: destination, toPath: retired)
      }
      try manager.moveItem(atPath: staging, toPath: destination)
      try? manager.removeItem(atPath: retired)
    } catch {
      discard()
      throw .outputNotWritable(path: destination, reason: FileFailure.reason(error))
    }
  }

  /// Removes the staged files.
  public func discard() {
    try? FileManager.default.removeItem(atPath: staging)
  }
}
