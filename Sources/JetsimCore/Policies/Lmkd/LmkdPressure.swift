/// lmkd's PSI mode (`use_minfree_levels` false, the default since Android 10): when it evaluates,
/// and what each evaluation decides, as `__mp_event_psi` does (lmkd.cpp at AOSP
/// platform/system/memory/lmkd 767ae23, lines 2713–3115). It keeps the state lmkd keeps between
/// evaluations: the last PSI event of each level, the polling window, the thrashing limit and its
/// window, whether the last evaluation killed, and `check_filecache`.
///
/// An evaluation happens
/// - on a PSI event. The kernel's triggers fire when the stall accumulated in a 1 s window reaches
///   `psi_partial_stall_ms` ("some", medium) or `psi_complete_stall_ms` ("full", critical), at most
///   once a window. jetsim's memory moves in steps: a medium event is due as soon as the stall is at
///   or above its threshold (earlier than the kernel's, which needs `psi_partial_stall_ms × 1000 /
///   stall` ms to accumulate it: docs/policies.md); a critical event once the full stall has stayed
///   at or above its threshold for the time it takes to accumulate it (`psi_complete_stall_ms ×
///   1000 / full stall` ms), so a medium event, and lmkd's kills, come first. The higher level wins
///   when both are due, and a lower event before lmkd's next poll is ignored (`prev_level`).
/// - on a poll, every 100 ms (10 ms with swap low) for 1 s after an event, a kill or direct
///   reclaim, and once more (`PSI_WINDOW_SIZE_MS`, `PSI_POLL_PERIOD_LONG_MS`,
///   `PSI_POLL_PERIOD_SHORT_MS`; `polls(atMs:)`), when a process changed since the last
///   evaluation, or when the thrashing passes a limit or a thrashing window begins
///   (`thrashingPollMs`): polls that would decide as the last evaluation are not made.
/// - on the poll that finds direct reclaim stuck (`direct_reclaim_threshold_ms`, see
///   `directReclaimMs`): lmkd polls for as long as direct reclaim lasts (line 3103), so the first
///   poll after the threshold is passed evaluates, though memory reads as before.
/// - at once after a kill: the victim dies in the instant it is killed in jetsim, and lmkd polls
///   as soon as its pidfd says so (`kill_done_handler`, line 2374; `mainloop`, line 3970), so waiting for
///   the death or `kill_timeout_ms` never delays the next evaluation.
///
/// Speed: lmkd is asked at every wake-up of a stalled device, and this state is some 500 bytes. A
/// read-only method called from a mutating one takes a copy of the whole state first, so every
/// read-only method here is `@inline(__always)` (policy-lmkd in docs/performance.md).
package struct LmkdPressure: Sendable {
  /// lmkd's `enum kill_reasons` (statslog.h), and the minimum adj the cascade gives each.
  package struct Decision: Sendable, Equatable {
    /// The kill reason.
    package var reason: KillReason
    /// The lowest adj that may be killed.
    package var minAdj: Int
    /// Whether a kill cuts the thrashing limit (`cut_thrashing_limit`).
    package var cutsThrashingLimit: Bool
    /// The thrashing the evaluation read, in percent (what lmkd logs with the kill).
    package var thrashingPercent = 0
  }

  /// The PSI levels lmkd registers triggers for.
  package enum EventLevel: Int, Sendable {
    case none = 0
    case medium = 1
    case critical = 2
  }

  static let windowMs = 1_000
  static let pollShortMs = 10
  static let pollLongMs = 100
  static let perceptibleAdj = 200

  let parameters: LmkdPolicy.Parameters
  /// The zone watermarks: below min, allocations reclaim directly.
  let watermarks: ZoneWatermarks
  private var lastEventMs = [Int.min, Int.min, Int.min]
  /// The level of the last event lmkd evaluated, until its next poll (`prev_level`, lines
  /// 2773–2784): a lower event before that poll is ignored.
  private var prevLevel = EventLevel.none
  /// The polling window's end, `PSI_WINDOW_SIZE_MS` after it began: lmkd polls up to the first
  /// poll past it (`polls(atMs:)`).
  var pollUntilMs = Int.min
  private var fullStallSinceMs: Int?
  var lastObservationMs = Int.min
  /// A process changed since the last observation (`LmkdPolicy.appDidChange`).
  var processesChanged = false
  /// A process changed since the last evaluation: a poll would read other memory.
  var changedSinceEvaluation = false
  var lastEvaluationMs = Int.min
  private var lastEvaluatedInfo: LmkdMeminfo?
  var pollIntervalMs = pollLongMs
  /// The last evaluation killed (`killing`): the next one is the cycle after a kill.
  var killing = false
  /// The kernel's file refault counter (`workingset_refault_file`).
  var refaults = RefaultCounter()
  /// The counter at the last evaluation that did not bail out (`prev_workingset_refault`).
  var passedRefaultsMilliKB = 0
  /// The thrashing window (`LmkdPressure+Thrashing.swift`).
  var window = ThrashingWindow()
  /// The file cache when memory is just out of lmkd's range (`LmkdPolicy.actsBelowFreeKB`): what a
  /// cycle after a kill that jetsim did not ask for takes as its cache (an estimate: the least it
  /// can be).
  var fileKBOutOfRange = 0
  /// The poll at which memory as the last evaluation read it would be read otherwise
  /// (`thrashingPollMs`), set by each evaluation.
  var thrashingPollAtMs: Int?
  var checkFilecache = false
  var thrashingLimit: Int
  /// Whether PSI events that can only repeat the last evaluation are left out (see `quiet`); off,
  /// lmkd evaluates at every one, as the kernel sends them (tests compare the two).
  package var leavesOutQuietEvents = true
  /// The reading of the last evaluation if it killed nothing and left lmkd's state as it found it,
  /// and its event. While processes and memory stay as they are, every later PSI event up to that
  /// level decides the same and finds no victim: `nextWakeMs` does not schedule those evaluations,
  /// and `catchUp` makes them, without a victim search, when lmkd next wakes. Without this, a stall
  /// nothing can relieve would wake lmkd every second for ever, and a run with no end time would
  /// not end.
  var quiet: (info: LmkdMeminfo, level: EventLevel)?
  /// The direct reclaim under way, as memevents report it to lmkd (`direct_reclaim_start_tm`,
  /// `memevent_listener_notification`, lines 3467–3473): the direct-reclaim stall accumulated
  /// since the readings fell below the min watermark, in permille × milliseconds, and the stall
  /// of the latest reading (`directReclaimMs`).
  var directReclaim: (stalledPermilleMs: Int, stallPermille: Int)?
  /// The last evaluation found direct reclaim: lmkd polls for as long as it lasts (line 3103).
  var lastEvaluationReclaimedDirectly = false
  /// The last evaluation found direct reclaim stuck (DIRECT_RECL_STUCK's condition).
  var lastEvaluationStuck = false

  /// lmkd's state when jetsim starts watching at `nowMs`, with a file cache of `fileKB` then: a
  /// thrashing window begins, with nothing refaulted and nothing carried over.
  init(
    parameters: LmkdPolicy.Parameters, watermarks: ZoneWatermarks, fileKB: Int = 0, nowMs: Int = 0
  ) {
    self.parameters = parameters
    self.watermarks = watermarks
    thrashingLimit = parameters.thrashingLimit
    refaults.atMs = nowMs
    beginWindow(fileKB: fileKB, nowMs: nowMs, carrying: 0)
  }

  /// The PSI event due at `nowMs` with `info`'s stalls, if any (`init_psi_monitors`, line 3561).
  @inline(__always)
  func dueEvent(_ info: LmkdMeminfo, nowMs: Int) -> EventLevel {
    if let due = criticalDueMs(info, nowMs: nowMs), due <= nowMs { return .critical }
    return mediumIsDue(info, nowMs: nowMs) ? .medium : .none
  }

  /// Whether the medium trigger fires at `nowMs` with `info`'s stall: at or above its threshold,
  /// a window after its last event.
  @inline(__always)
  func mediumIsDue(_ info: LmkdMeminfo, nowMs: Int) -> Bool {
    guard stalls(info, .medium) else { return false }
    let last = lastEventMs[EventLevel.medium.rawValue]
    return last == Int.min || nowMs >= last + Self.windowMs
  }

  /// When the critical trigger fires if the full stall stays as `info`'s: once it has lasted long
  /// enough to accumulate `psi_complete_stall_ms`, and a window after the last critical event.
  @inline(__always)
  func criticalDueMs(_ info: LmkdMeminfo, nowMs: Int) -> Int? {
    guard stalls(info, .critical) else { return nil }
    let since = fullStallSinceMs ?? nowMs
    let sustained = since + parameters.psiCompleteStallMs * 1000 / max(1, info.fullStallPermille)
    let last = lastEventMs[EventLevel.critical.rawValue]
    return last == Int.min ? sustained : max(sustained, last + Self.windowMs)
  }

  /// Notes `info`'s full stall at `nowMs`: when it reached the critical threshold. A process that
  /// changed since the last observation, in an earlier instant, may have moved memory out of the
  /// stall and back: the stall is then counted from now, and a direct reclaim under way ends. The
  /// direct-reclaim stall is accumulated (`noteDirectReclaim`).
  mutating func observe(_ info: LmkdMeminfo, nowMs: Int) {
    if processesChanged, nowMs != lastObservationMs {
      (fullStallSinceMs, directReclaim) = (nil, nil)
    }
    let elapsedMs = lastObservationMs == Int.min ? 0 : nowMs - lastObservationMs
    processesChanged = false
    lastObservationMs = nowMs
    refaults.advance(to: nowMs, kbPerSecond: info.refaultKBPerSecond)
    noteDirectReclaim(info, elapsedMs: elapsedMs)
    if !stalls(info, .critical) {
      fullStallSinceMs = nil
    } else if fullStallSinceMs == nil {
      fullStallSinceMs = nowMs
    }
  }

  /// Whether lmkd evaluates at `nowMs`, and with which event (nil: it sleeps). Marks the event
  /// fired and the evaluation made.
  mutating func wakeUp(_ info: LmkdMeminfo, nowMs: Int) -> EventLevel? {
    catchUp(beforeMs: nowMs)
    if killing, nowMs != lastEvaluationMs {
      // The poll after the death came in the kill's instant, and memory was then out of lmkd's
      // range (jetsim asked nothing): that poll began a thrashing window after the kill (lines
      // 2815–2826), then bailed out (no reclaim, no refault since the kill), so no thrashing grows
      // toward a poll of its own. (The counter has stood still since the kill: no refaults out of
      // lmkd's range, so reading it at the kill's instant is right.)
      killing = false
      prevLevel = .none
      beginWindow(fileKB: fileKBOutOfRange, nowMs: lastEvaluationMs, carrying: 0)
      thrashingPollAtMs = nil
      // That cycle chose the polling interval (lines 3108–3113), with no kill under way.
      pollIntervalMs = swapIsLow(info) ? Self.pollShortMs : Self.pollLongMs
    }
    observe(info, nowMs: nowMs)
    var event = dueEvent(info, nowMs: nowMs)
    if event != .none {
      // Every trigger due fires, the medium one with the critical one, and the kernel wakes the
      // critical trigger's reader first (psi.c's `psi_trigger_create` adds each trigger at the
      // head of its list, and `init_psi_monitors` registers critical last, line 3590): the medium
      // event comes second, and is ignored (below).
      lastEventMs[event.rawValue] = nowMs
      if event == .critical, mediumIsDue(info, nowMs: nowMs) {
        lastEventMs[EventLevel.medium.rawValue] = nowMs
      }
      // "Ignore a lower event within the first polling window" (lines 2773–2781): one that comes
      // before lmkd has polled since its last event, which set `prev_level`.
      if event.rawValue < prevLevel.rawValue, nowMs < lastEvaluationMs + pollIntervalMs {
        event = .none
      }
    }
    if event == .none, !killing, !pollDue(info, nowMs: nowMs) {
      // No event, and no poll due that would find anything the last evaluation did not.
      return nil
    }
    // A poll sets `prev_level` back to the lowest level (line 2783).
    prevLevel = event
    lastEvaluationMs = nowMs
    lastEvaluatedInfo = info
    changedSinceEvaluation = false
    return event
  }

  /// lmkd's first poll at or after `timeMs`: it polls every `pollIntervalMs` from its last
  /// evaluation (`mainloop`, lines 3975–3986: `last_poll_tm` + the interval), so a change between
  /// two polls is seen at the next.
  @inline(__always)
  func firstPollMs(atOrAfter timeMs: Int) -> Int {
    let polls = max(1, (timeMs - lastEvaluationMs + pollIntervalMs - 1) / pollIntervalMs)
    return lastEvaluationMs + polls * pollIntervalMs
  }

  /// Whether lmkd still polls at `pollMs`, one of its polls (`firstPollMs`): it stops after the
  /// first poll more than `PSI_WINDOW_SIZE_MS` after the polling began (`call_handler`, lines
  /// 3940–3943, checks after each poll), so the poll after `pollUntilMs` is made too (at +1,100 ms
  /// with 100 ms polls). While the last evaluation found direct reclaim, every poll since read the
  /// same memory and found it too, and each began the window again (line 3103): lmkd polls on.
  @inline(__always)
  func polls(atMs pollMs: Int) -> Bool {
    lastEvaluationReclaimedDirectly || pollMs - pollIntervalMs <= pollUntilMs
  }

  /// Whether `nowMs` is one of lmkd's polls (`firstPollMs`) and it would find what the last
  /// evaluation did not: other memory inside the polling window, the thrashing past a
  /// limit (`thrashingPollAtMs`), or a direct reclaim stuck since (lmkd polls while it lasts).
  @inline(__always)
  private func pollDue(_ info: LmkdMeminfo, nowMs: Int) -> Bool {
    guard lastEvaluationMs != Int.min, nowMs == firstPollMs(atOrAfter: nowMs) else {
      return false
    }
    if polls(atMs: nowMs) && info != lastEvaluatedInfo { return true }
    if let poll = thrashingPollAtMs, poll <= nowMs, polls(atMs: nowMs) { return true }
    return lastEvaluationReclaimedDirectly && !lastEvaluationStuck
      && directReclaimIsStuck(nowMs: nowMs)
  }

  /// Whether `info`'s stall reaches the trigger of `level`.
  @inline(__always)
  func stalls(_ info: LmkdMeminfo, _ level: EventLevel) -> Bool {
    switch level {
    case .none: false
    case .medium:
      parameters.psiPartialStallMs > 0 && info.stallPermille >= parameters.psiPartialStallMs
    case .critical:
      parameters.psiCompleteStallMs > 0 && info.fullStallPermille >= parameters.psiCompleteStallMs
    }
  }

  /// When lmkd next wakes by time alone while the stalls stay at `info`'s: its next PSI event, or
  /// its next poll inside the polling window if a process changed since its last evaluation
  /// (polls that would read the same memory are not scheduled).
  @inline(__always)
  func nextWakeMs(_ info: LmkdMeminfo, nowMs: Int) -> Int? {
    let quietLevel = quiet?.level.rawValue ?? EventLevel.none.rawValue
    var wake: Int? = nil
    if quietLevel < EventLevel.critical.rawValue, let due = criticalDueMs(info, nowMs: nowMs),
      due > nowMs
    {
      wake = due
    }
    if changedSinceEvaluation, lastEvaluationMs != Int.min {
      let poll = firstPollMs(atOrAfter: nowMs + 1)
      if polls(atMs: poll) { wake = min(wake ?? poll, poll) }
    }
    if let stuck = stuckPollMs(nowMs: nowMs) { wake = min(wake ?? stuck, stuck) }
    // While quiet, the polls that read another thrashing are left to `catchUp` with the events.
    if quiet == nil, let poll = thrashingPollAtMs, poll > nowMs { wake = min(wake ?? poll, poll) }
    if quietLevel < EventLevel.medium.rawValue, stalls(info, .medium) {
      let last = lastEventMs[EventLevel.medium.rawValue]
      let due = last == Int.min ? nowMs : last + Self.windowMs
      if due > nowMs { wake = min(wake ?? due, due) }
    }
    return wake
  }

  /// After an evaluation of `info` at `event` that decided `decision` and killed nothing, with
  /// `limitBefore` the thrashing limit it found: whether its repeats can be left to `catchUp`.
  /// They can when the evaluations to come, up to `settlingMs` ahead, decide no lower minimum adj
  /// (`thrashingCannotLower`): the thrashing rises and falls with its windows (and
  /// `checkFilecache` with it; the look-ahead makes those evaluations too), but with memory as it
  /// is it repeats the same windows once they have settled, which takes a few seconds.
  mutating func noteFruitless(
    _ info: LmkdMeminfo, event: EventLevel, decision: Decision?, limitBefore: Int
  ) {
    guard event != .none, leavesOutQuietEvents else { return }
    let settled =
      thrashingLimit == parameters.thrashingLimit && limitBefore == thrashingLimit
      && !killing && stuckPollMs(nowMs: Int.min) == nil
      && thrashingCannotLower(
        minAdj: decision?.minAdj, info, level: event, horizonMs: Self.settlingMs)
    if settled { quiet = (info, event) }
  }

  /// How far ahead `noteFruitless` looks for an evaluation that decides a lower minimum adj.
  static let settlingMs = 30_000

  /// The evaluations lmkd made before `nowMs` at the PSI events and polls `nextWakeMs` left out
  /// (see `quiet`): each decides no lower minimum adj than the last real one did and kills
  /// nothing, and moves the event times, the polling window and the thrashing window on as it
  /// would have. A wake-up ends the quiet spell: something changed, or time alone (the previous
  /// app's expiry) moved a process.
  ///
  /// - Complexity: O(the PSI events left out).
  mutating func catchUp(beforeMs nowMs: Int) {
    guard let (info, _) = quiet else { return }
    quiet = nil
    let changes = (processesChanged, changedSinceEvaluation)
    (processesChanged, changedSinceEvaluation) = (false, false)
    var last = lastEvaluationMs
    while let wake = nextWakeMs(info, nowMs: last), wake < nowMs {
      last = wake
      if let event = wakeUp(info, nowMs: wake) {
        _ = evaluate(info, event: event, nowMs: wake)
      }
    }
    (processesChanged, changedSinceEvaluation) = changes
  }
}
