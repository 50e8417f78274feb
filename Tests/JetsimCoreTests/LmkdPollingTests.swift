import JetsimTestSupport
import Testing

@testable import JetsimCore

/// When lmkd evaluates, against lmkd.cpp at AOSP platform/system/memory/lmkd
/// 767ae2336a12f0c474b19dbd86d5bd5164dbf912 (line numbers are that file's), on `LmkdPressure`
/// alone, with readings made by hand: free pages above the high watermark and no refaults, so no
/// evaluation kills, and only the stalls decide which PSI events come.
///
/// - The polling window: an event starts polling (line 3104), every 100 ms with swap not low
///   (line 3113); `call_handler` stops it after a poll made more than `PSI_WINDOW_SIZE_MS` after
///   it began (lines 3940–3943), so the poll at +1,100 ms is made, and none after it; a poll that
///   finds direct reclaim begins it again (line 3103).
/// - `prev_level` (lines 2773–2784): an event below the last one evaluated is ignored until lmkd
///   has polled; and where both triggers fire at once, the critical one is read first (psi.c adds
///   each trigger at the head of its list; `init_psi_monitors` registers critical last, line
///   3590), so the medium one is spent with it.
@Suite struct LmkdPollingTests {
  /// Free pages at 100 MB, above high; a stall of `stall` and a full stall of `fullStall` ‰.
  static func reading(stall: Int, fullStall: Int = 0, fileMB: Int = 500) -> LmkdMeminfo {
    LmkdMeminfo(
      freeKB: mb(100), fileKB: mb(fileMB), refaultKBPerSecond: 0, stallPermille: stall,
      fullStallPermille: fullStall)
  }

  /// `LmkdPressureTests`'s watermarks: min 40, low 60, high 80 MB.
  static func pressure() -> LmkdPressure {
    let watermarks = LmkdPressureTests.watermarks
    var parameters = LmkdPolicy.Parameters()
    parameters.watermarks = watermarks
    return LmkdPressure(parameters: parameters, watermarks: watermarks)
  }

  /// Wakes `pressure` at `nowMs` with `info` and makes the evaluation it asks for: its event, or
  /// nil if lmkd sleeps through that instant.
  static func wake(_ pressure: inout LmkdPressure, _ info: LmkdMeminfo, atMs nowMs: Int)
    -> LmkdPressure.EventLevel?
  {
    guard let event = pressure.wakeUp(info, nowMs: nowMs) else { return nil }
    _ = pressure.evaluate(info, event: event, nowMs: nowMs)
    return event
  }

  /// A medium event at 0 ms; then, with a process changing memory before each poll, lmkd polls at
  /// 100, 200, …, 1,000 and 1,100 ms, and not at 1,200 ms (the window of 1 s has passed at the
  /// 1,100 ms poll). Each reading differs from the last (its file cache), and its stall is under
  /// the medium threshold, so no event comes.
  @Test func pollingEndsAfterTheFirstPollPastTheWindow() {
    var pressure = Self.pressure()
    #expect(Self.wake(&pressure, Self.reading(stall: 100), atMs: 0) == .medium)
    var polls: [Int] = []
    for (step, changeMs) in stride(from: 50, through: 1_250, by: 100).enumerated() {
      pressure.changedSinceEvaluation = true
      let info = Self.reading(stall: 10, fileMB: 400 + step)
      guard let pollMs = pressure.nextWakeMs(info, nowMs: changeMs) else { continue }
      if Self.wake(&pressure, info, atMs: pollMs) == LmkdPressure.EventLevel.none {
        polls.append(pollMs)
      }
    }
    #expect(polls == Array(stride(from: 100, through: 1_100, by: 100)))
  }

  /// With swap low lmkd polls every 10 ms (line 3110): the last poll is at +1,010 ms.
  @Test func withSwapLowTheLastPollIsTenMillisecondsPastTheWindow() {
    var pressure = Self.pressure()
    var info = Self.reading(stall: 100)
    (info.swapTotalKB, info.swapFreeKB) = (mb(100), 0)
    #expect(Self.wake(&pressure, info, atMs: 0) == .medium)
    pressure.changedSinceEvaluation = true
    info.stallPermille = 10
    #expect(pressure.nextWakeMs(info, nowMs: 1_001) == 1_010)
    _ = Self.wake(&pressure, info, atMs: 1_010)
    pressure.changedSinceEvaluation = true
    info.fileKB -= 1
    #expect(pressure.nextWakeMs(info, nowMs: 1_011) == nil)
  }

  /// While direct reclaim lasts (free pages below the min watermark, 40 MB) lmkd polls on: each
  /// poll finds it and begins the window again (line 3103), so a process change 5 s after the
  /// event is read at the next poll, 5,100 ms. With kswapd reclaiming only (free pages between min
  /// and low), the window ends as usual, and the change waits for the next event.
  @Test(arguments: [(30, 5_100), (50, nil)] as [(Int, Int?)])
  func directReclaimKeepsLmkdPolling(freeMB: Int, pollMs: Int?) {
    var pressure = Self.pressure()
    var info = Self.reading(stall: 100)
    info.freeKB = mb(freeMB)
    #expect(Self.wake(&pressure, info, atMs: 0) == .medium)
    pressure.changedSinceEvaluation = true
    (info.stallPermille, info.fileKB) = (10, info.fileKB - 1)
    #expect(pressure.nextWakeMs(info, nowMs: 5_050) == pollMs)
  }

  /// A full stall of 737 ‰ accumulates the 700 ms of the critical trigger in 949 ms: a medium
  /// event at 0, a critical one at 949 ms. The medium trigger fires again at 1,000 ms, before
  /// lmkd's first poll after the critical event (1,049 ms): it is ignored, and it has fired (the
  /// next is due at 2,000 ms). Then the full stall ends (a process changed): lmkd polls at
  /// 1,049 ms, and the medium event of 2,000 ms is evaluated.
  @Test func aLowerEventBeforeTheNextPollIsIgnored() {
    var pressure = Self.pressure()
    let stalled = Self.reading(stall: 800, fullStall: 737)
    #expect(Self.wake(&pressure, stalled, atMs: 0) == .medium)
    #expect(pressure.nextWakeMs(stalled, nowMs: 0) == 949)
    #expect(Self.wake(&pressure, stalled, atMs: 949) == .critical)
    #expect(pressure.nextWakeMs(stalled, nowMs: 949) == 1_000)
    #expect(Self.wake(&pressure, stalled, atMs: 1_000) == nil)
    pressure.changedSinceEvaluation = true
    let partly = Self.reading(stall: 800)
    #expect(pressure.nextWakeMs(partly, nowMs: 1_000) == 1_049)
    #expect(Self.wake(&pressure, partly, atMs: 1_049) == LmkdPressure.EventLevel.none)
    #expect(pressure.nextWakeMs(partly, nowMs: 1_049) == 2_000)
    #expect(Self.wake(&pressure, partly, atMs: 2_000) == .medium)
  }

  /// A full stall of 700 ‰ reaches the critical trigger at 1,000 ms, when the medium trigger fires
  /// again too: lmkd evaluates the critical event, and the medium one, read after it, is spent.
  /// The next medium event is at 2,000 ms, with the next critical one; none comes between.
  @Test func bothTriggersAtOnceSpendTheMediumEvent() {
    var pressure = Self.pressure()
    let info = Self.reading(stall: 800, fullStall: 700)
    #expect(Self.wake(&pressure, info, atMs: 0) == .medium)
    #expect(Self.wake(&pressure, info, atMs: 1_000) == .critical)
    #expect(pressure.nextWakeMs(info, nowMs: 1_000) == 2_000)
    #expect(Self.wake(&pressure, info, atMs: 1_500) == nil)
  }
}
