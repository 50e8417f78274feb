extension LmkdPressure {
  /// lmkd's reclaim state, from the watermarks (`enum reclaim_state`): allocations reclaim directly
  /// below the min watermark, kswapd reclaims below the low one.
  package enum Reclaim: Sendable {
    case none
    case kswapd
    case direct
  }

  /// One evaluation of `__mp_event_psi` with `info` and `event`: the kill reason and
  /// its minimum adj, or nil for no kill. The caller reports a kill with `noteKill`, or no kill
  /// with `noteFruitless`.
  ///
  /// - Complexity: O(1).
  mutating func evaluate(_ info: LmkdMeminfo, event: EventLevel, nowMs: Int) -> Decision? {
    defer { thrashingPollAtMs = thrashingPollMs(info) }
    // "Reset states after process got killed" (line 2815): a thrashing window begins.
    let cycleAfterKill = killing
    killing = false
    if cycleAfterKill { beginWindow(fileKB: info.fileKB, nowMs: nowMs, carrying: 0) }
    let swapIsLow = swapIsLow(info)
    let wmark = watermarks.lowestBreached(freeKB: info.freeKB)
    let reclaim: Reclaim = wmark == .min ? .direct : wmark == .low ? .kswapd : .none
    lastEvaluationReclaimedDirectly = reclaim == .direct
    lastEvaluationStuck = reclaim == .direct && directReclaimIsStuck(nowMs: nowMs)
    pollIntervalMs = swapIsLow ? Self.pollShortMs : Self.pollLongMs
    if event != .none || reclaim == .direct { pollUntilMs = nowMs + Self.windowMs }
    // Not reclaiming and no refault since the last evaluation that went on: "bail out early"
    // (lines 2855–2862). The cycle after a kill comes in the kill's instant in jetsim; on a device
    // the death takes a little time, and refaults under way have moved the counter by then.
    let counter = refaults.at(nowMs)
    let refaulted =
      counter != passedRefaultsMilliKB || (cycleAfterKill && refaults.kbPerSecond > 0)
    guard reclaim != .none || refaulted else { return nil }
    passedRefaultsMilliKB = counter
    let thrashing = readThrashing(info, nowMs: nowMs)
    var decision = cascade(
      info, thrashing: thrashing, wmark: wmark, reclaim: reclaim, swapIsLow: swapIsLow,
      event: event, cycleAfterKill: cycleAfterKill)
    decision?.thrashingPercent = thrashing
    // "Allow killing perceptible apps if the system is stalled" (line 3069).
    if decision != nil, info.fullStallPermille / 10 > parameters.stallLimitCritical {
      decision?.minAdj = 0
    }
    return decision
  }

  /// Whether free swap is below `swap_free_low_percentage` of its size (lines 2827–2829).
  @inline(__always)
  func swapIsLow(_ info: LmkdMeminfo) -> Bool {
    parameters.swapFreeLowPercentage > 0
      && info.swapFreeKB < info.swapTotalKB * parameters.swapFreeLowPercentage / 100
  }

  /// The cascade of `__mp_event_psi` (lines 2951–3051), each branch with its reason and minimum
  /// adj; the first that holds decides. DIRECT_RECL_STUCK (lines 3023–3027) keeps the minimum adj
  /// at 0, where `min_score_adj` starts.
  private mutating func cascade(
    _ info: LmkdMeminfo, thrashing: Int, wmark: ZoneWatermarks.Level, reclaim: Reclaim,
    swapIsLow: Bool, event: EventLevel, cycleAfterKill: Bool
  ) -> Decision? {
    let critical = parameters.thrashingLimitCritical
    let spareable = Self.perceptibleAdj + 1
    // Perceptible apps are spared unless below min or thrashing critically (lines 2977, 2988).
    let swapMinAdj = wmark > .min && thrashing < critical ? spareable : 0
    let thrashingMinAdj = thrashing < critical ? spareable : 0
    if cycleAfterKill && wmark < .low {
      return Decision(
        reason: .lmkPressureAfterKill, minAdj: parameters.pressureAfterKillMinScore,
        cutsThrashingLimit: false)
    }
    if event == .critical {
      return Decision(reason: .lmkNotResponding, minAdj: 0, cutsThrashingLimit: false)
    }
    if swapIsLow && thrashing > parameters.thrashingLimit {
      checkFilecache = true
      return Decision(
        reason: .lmkLowSwapAndThrashing, minAdj: swapMinAdj, cutsThrashingLimit: false)
    }
    if swapIsLow && wmark < .high {
      return Decision(reason: .lmkLowMemAndSwap, minAdj: swapMinAdj, cutsThrashingLimit: false)
    }
    if wmark < .high && parameters.swapUtilMax < 100
      && info.swapUtilizationPercent > parameters.swapUtilMax
    {
      return Decision(reason: .lmkLowMemAndSwapUtil, minAdj: 0, cutsThrashingLimit: false)
    }
    if (wmark < .high || reclaim == .direct) && thrashing > thrashingLimit {
      checkFilecache = true
      let reason: KillReason = wmark < .high ? .lmkLowMemAndThrashing : .lmkDirectReclAndThrashing
      return Decision(reason: reason, minAdj: thrashingMinAdj, cutsThrashingLimit: true)
    }
    if lastEvaluationStuck {
      return Decision(reason: .lmkDirectReclStuck, minAdj: 0, cutsThrashingLimit: false)
    }
    if checkFilecache {
      if info.fileKB < parameters.filecacheMinKB {
        return Decision(
          reason: .lmkLowFilecacheAfterThrashing, minAdj: spareable, cutsThrashingLimit: false)
      }
      checkFilecache = false
    }
    if wmark < .high {
      return Decision(
        reason: .lmkLowMem, minAdj: parameters.lowmemMinOomScore, cutsThrashingLimit: false)
    }
    return nil
  }

  /// After an evaluation that decided `decision` and killed a victim: the kill starts the short
  /// polling and, for the thrashing reasons, cuts the thrashing limit by `thrashing_limit_decay`
  /// percent (line 3084).
  mutating func noteKill(_ decision: Decision, nowMs: Int) {
    killing = true
    // The cycle after the kill reads memory anew: the poll its reading would have set is gone.
    thrashingPollAtMs = nil
    pollUntilMs = nowMs + Self.windowMs
    pollIntervalMs = Self.pollShortMs
    if decision.cutsThrashingLimit {
      thrashingLimit = thrashingLimit * (100 - parameters.thrashingLimitDecay) / 100
    }
  }
}
