import Foundation

/// A one-line progress counter on standard error, shown only when standard error is a terminal, so
/// logs and pipes stay clean.
final class Progress: @unchecked Sendable {
  private let label: String
  private let lock = NSLock()
  private let start = Date()

  private init(label: String) { self.label = label }

  /// A progress line if standard error is a terminal, nil otherwise.
  static func onTerminal(label: String) -> Progress? {
    isatty(STDERR_FILENO) == 1 ? Progress(label: label) : nil
  }

  /// The number of cores, the default number of jobs.
  static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

  /// Shows `done` of `total` runs, with the time left estimated from the pace so far.
  func update(_ done: Int, of total: Int) {
    let elapsed = Date().timeIntervalSince(start)
    let left = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
    let line = "\r\(label): \(done)/\(total) runs, about \(Int(left.rounded()))s left   "
    lock.lock()
    FileHandle.standardError.write(Data(line.utf8))
    lock.unlock()
  }

  /// Shows a free-form note.
  func note(_ text: String) {
    lock.lock()
    FileHandle.standardError.write(Data("\r\(label): \(text)   ".utf8))
    lock.unlock()
  }

  /// Ends the progress line.
  func finish() {
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
