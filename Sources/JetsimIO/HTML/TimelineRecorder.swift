import JetsimCore

/// Collects what the HTML report draws, as the run goes, in bounded memory: the physical memory
/// used by apps in each state (a suspended process compressed by the device's ratio, a swapped one
/// none, or its compressed copy on a device with zram, as the simulation counts them) sampled in
/// time buckets (their width doubles whenever there are too many, so a run of any length keeps at
/// most `maxBuckets`), each app's state over time as
/// segments no shorter than a bucket (each showing the state held longest in it), its launches,
/// resumes and kills, and the run's kills, each in `TimeBuckets` (every one while they are few,
/// then by bucket), and the first kills for the table.
package struct TimelineRecorder: SimulationObserver, Sendable {
  /// Memory by state at the end of a bucket (apps by state, system processes together), and the
  /// most used during it.
  package struct Sample: Sendable, Equatable {
    package var timeMs: Int
    package var foregroundKB: Int
    package var backgroundKB: Int
    package var suspendedKB: Int
    package var systemKB: Int
    /// The page cache (`EventRecord.fileBackedKB`).
    package var fileBackedKB: Int
    package var peakAppsKB: Int
  }

  /// An app's state from `startMs` to the next segment (or the end of the run): the state it held
  /// longest in that time, when it went through others too (`mixed`) too briefly to draw.
  package struct Segment: Sendable, Equatable {
    package var startMs: Int
    package var state: AppState
    /// Whether the app was also in other states in this time.
    package var mixed = false

    /// `segments` (each lasting until the next starts, the last until `endMs`) with each segment
    /// that `isShort(start of the one kept before, its start)` merged into the one kept before;
    /// each kept segment shows the state held longest across what it merged (the earliest of
    /// equals), and merges into the one before it when they show the same state. The first
    /// segment is never merged into.
    package static func merged(
      _ segments: [Segment], endMs: Int, isShort: (_ keptStartMs: Int, _ startMs: Int) -> Bool
    ) -> [Segment] {
      var kept = segments
      merge(&kept, endMs: endMs, isShort: isShort)
      return kept
    }

    /// `merged`, in place: the kept segments are written over the front of `segments`, which
    /// keeps its capacity, so a recorder that merges its lanes again and again as a run goes on
    /// allocates nothing for it (freeing and allocating lanes' arrays by turns left the writer
    /// thread's heap fragmented, its resident memory growing with the run).
    package static func merge(
      _ segments: inout [Segment], endMs: Int,
      isShort: (_ keptStartMs: Int, _ startMs: Int) -> Bool
    ) {
      // `segments[..<kept]` are kept; `kept` never passes the segment being read.
      var kept = 0
      var held = SIMD8<Int>()
      for index in segments.indices {
        let segment = segments[index]
        let endMs = index + 1 < segments.count ? segments[index + 1].startMs : endMs
        if kept > 1, isShort(segments[kept - 1].startMs, segment.startMs) {
          held[Int(segment.state.rawValue)] += endMs - segment.startMs
          segments[kept - 1].mixed = true
          continue
        }
        settle(&segments, kept: &kept, held: held)
        segments[kept] = segment
        kept += 1
        held = SIMD8()
        held[Int(segment.state.rawValue)] = endMs - segment.startMs
      }
      settle(&segments, kept: &kept, held: held)
      segments.removeLast(segments.count - kept)
    }

    /// The last of `kept` shows the state `held` longest (if it merged any), and joins the one
    /// before it if that shows the same.
    static func settle(_ kept: inout [Segment], held: SIMD8<Int>) {
      var count = kept.count
      settle(&kept, kept: &count, held: held)
      // At most the last one joined the one before.
      if count < kept.count { kept.removeLast() }
    }

    /// `settle` on the first `kept` of `segments`.
    private static func settle(_ segments: inout [Segment], kept: inout Int, held: SIMD8<Int>) {
      guard kept > 0 else { return }
      var last = segments[kept - 1]
      if last.mixed { last.state = longest(held) ?? last.state }
      segments[kept - 1] = last
      if kept >= 2, segments[kept - 2].state == last.state {
        segments[kept - 2].mixed = segments[kept - 2].mixed || last.mixed
        kept -= 1
      }
    }

    /// The state with the most time in `held` (by `AppState.rawValue`), the lowest of equals.
    /// Every lane is read (those past the last state hold no time): `AppState.allCases` would
    /// make an array at each call.
    static func longest(_ held: SIMD8<Int>) -> AppState? {
      var best: (index: Int, time: Int)?
      for index in 0..<SIMD8<Int>.scalarCount where held[index] > best?.time ?? 0 {
        best = (index, held[index])
      }
      return best.flatMap { AppState(rawValue: UInt8($0.index)) }
    }
  }

  /// A mark on an app's lane.
  package enum Mark: Int, Sendable, CaseIterable { case coldLaunch, warmResume, kill }

  static let maxBuckets = 2048
  /// Kills kept one by one for the memory chart's markers, and marks for each lane and kind,
  /// before they go into time buckets (no more marks than buckets: a lane then takes as little
  /// memory before its marks are bucketed as after, so a run's peak does not grow with its length).
  static let exactKills = 10_000
  static let exactMarks = markBuckets
  /// Time buckets kept for each lane's marks of one kind: a lane is 960 pixels wide and draws marks
  /// at least 9 apart, and a bucket is under four pixels (right after the buckets merge two by two,
  /// 513 became about 257 over the run); there are three kinds for each process.
  static let markBuckets = 512

  package private(set) var bucketMs = 1000
  /// One sample per bucket, in time order: those of the buckets before the last, then the last
  /// (which later events in its bucket still update).
  package var samples: [Sample] { open.map { closed + [$0] } ?? closed }
  private var closed: [Sample] = []
  private var open: Sample?
  /// Process `app`'s segments, in time order.
  package func segments(of app: Int) -> [Segment] { closedSegments[app] + [tracks[app].segment] }
  /// Each process's segments but its last, which its track keeps (an event changes only that).
  private var closedSegments: [[Segment]]
  /// Each app's marks, by kind (`Mark.rawValue`).
  package private(set) var marks: [[TimeBuckets<Void>]]
  /// The run's kills for the memory chart's markers (a tooltip names five).
  package private(set) var killMarks = TimeBuckets<KillRecord>(keep: 5, exactLimit: exactKills)
  /// The first kills, for the report's table.
  package private(set) var killRows: [KillRecord] = []
  /// How many events each app had: the busiest apps get lanes first.
  package var activity: [Int] { tracks.map(\.activity) }
  /// What is known of each process, in one array so an event updates one element.
  private var tracks: [Track]
  private struct Track {
    var state = AppState.notRunning
    /// Whether its memory is in swap (from its swap-out or freeze row to its next change of
    /// state).
    var swapped = false
    /// Its physical memory as last recorded.
    var footprint = 0
    /// How many events it had.
    var activity = 0
    /// Its last segment (the one its events may still change).
    var segment = Segment(startMs: 0, state: .notRunning)
    /// The time in each state (by `AppState.rawValue`) within `segment` before `stateSinceMs`.
    var held = SIMD8<Int>()
    /// When it entered `state`.
    var stateSinceMs = 0

    /// The physical memory of the process after `event`, which takes it to `to`, with
    /// `compressionPermille` for a suspended footprint and `zramPermille` for one in swap.
    @inline(__always) mutating func physical(
      _ event: EventRecord, in to: AppState, compressionPermille: Int, zramPermille: Int
    ) -> Int {
      if event.kind == .swapOut || event.kind == .freeze { swapped = true }
      if to != .suspended { swapped = false }
      return swapped
        ? DeviceProfile.Zram.storedKB(
          footprintKB: event.footprintKB, compressionPermille: zramPermille)
        : DeviceProfile.physicalKB(
          footprintKB: event.footprintKB, state: to, compressionPermille: compressionPermille)
    }

    /// `update(...)` of `TimelineRecorder`: the track of process `app` (an app if `isApp`) goes
    /// to `to` after `event`, with buckets `bucketMs` wide; `closed` holds each process's segments
    /// but the last. Returns the state and memory before and the memory after.
    mutating func update(
      _ to: AppState, after event: EventRecord, isApp: Bool, bucketMs: Int,
      compressionPermille: Int, zramPermille: Int, closed: inout [[Segment]], app: Int
    ) -> (state: AppState, footprint: Int, used: Int) {
      let before = (state: state, footprint: footprint)
      let used = physical(
        event, in: to, compressionPermille: compressionPermille, zramPermille: zramPermille)
      if isApp {
        activity += 1
        if to != state {
          enter(to, at: event.timeMs, bucketMs: bucketMs, closed: &closed, app: app)
        }
        state = to
      }
      footprint = used
      return (before.state, before.footprint, used)
    }

    /// App `app` enters `new` at `time`, with buckets `bucketMs` wide. A change within a bucket
    /// of its last segment's start is too short to see at this resolution: the segment goes on,
    /// counting the time in each state, and once it ends shows the state held longest in it.
    private mutating func enter(
      _ new: AppState, at time: Int, bucketMs: Int, closed: inout [[Segment]], app: Int
    ) {
      held.add(time - stateSinceMs, at: Int(state.rawValue))
      stateSinceMs = time
      guard time - segment.startMs < bucketMs, !closed[app].isEmpty else {
        closed[app].append(segment)
        Segment.settle(&closed[app], held: held)
        segment = Segment(startMs: time, state: new)
        held = SIMD8()
        return
      }
      segment.state = new
      segment.mixed = true
    }
  }
  /// The device's compression ratio (`DeviceProfile.compressionPermille`).
  private let compressionPermille: Int
  /// zram's compression ratio (`DeviceProfile.Zram`); 0 when swap holds no RAM or there is none.
  private let zramPermille: Int
  /// The memory of apps in each state (by `AppState.rawValue`).
  private var usedByState = SIMD8<Int>()
  /// The sum of `usedByState`.
  private var appsKB = 0
  private var systemKB = 0
  /// The page cache after the last event.
  private var fileBackedKB = 0
  /// Where the last sample's bucket ends: an event before it updates that sample.
  private var bucketEndMs = Int.min
  /// Processes from this index on are system processes: one layer, no lanes.
  package let appCount: Int

  /// A recorder for `appCount` apps followed by `systemCount` system processes on `device`, whose
  /// compression ratio turns a suspended footprint into the memory it occupies.
  package init(appCount: Int, systemCount: Int = 0, device: DeviceProfile) {
    self.appCount = appCount
    compressionPermille = device.compressionPermille
    zramPermille = device.zramPermille
    let count = appCount + systemCount
    closedSegments = Array(repeating: [], count: count)
    marks = Array(
      repeating: Mark.allCases.map { _ in
        TimeBuckets(keep: 0, exactLimit: Self.exactMarks, maxBuckets: Self.markBuckets)
      },
      count: count)
    tracks = Array(repeating: Track(), count: count)
  }

  package mutating func record(_ event: EventRecord) {
    fileBackedKB = event.fileBackedKB
    let app = event.app
    if app >= 0, let to = event.to {
      let (state, footprint, used) = update(app, to, event)
      if app >= appCount {
        systemKB += used - footprint
      } else {
        usedByState.add(-footprint, at: Int(state.rawValue))
        usedByState.add(used, at: Int(to.rawValue))
        appsKB += used - footprint
        if event.kind == .launch, to == .inactive { mark(app, .coldLaunch, at: event.timeMs) }
        if event.kind == .enterForeground { mark(app, .warmResume, at: event.timeMs) }
      }
    }
    sample(at: event.timeMs)
  }

  /// Updates process `app`'s track for `event`, which takes it to `to`, and returns its state
  /// and memory before and its memory after. The track is updated in place, in its array: a
  /// track is 128 bytes, and copied out and back it cost more than the rest of the update.
  @inline(__always) private mutating func update(
    _ app: Int, _ to: AppState, _ event: EventRecord
  ) -> (state: AppState, footprint: Int, used: Int) {
    tracks[app].update(
      to, after: event, isApp: app < appCount, bucketMs: bucketMs,
      compressionPermille: compressionPermille, zramPermille: zramPermille,
      closed: &closedSegments, app: app)
  }

  package mutating func record(_ kill: KillRecord) {
    if killRows.count < HTMLReport.maxKillRows { killRows.append(kill) }
    killMarks.append(kill, at: kill.timeMs, bucketMs: bucketMs)
    if kill.app < appCount { mark(kill.app, .kill, at: kill.timeMs) }
  }

  private mutating func mark(_ app: Int, _ kind: Mark, at timeMs: Int) {
    marks[app][kind.rawValue].append((), at: timeMs, bucketMs: bucketMs)
  }

  /// Samples the memory at `time`, into the last sample while `time` is in its bucket (almost
  /// every event: this part is inlined into `record(_:)`), else into a new one.
  @inline(__always) private mutating func sample(at time: Int) {
    let used = appsKB + systemKB
    var current = Sample(
      timeMs: time,
      foregroundKB: usedByState[Int(AppState.active.rawValue)]
        + usedByState[Int(AppState.inactive.rawValue)],
      backgroundKB: usedByState[Int(AppState.background.rawValue)],
      suspendedKB: usedByState[Int(AppState.suspended.rawValue)], systemKB: systemKB,
      fileBackedKB: fileBackedKB, peakAppsKB: used)
    // Events come in time order: one before the end of the last sample's bucket is in it.
    if let last = open, time < bucketEndMs {
      current.peakAppsKB = max(last.peakAppsKB, used)
      open = current
      return
    }
    startSample(current, at: time)
  }

  /// Starts a sample, `current`, at `time`: the last one is closed.
  @inline(never) private mutating func startSample(_ current: Sample, at time: Int) {
    if let last = open { closed.append(last) }
    open = current
    if closed.count + 1 > Self.maxBuckets {
      closed.append(current)
      coarsen()
      open = closed.removeLast()
    }
    bucketEndMs = ((open?.timeMs ?? time) / bucketMs + 1) * bucketMs
  }

  /// Doubles the bucket width: merges samples two by two and segments shorter than a bucket.
  private mutating func coarsen() {
    bucketMs *= 2
    // In place, as the lanes' segments below.
    var kept = 0
    for index in closed.indices {
      let sample = closed[index]
      if kept > 0, closed[kept - 1].timeMs / bucketMs == sample.timeMs / bucketMs {
        var later = sample
        later.peakAppsKB = max(closed[kept - 1].peakAppsKB, sample.peakAppsKB)
        closed[kept - 1] = later
      } else {
        closed[kept] = sample
        kept += 1
      }
    }
    closed.removeLast(closed.count - kept)
    for app in closedSegments.indices where closedSegments[app].count > 1 {
      Segment.merge(&closedSegments[app], endMs: tracks[app].segment.startMs) {
        [bucketMs] kept, start in start - kept < bucketMs
      }
    }
  }
}

extension SIMD8<Int> {
  /// Adds `amount` to lane `index` where the vector lies in memory: a lane chosen at run time,
  /// subscripted, moved all eight lanes to the stack and back.
  @inline(__always) mutating func add(_ amount: Int, at index: Int) {
    precondition(0 <= index && index < 8, "no such lane")
    withUnsafeMutableBytes(of: &self) { lanes in
      let offset = index &* MemoryLayout<Int>.stride
      lanes.storeBytes(
        of: lanes.load(fromByteOffset: offset, as: Int.self) + amount, toByteOffset: offset,
        as: Int.self)
    }
  }
}
