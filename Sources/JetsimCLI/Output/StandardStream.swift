import JetsimIO
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output or standard error as a `TextOutputStream`, written straight to its file
/// descriptor (nothing is held back in a buffer, so a progress line shows at once).
public struct StandardStream: TextOutputStream, Sendable {
  /// Standard output.
  public static let output = StandardStream(descriptor: STDOUT_FILENO)
  /// Standard error.
  public static let error = StandardStream(descriptor: STDERR_FILENO)

  private let descriptor: Int32

  /// Whether it is a terminal (not a file or a pipe).
  public var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Writes `string`; a stream that cannot be written to (closed, full) drops it.
  public func write(_ string: String) {
    try? FileSystem.write(string, to: descriptor, path: "standard stream")
  }
}
