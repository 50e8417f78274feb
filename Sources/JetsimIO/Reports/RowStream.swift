import Dispatch
import JetsimCore

/// A run's rows on their way to `events.csv` and `kills.csv` (and to what `report.html` draws):
/// the simulation hands them over in chunks, and one thread of their own (a `HelperThread`) formats
/// and writes them and records the timeline, so on a machine with two cores the reports cost the
/// simulation little more than copying each record once. One thread writes every row, in the order
/// the run made them, so the files are the same bytes however the two threads interleave. At most
/// `chunkCount` chunks are in flight: memory stays bounded whatever the run's length, and a
/// simulation faster than its writer waits for it.
final class RowStream: @unchecked Sendable {
  /// Records of the run in the order the simulation made them: the events in one block, the
  /// kills in an array, each kill with the number of events before it. The event log's rows are
  /// then written straight from the block, a run of them at a time (`ReportTables.append(_:to:)`),
  /// and the larger kill records take no room in the events'.
  ///
  /// A class, one word: `ReportWriter`, which holds one, stays small enough for a simulation's
  /// existential to store inline. Its events are a block of room for `chunkSize` of them rather
  /// than an array: adding one stores it and counts it, with no check that an array's storage is
  /// unique and no check of its capacity (1.5 M events a run). One thread at a time owns a chunk:
  /// the simulation while it fills it, the writer once it is handed over, until it comes back
  /// empty (`RowStream.hand(_:)`, under the stream's lock).
  final class Chunk: @unchecked Sendable {
    /// Room for `RowStream.chunkSize` events, the first `eventCount` of them initialized.
    private let storage: UnsafeMutablePointer<EventRecord>
    /// The number of events.
    @exclusivity(unchecked) private(set) var eventCount = 0
    /// The number of rows, kills included.
    @exclusivity(unchecked) private(set) var count = 0
    /// The kills, each with the number of events before it in the chunk. Like the counts, read
    /// and written by one thread at a time, so with no dynamic check of exclusive access (which
    /// cost half of adding a kill).
    @exclusivity(unchecked) private(set) var kills: [(position: Int, record: KillRecord)] = []

    /// An empty chunk with room for `RowStream.chunkSize` rows.
    init() { storage = .allocate(capacity: RowStream.chunkSize) }

    deinit {
      storage.deinitialize(count: eventCount)
      storage.deallocate()
    }

    /// The events, in order.
    var events: UnsafeBufferPointer<EventRecord> {
      UnsafeBufferPointer(start: storage, count: eventCount)
    }

    /// Adds `event`'s row, which must fit (`count` below `RowStream.chunkSize`); returns the
    /// number of rows.
    @inline(__always) func append(_ event: EventRecord) -> Int {
      precondition(count < RowStream.chunkSize, "a full chunk")
      (storage + eventCount).initialize(to: event)
      eventCount &+= 1
      count &+= 1
      return count
    }

    /// Adds `kill`'s row; returns the number of rows.
    func append(_ kill: KillRecord) -> Int {
      precondition(count < RowStream.chunkSize, "a full chunk")
      kills.append((eventCount, kill))
      count &+= 1
      return count
    }

    /// Empties the chunk, keeping its room for the next rows.
    func removeAll() {
      storage.deinitialize(count: eventCount)
      eventCount = 0
      count = 0
      kills.removeAll(keepingCapacity: true)
    }
  }

  /// Rows in a chunk, and chunks in flight (the one being filled among them). With 1,024 rows the
  /// chunks in flight stay near the processor's caches: 4,096 cost 2 % more CPU time on the
  /// benchmark's report case (docs/performance.md).
  static let chunkSize = 1024
  static let chunkCount = 16
  /// Chunks that wake a waiting thread: filled ones the writer, emptied ones the simulation.
  /// Woken at every chunk, the faster thread sleeps and wakes once per chunk, two system calls
  /// and a switch of threads each time (at every chunk both ways when the two share a
  /// processor); woken for four, it goes on for four chunks in one go.
  static let wakeBatch = 4

  // Shared between the two threads, under `lock`.
  private let lock = Lock()
  private var filled: [Chunk] = []
  private var empty: [Chunk]
  private var ended = false
  /// Whether the writer waits on `rowsReady`, for `wakeBatch` filled chunks or the end.
  private var writerWaits = false
  /// Whether the simulation waits on `chunksFree`, for `wakeBatch` empty chunks.
  private var simulationWaits = false
  private let rowsReady = DispatchSemaphore(value: 0)
  private let chunksFree = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  // The writer thread's own, until `end()` returns; then the caller's.
  private var tables: ReportTables
  private var events = CSVBuffer(capacity: ReportWriter.blockBytes + 4096)
  private var kills = CSVBuffer(capacity: ReportWriter.blockBytes + 4096)
  private var timeline: TimelineRecorder?
  private let eventsFile: OutputFile
  private let killsFile: OutputFile

  /// A stream into the two files (their headers written first), and into `timeline` if there is
  /// one; its thread starts at once.
  init(
    tables: ReportTables, eventsFile: OutputFile, killsFile: OutputFile,
    timeline: TimelineRecorder?
  ) throws(HelperThread.Failure) {
    self.tables = tables
    self.eventsFile = eventsFile
    self.killsFile = killsFile
    self.timeline = timeline
    empty = (1..<Self.chunkCount).map { _ in Self.newChunk() }
    events.appendRow(ReportTables.eventColumns)
    kills.appendRow(ReportTables.killColumns)
    try HelperThread.start("jetsim-writer") { [self] in work() }
  }

  /// A chunk to fill: an empty one with room for `chunkSize` rows.
  static func newChunk() -> Chunk { Chunk() }

  /// The row writers, once the run says its policy (before its first row).
  func start(_ tables: ReportTables) {
    lock.lock()
    self.tables = tables
    lock.unlock()
  }

  /// Hands `chunk` to the writer thread and gives back an empty one in its place; if every chunk
  /// is in flight, waits until the writer has emptied `wakeBatch` of them. After `end(with:)`, it
  /// writes nothing: the chunk is emptied, its rows dropped.
  func hand(_ chunk: inout Chunk) {
    lock.lock()
    guard !ended else {
      lock.unlock()
      chunk.removeAll()
      return
    }
    while empty.isEmpty {
      simulationWaits = true
      lock.unlock()
      chunksFree.wait()
      lock.lock()
    }
    filled.append(chunk)
    chunk = empty.removeLast()
    let wake = writerWaits && filled.count >= Self.wakeBatch
    if wake { writerWaits = false }
    lock.unlock()
    if wake { rowsReady.signal() }
  }

  /// Hands the last rows over and waits until every row is written into the buffers and files;
  /// then returns the files, flushed but open, and the timeline. Later calls return them at once.
  /// The first call takes `chunk` and leaves an empty one of its own in its place: the writer
  /// reads the chunk, so nothing else may write to it.
  func end(with chunk: inout Chunk) -> (
    events: OutputFile, kills: OutputFile, timeline: TimelineRecorder?
  ) {
    lock.lock()
    let first = !ended
    let wake = first && writerWaits
    if first {
      filled.append(chunk)
      chunk = Self.newChunk()
      ended = true
      writerWaits = false
    }
    lock.unlock()
    guard first else { return (eventsFile, killsFile, timeline) }
    if wake { rowsReady.signal() }
    finished.wait()
    eventsFile.flush(&events)
    killsFile.flush(&kills)
    return (eventsFile, killsFile, timeline)
  }

  /// The writer thread: chunk after chunk, in order, until the last. The buffers are this
  /// function's own while it runs (a class's stored property would be checked for exclusive access
  /// at every row).
  private func work() {
    var events = CSVBuffer()
    var kills = CSVBuffer()
    var timeline = self.timeline.take()
    swap(&events, &self.events)
    swap(&kills, &self.kills)
    // The tables as `start(_:)` left them before the first row; from then on, this thread's own
    // (they remember what the last rows wrote).
    var tables: ReportTables?
    while true {
      lock.lock()
      guard !filled.isEmpty else {
        // Nothing to write, and not the end (the last chunk ends the loop): sleep until
        // `hand(_:)` or `end(with:)` wakes this thread.
        writerWaits = true
        lock.unlock()
        rowsReady.wait()
        continue
      }
      let chunk = filled.removeFirst()
      let last = ended && filled.isEmpty
      var current = tables.take() ?? self.tables
      lock.unlock()
      write(chunk, &current, &events, &kills)
      // The timeline is taken out of its optional for the whole chunk: read through the optional,
      // every row copied it out and back and asked whether it was there.
      if var recorder = timeline.take() {
        record(chunk, into: &recorder)
        timeline = recorder
      }
      tables = current
      if last { break }
      chunk.removeAll()
      lock.lock()
      empty.append(chunk)
      let wake = simulationWaits && empty.count >= Self.wakeBatch
      if wake { simulationWaits = false }
      lock.unlock()
      if wake { chunksFree.signal() }
    }
    swap(&events, &self.events)
    swap(&kills, &self.kills)
    self.timeline = timeline
    finished.signal()
  }

  /// Writes `chunk`'s rows into `events` and `kills` with `tables`, each in whole blocks to its
  /// file: the event log's rows a run at a time, then the kills' (each file keeps its order).
  private func write(
    _ chunk: Chunk, _ tables: inout ReportTables, _ events: inout CSVBuffer,
    _ kills: inout CSVBuffer
  ) {
    let records = chunk.events
    // A run at a time (`ReportTables.rowsAtOnce`), each followed by any whole block.
    for start in stride(from: 0, to: records.count, by: ReportTables.rowsAtOnce) {
      let run = records[start..<min(start + ReportTables.rowsAtOnce, records.count)]
      tables.append(UnsafeBufferPointer(rebasing: run), to: &events)
      if events.count >= ReportWriter.blockBytes { eventsFile.flushBlocks(&events) }
    }
    for kill in chunk.kills {
      tables.append(kill.record, to: &kills)
      if kills.count >= ReportWriter.blockBytes { killsFile.flushBlocks(&kills) }
    }
  }

  /// Hands `chunk`'s rows to `recorder`, in the order the run made them: the events up to each
  /// kill, then the kill.
  private func record(_ chunk: Chunk, into recorder: inout TimelineRecorder) {
    let events = chunk.events
    var start = 0
    for kill in chunk.kills {
      for event in events[start..<kill.position] { recorder.record(event) }
      recorder.record(kill.record)
      start = kill.position
    }
    for event in events[start...] { recorder.record(event) }
  }
}
