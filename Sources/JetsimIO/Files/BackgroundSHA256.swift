import Dispatch

/// SHA-256 computed on a thread of its own: the bytes a reader hands over are copied and hashed
/// there, in order, while the reader goes on (a run's trace is hashed beside the simulation that
/// reads it, rather than on its thread). At most `slots` pieces wait at a time, so memory stays
/// bounded whatever the input's length. Call `hex()` or `end()` once done with it: its thread
/// waits for them.
package final class BackgroundSHA256: @unchecked Sendable {
  private static let slots = 64

  // Shared between the two threads, under `lock`.
  private let lock = Lock()
  private var waiting: [[UInt8]] = []
  private var spare: [[UInt8]] = []
  private var ended = false
  private let piecesReady = DispatchSemaphore(value: 0)
  private let slotsFree = DispatchSemaphore(value: slots)
  private let finished = DispatchSemaphore(value: 0)
  private var digest: String?

  /// Starts the hashing thread.
  package init() throws(HelperThread.Failure) {
    try HelperThread.start("jetsim-sha256") { [self] in work() }
  }

  /// Adds a copy of `bytes` to the message, waiting if `slots` pieces are already waiting.
  package func update(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    slotsFree.wait()
    lock.lock()
    var piece = spare.popLast() ?? []
    lock.unlock()
    piece.removeAll(keepingCapacity: true)
    piece.append(contentsOf: bytes)
    lock.lock()
    waiting.append(piece)
    lock.unlock()
    piecesReady.signal()
  }

  /// The digest of everything added, in lowercase hexadecimal, once the thread has hashed it all;
  /// nothing can be added after.
  package func hex() -> String {
    end()
    lock.lock()
    defer { lock.unlock() }
    return digest ?? ""
  }

  /// Tells the thread the message is complete and waits for it to finish. Later calls do nothing.
  package func end() {
    lock.lock()
    let first = !ended
    ended = true
    lock.unlock()
    guard first else { return }
    piecesReady.signal()
    finished.wait()
  }

  private func work() {
    var hasher = SHA256.Hasher()
    while true {
      piecesReady.wait()
      lock.lock()
      guard !waiting.isEmpty else {
        // Woken with nothing to hash: the end.
        lock.unlock()
        break
      }
      let piece = waiting.removeFirst()
      lock.unlock()
      piece.withUnsafeBytes { hasher.update($0) }
      lock.lock()
      spare.append(piece)
      lock.unlock()
      slotsFree.signal()
    }
    let hex = hasher.hex()
    lock.lock()
    digest = hex
    lock.unlock()
    finished.signal()
  }
}
