/// DIRECT_RECL_STUCK (lmkd.cpp `__mp_event_psi`, lines 3023–3027, at AOSP
/// platform/system/memory/lmkd 767ae23): an evaluation that finds allocations in direct reclaim
/// for longer than `direct_reclaim_threshold_ms` kills at adj 0 and above.
///
/// lmkd learns of direct reclaim from the kernel's memevents (`memevent_listener_notification`,
/// lines 3467–3473: `MEM_EVENT_DIRECT_RECLAIM_BEGIN` sets `direct_reclaim_start_tm`,
/// `MEM_EVENT_DIRECT_RECLAIM_END` clears it) and measures its duration from that start
/// (line 2849); without memevents the threshold is forced to 0 (lines 1582, 1636). jetsim's memory
/// has no reclaim of its own, only the stall rule: below the min watermark allocations spend
/// `ZoneWatermarks.directReclaimStallPermille` of the time in direct reclaim. The duration is that
/// stall accumulated since the readings fell below min (`directReclaim`): at no free page (a stall
/// of all the time) reclaim never ends and its duration is the time elapsed; with a smaller stall
/// it is the time spent reclaiming, which bounds the length of the reclaim lmkd would time (an
/// estimate, docs/policies.md). A reading back at or above min ends it (END), as does a change of
/// the processes lmkd did not see.
extension LmkdPressure {
  /// Notes the direct-reclaim stall of `info`, `elapsedMs` after the previous observation. With
  /// the threshold at 0 (the default) lmkd never reads the duration, so none is kept: no work at
  /// each wake-up for a reason that is off.
  mutating func noteDirectReclaim(_ info: LmkdMeminfo, elapsedMs: Int) {
    guard parameters.directReclaimThresholdMs > 0 else { return }
    let stall = watermarks.directReclaimStallPermille(freeKB: info.freeKB)
    guard stall > 0 else {
      directReclaim = nil
      return
    }
    let stalled = directReclaim.map { $0.stalledPermilleMs + elapsedMs * $0.stallPermille } ?? 0
    directReclaim = (stalled, stall)
  }

  /// How long the direct reclaim under way has lasted at `nowMs`, in ms
  /// (`direct_reclaim_duration_ms`); nil when there is none, or the threshold is 0.
  @inline(__always)
  func directReclaimMs(nowMs: Int) -> Int? {
    guard let reclaim = directReclaim else { return nil }
    let elapsed = max(0, nowMs - lastObservationMs)
    return (reclaim.stalledPermilleMs + elapsed * reclaim.stallPermille) / 1000
  }

  /// Whether direct reclaim has lasted longer than `direct_reclaim_threshold_ms` at `nowMs`
  /// (0: never).
  @inline(__always)
  func directReclaimIsStuck(nowMs: Int) -> Bool {
    let threshold = parameters.directReclaimThresholdMs
    return threshold > 0 && (directReclaimMs(nowMs: nowMs) ?? 0) > threshold
  }

  /// The first millisecond at which the direct reclaim under way, going on as it is, has lasted
  /// longer than the threshold (the last observation if it already has); nil when the threshold
  /// is 0 or there is no direct reclaim.
  @inline(__always)
  func directReclaimStuckAtMs() -> Int? {
    let threshold = parameters.directReclaimThresholdMs
    guard threshold > 0, let reclaim = directReclaim else { return nil }
    let missing = (threshold + 1) * 1000 - reclaim.stalledPermilleMs
    guard missing > 0 else { return lastObservationMs }
    return lastObservationMs + (missing + reclaim.stallPermille - 1) / reclaim.stallPermille
  }

  /// The poll, after `nowMs`, at which lmkd finds the direct reclaim under way stuck if memory
  /// stays as it is: the first poll of the last evaluation's interval at or after the moment it
  /// becomes stuck. nil when the last evaluation found no direct reclaim (lmkd is not polling for
  /// it) or already found it stuck.
  @inline(__always)
  func stuckPollMs(nowMs: Int) -> Int? {
    guard lastEvaluationReclaimedDirectly, !lastEvaluationStuck, lastEvaluationMs != Int.min,
      let stuck = directReclaimStuckAtMs()
    else { return nil }
    return firstPollMs(atOrAfter: max(stuck, nowMs + 1))
  }
}
