import Dispatch
import Jetsim
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A one-line progress counter on standard error, shown only when standard error is a terminal (so
/// logs and pipes stay clean; the commands make none with `--quiet`), only once the work has taken
/// two seconds (a short command prints no line at all), and redrawn at most five times a second,
/// however fast runs finish.
final class Progress: @unchecked Sendable {
  private let label: String
  private let lock = Lock()
  private let start = DispatchTime.now().uptimeNanoseconds
  private var lastDrawn: UInt64?
  /// The shortest time between two redraws.
  static let intervalNanoseconds: UInt64 = 200_000_000
  /// How long work goes on before the line appears.
  static let delayNanoseconds: UInt64 = 2_000_000_000

  private init(label: String) { self.label = label }

  /// A progress line if standard error is a terminal, nil otherwise.
  static func onTerminal(label: String) -> Progress? {
    StandardStream.error.isTerminal ? Progress(label: label) : nil
  }

  /// The number of cores, the default number of jobs.
  static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

  /// A callback for the library's batch runs: `done` of `total` runs.
  var runs: @Sendable (Int, Int) -> Void { { [self] done, total in update(done, of: total) } }

  /// Shows `done` of `total` runs, with the time left estimated from the pace so far.
  func update(_ done: Int, of total: Int) {
    let now = DispatchTime.now().uptimeNanoseconds
    let elapsed = Double(now - start) / 1e9
    let left = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
    draw("\(done)/\(total) runs, about \(Self.duration(left)) left", at: now, force: done == total)
  }

  /// Shows a free-form note.
  func note(_ text: String) {
    draw(text, at: DispatchTime.now().uptimeNanoseconds, force: false)
  }

  /// Shows how far a run has gone in simulated time: `simulated 01:23:00.000 of 08:00:00.000
  /// (17%)`, or without the end and share when the run has no end time.
  func simulated(_ timeMs: Int, of endMs: Int?) {
    draw(Self.simulated(timeMs, of: endMs), at: DispatchTime.now().uptimeNanoseconds, force: false)
  }

  /// The text of `simulated(_:of:)`.
  static func simulated(_ timeMs: Int, of endMs: Int?) -> String {
    guard let endMs, endMs > 0 else { return "simulated \(Units.clock(timeMs))" }
    let percent = min(100, timeMs * 100 / endMs)
    return "simulated \(Units.clock(timeMs)) of \(Units.clock(endMs)) (\(percent)%)"
  }

  /// Whether to draw at `now`, `elapsed` nanoseconds into the work, the last line drawn at
  /// `last` (nil: none yet): never in the first two seconds, then at most five times a second
  /// unless `force`d (the last run done).
  static func shouldDraw(elapsed: UInt64, now: UInt64, last: UInt64?, force: Bool) -> Bool {
    guard elapsed >= delayNanoseconds else { return false }
    guard let last else { return true }
    return force || now - last >= intervalNanoseconds
  }

  private func draw(_ text: String, at now: UInt64, force: Bool) {
    lock.lock()
    defer { lock.unlock() }
    guard Self.shouldDraw(elapsed: now - start, now: now, last: lastDrawn, force: force) else {
      return
    }
    lastDrawn = now
    StandardStream.error.write("\r\u{1B}[K\(label): \(text)")
  }

  /// Writes a notice to standard error at once (not held until the command ends).
  static func say(_ text: String) {
    StandardStream.error.write(text)
  }

  /// Ends the progress line, if one was drawn.
  func finish() {
    lock.lock()
    defer { lock.unlock() }
    guard lastDrawn != nil else { return }
    StandardStream.error.write("\r\u{1B}[K")
  }

  /// Seconds for people: `45s`, `3m 20s`, `1h 05m`.
  static func duration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    if whole < 60 { return "\(whole)s" }
    if whole < 3600 { return "\(whole / 60)m \(whole % 60 < 10 ? "0" : "")\(whole % 60)s" }
    return "\(whole / 3600)h \(whole / 60 % 60 < 10 ? "0" : "")\(whole / 60 % 60)m"
  }
}
