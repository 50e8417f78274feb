import Foundation

/// A temporary folder for the files a test writes, removed when the last reference goes.
public final class ScratchFolder: Sendable {
  /// The folder's path.
  public let path: String

  /// A new, empty folder under the system's temporary folder.
  public init() throws {
    path = NSTemporaryDirectory() + "jetsim-tests-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `text` to the file `name` in the folder (creating its subfolders) and returns its path.
  @discardableResult
  public func write(_ name: String, _ text: String) throws -> String {
    let file = "\(path)/\(name)"
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// The text of the file `name` in the folder.
  public func read(_ name: String) throws -> String {
    try String(contentsOfFile: "\(path)/\(name)", encoding: .utf8)
  }

  /// The path of `name` in the folder.
  public func file(_ name: String) -> String { "\(path)/\(name)" }

  /// The names in the folder (or its subfolder `name`), sorted, hidden ones included.
  public func contents(_ name: String = "") throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: name.isEmpty ? path : "\(path)/\(name)")
      .sorted()
  }
}
