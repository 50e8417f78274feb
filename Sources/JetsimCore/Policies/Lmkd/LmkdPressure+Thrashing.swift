/// lmkd's thrashing (`__mp_event_psi`, lmkd.cpp at AOSP platform/system/memory/lmkd 767ae23,
/// lines 2815–2826 and 2864–2903): the file pages refaulted since its thrashing window began, in
/// percent of the file cache as it was then, plus the growth the window before carried over.
///
/// - lmkd reads the kernel's refault counter (`workingset_refault_file`, /proc/vmstat). jetsim
///   keeps it as the integral of the refault rate its memory model gives (`RefaultCounter`): the
///   rate changes only when a process does.
/// - A window begins at the cycle after a kill (`init_ws_refault`, `base_file_lru`,
///   `thrashing_reset_tm` taken anew, `prev_thrash_growth` 0) and at the first evaluation more than
///   1 s (`THRASHING_RESET_INTERVAL_MS`) after the window before began. That evaluation reads only
///   what is carried over: the window's refaults over its cache, halved for each whole window
///   passed, unless exactly one passed and the growth reached the thrashing limit in force (kept
///   whole "to ensure a kill if a new eligible process appears"). It also sets the limit back to
///   `thrashing_limit`.
/// - An evaluation that finds no reclaim and the counter where the last one that went on left it
///   "bails out early" (lines 2855–2862): it reads nothing and no window begins.
///
/// lmkd counts pages; jetsim counts KB, so the percentages are of the cache plus 1 KB where
/// lmkd's are of the cache plus one page.
extension LmkdPressure {
  /// The kernel's file refault counter: refaults so far, in KB × 1000 (the rate in KB a second
  /// times milliseconds), as of `atMs`, and the rate since.
  struct RefaultCounter: Sendable, Equatable {
    var milliKB = 0
    var atMs = 0
    var kbPerSecond = 0

    /// The counter at `nowMs` (at or after `atMs`).
    @inline(__always)
    func at(_ nowMs: Int) -> Int { milliKB + kbPerSecond * (nowMs - atMs) }

    /// Brings the counter to `nowMs` at the rate in force, then sets the rate to `kbPerSecond`.
    @inline(__always)
    mutating func advance(to nowMs: Int, kbPerSecond rate: Int) {
      if nowMs > atMs { (milliKB, atMs) = (at(nowMs), nowMs) }
      kbPerSecond = rate
    }
  }

  /// lmkd's thrashing window: when it began, the counter and the file cache then, and the growth
  /// carried over from the window before (`prev_thrash_growth`).
  struct ThrashingWindow: Sendable, Equatable {
    var startMs = 0
    var refaultsMilliKB = 0
    var fileKB = 0
    var carried = 0

    /// The thrashing of this window at a counter of `refaultsMilliKB` (line 2900, plus the growth
    /// carried over, line 2903).
    @inline(__always)
    func thrashing(refaultsMilliKB counter: Int) -> Int {
      (counter - refaultsMilliKB) / 1000 * 100 / (fileKB + 1) + carried
    }
  }

  /// What an evaluation at `nowMs` that does not bail out reads: the thrashing, and, if it begins
  /// a window (more than 1 s after this one began), the growth it carries over (lines 2880–2896).
  /// Shifts of 64 windows or more carry nothing (lmkd's shift of a 64-bit value by that much is
  /// undefined in C).
  @inline(__always)
  func thrashingReading(nowMs: Int) -> (thrashing: Int, carried: Int?) {
    let counter = refaults.at(nowMs)
    let sinceMs = nowMs - window.startMs
    guard sinceMs > Self.windowMs else { return (window.thrashing(refaultsMilliKB: counter), nil) }
    let growth = (counter - window.refaultsMilliKB) / 1000 * 100 / (window.fileKB + 1)
    let windows = sinceMs / Self.windowMs
    guard windows > 1 || growth < thrashingLimit else { return (growth, growth) }
    let carried = windows >= 64 ? 0 : growth >> windows
    return (carried, carried)
  }

  /// The thrashing an evaluation at `nowMs` reads, with `info`'s file cache: a new window begins
  /// if one is due (its refault baseline and cache, the growth carried over, `thrashing_limit`
  /// back). Call after the bail-out.
  mutating func readThrashing(_ info: LmkdMeminfo, nowMs: Int) -> Int {
    let (thrashing, carried) = thrashingReading(nowMs: nowMs)
    if let carried {
      beginWindow(fileKB: info.fileKB, nowMs: nowMs, carrying: carried)
      thrashingLimit = parameters.thrashingLimit
    }
    return thrashing
  }

  /// Begins a thrashing window at `nowMs` with a file cache of `fileKB`, carrying `carried` over.
  @inline(__always)
  mutating func beginWindow(fileKB: Int, nowMs: Int, carrying carried: Int) {
    window = ThrashingWindow(
      startMs: nowMs, refaultsMilliKB: refaults.at(nowMs), fileKB: fileKB, carried: carried)
  }

  /// The poll, after the last evaluation and inside the polling window, at which memory as `info`
  /// reads it would first be read otherwise than the last evaluation read it: the poll that
  /// begins a new thrashing window (more than 1 s after this one began, if that poll would not
  /// bail out), or the poll inside this window at which the thrashing passes the next value the
  /// cascade tells apart (above the limit in force, above `thrashing_limit`, at
  /// `thrashing_limit_critical`). nil if there is none. Each evaluation keeps it
  /// (`thrashingPollAtMs`): memory changes only with a process, and a process that changed
  /// brings the next poll earlier anyway.
  @inline(__always)
  func thrashingPollMs(_ info: LmkdMeminfo) -> Int? {
    guard lastEvaluationMs != Int.min else { return nil }
    let rate = info.refaultKBPerSecond
    var poll = Int.max
    if rate > 0 || watermarks.lowestBreached(freeKB: info.freeKB) <= .low {
      poll = firstPollMs(atOrAfter: window.startMs + Self.windowMs + 1)
    }
    if rate > 0 {
      let last = window.thrashing(refaultsMilliKB: refaults.at(lastEvaluationMs))
      let (cut, limit, critical) =
        (thrashingLimit + 1, parameters.thrashingLimit + 1, parameters.thrashingLimitCritical)
      let next = min(
        cut > last ? cut : .max, limit > last ? limit : .max, critical > last ? critical : .max)
      if next != .max {
        // The refaults since the window began that read `next`, and the least time they take.
        let neededKB = ((next - window.carried) * (window.fileKB + 1) + 99) / 100
        let missing = neededKB * 1000 - (refaults.at(lastEvaluationMs) - window.refaultsMilliKB)
        let reachedMs = lastEvaluationMs + max(1, (missing + rate - 1) / rate)
        let reached = firstPollMs(atOrAfter: reachedMs)
        if reached - window.startMs <= Self.windowMs { poll = min(poll, reached) }
      }
    }
    return poll != .max && polls(atMs: poll) ? poll : nil
  }

  /// Whether the evaluations lmkd makes from the last one on, at PSI events up to `level` and at
  /// polls, with processes and memory as they are (`info`), decide no lower minimum adj than
  /// `minAdj` (nil: they decide no kill at all) within `horizonMs`: then, as the last found no
  /// victim, none of them finds one. (A higher event wakes lmkd for real.) Thrashing decides only
  /// below the high watermark or with swap low, and never below adj 0; without refaults it only
  /// falls, and a lower thrashing never lowers the minimum adj. Otherwise it rises and falls with
  /// the windows, and the evaluations are made on a copy, without a victim search.
  func thrashingCannotLower(
    minAdj: Int?, _ info: LmkdMeminfo, level: EventLevel, horizonMs: Int
  ) -> Bool {
    let floor = minAdj ?? .max
    guard info.refaultKBPerSecond > 0, floor > 0,
      swapIsLow(info) || watermarks.lowestBreached(freeKB: info.freeKB) < .high
    else { return true }
    var copy = self
    copy.quiet = nil
    let endMs = lastEvaluationMs + horizonMs
    var last = lastEvaluationMs
    while let wake = copy.nextWakeMs(info, nowMs: last), wake <= endMs {
      last = wake
      guard let event = copy.wakeUp(info, nowMs: wake) else { continue }
      if event.rawValue > level.rawValue { return true }
      if let decision = copy.evaluate(info, event: event, nowMs: wake), decision.minAdj < floor {
        return false
      }
    }
    return true
  }
}
