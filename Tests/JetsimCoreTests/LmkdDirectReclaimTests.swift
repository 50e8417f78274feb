import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// DIRECT_RECL_STUCK, against lmkd.cpp at AOSP platform/system/memory/lmkd
/// 767ae2336a12f0c474b19dbd86d5bd5164dbf912 (line numbers are that file's): `__mp_event_psi`
/// kills at adj 0 and above once `reclaim == DIRECT_RECLAIM` and `direct_reclaim_duration_ms >
/// direct_reclaim_threshold_ms` (lines 3023–3027), a branch after the thrashing ones and before
/// LOW_MEM (line 3045); the threshold is `ro.lmk.direct_reclaim_threshold_ms`, 0 by default
/// (`DEF_DIRECT_RECL_THRESH_MS`, line 166; `update_props`, line 4168), and 0 turns it off.
///
/// The device is `LmkdPressureTests`'s (watermarks min 40, low 60, high 80 MB; free target at
/// high), with available memory 200 MB and a file working set of 170 MB: the cache holds 120 MB,
/// 50 MB are read again each second, so free pages are 30 MB, below min (direct reclaim), and the
/// thrashing is 41 %, under the limit. The direct-reclaim stall is (40 − 30) / 40 = 250 ‰ of the
/// time: direct reclaim lasts 250 ms of every second (docs/policies.md). Nothing is cached: LOW_MEM
/// (adj 701 and above) has no victim.
@Suite struct LmkdDirectReclaimTests {
  /// F on screen (0), P perceptible (200), V the previous app (700): no cached process.
  static let cast = Array(LmkdPressureTests.cast().prefix(4))

  static func harness(availableMB: Int = 200) -> PolicyHarness {
    LmkdPressureTests.harness(availableMB: availableMB, workingSetMB: 170, cast)
  }

  static func policy(thresholdMs: Int) -> LmkdPolicy {
    LmkdPressureTests.policy { $0.directReclaimThresholdMs = thresholdMs }
  }

  /// The first kill lmkd makes from 100 s on, waking when it asks to (`reconsiderAtMs`, as the
  /// simulation does), for at most `limitMs`: its time after 100 s and what it says. (V, suspended
  /// at 80 s, is the previous app until 140 s, when it expires to adj 900 and LOW_MEM takes it.)
  static func firstKill(_ harness: PolicyHarness, thresholdMs: Int, limitMs: Int = 30_000) -> (
    afterMs: Int, kill: String
  )? {
    var harness = harness
    var policy = harness.started(policy(thresholdMs: thresholdMs))
    let start = harness.nowMs
    while harness.nowMs - start <= limitMs {
      if let eviction = policy.nextEviction(harness.view(seed: 1)) {
        let info = eviction.lmkd.map { " min \($0.minScoreAdj)" } ?? ""
        return (
          harness.nowMs - start, "\(harness.profiles[eviction.app].id) \(eviction.reason)\(info)"
        )
      }
      guard let wake = policy.reconsiderAtMs(harness.view(seed: 1)), wake > harness.nowMs
      else { return nil }
      harness.nowMs = wake
    }
    return nil
  }

  /// Below min with nothing cached: with the threshold off (AOSP's default) lmkd kills no one in
  /// the 30 s looked at (V expires to 900 at 140 s, then LOW_MEM takes it);
  /// with 500 ms, the direct reclaim has lasted longer once 501 ms of stall have accumulated,
  /// 2,004 ms in (501 / 0.25); lmkd polls every 100 ms while direct reclaim lasts (line 3103),
  /// from its last evaluation, the PSI event of 2,000 ms: the poll of 2,100 ms kills V, the
  /// highest adj, at minimum adj 0. With 1,000 ms, the poll of 4,100 ms.
  @Test(arguments: [(0, nil), (500, 2_100), (1_000, 4_100)] as [(Int, Int?)])
  func stuckDirectReclaimKillsAtAdjZeroAfterTheThreshold(thresholdMs: Int, afterMs: Int?) {
    let kill = Self.firstKill(Self.harness(), thresholdMs: thresholdMs)
    #expect(kill?.afterMs == afterMs)
    if afterMs != nil { #expect(kill?.kill == "V lmk-direct-recl-stuck min 0") }
  }

  /// Free pages between min and low (available 220 MB: cache 140 MB, refaults 30 MB/s, free
  /// 50 MB): kswapd reclaims, allocations do not (`get_lowest_watermark`, line 2651; reclaim
  /// state, lines 2845–2853): no direct reclaim to be stuck in, whatever the threshold.
  @Test func aboveTheMinWatermarkNothingIsStuck() {
    #expect(Self.firstKill(Self.harness(availableMB: 220), thresholdMs: 500) == nil)
  }

  /// The duration is the direct-reclaim stall accumulated (docs/policies.md): at 250 ‰, 2 s of
  /// reclaim-below-min count 500 ms; a reading back above min ends the reclaim.
  @Test func theDurationIsTheStallAccumulated() {
    var harness = Self.harness()
    var policy = harness.started(Self.policy(thresholdMs: 500))
    _ = policy.nextEviction(harness.view(seed: 1))
    harness.nowMs += 2_000
    _ = policy.nextEviction(harness.view(seed: 1))
    #expect(policy.directReclaimMs(nowMs: harness.nowMs) == 500)
    #expect(policy.directReclaimMs(nowMs: harness.nowMs + 4) == 501)
  }

  /// The independent rule (`PolicyRule.directReclaimStuckProblem`) the invariant sweep holds every
  /// `lmk-direct-recl-stuck` kill to: it refuses one with the threshold off, one above min, and one
  /// before free memory has been below min for longer than the threshold.
  @Test func theRuleRefusesAStuckKillItsConditionsDoNotAllow() {
    let off = DeviceReplay(scenario: InvariantTests.scenario(seed: 0, policy: "lmkd"))
    #expect(PolicyRule.directReclaimStuckProblem(off, freeKB: 0, nowMs: 10_000) != nil)
    var on = DeviceReplay(scenario: InvariantTests.scenario(seed: 2, policy: "lmkd"))
    #expect(on.lmkd.directReclaimThresholdMs == 300)
    on.lmkdDirectReclaimSinceMs = 1_000
    #expect(PolicyRule.directReclaimStuckProblem(on, freeKB: 0, nowMs: 1_300) != nil)
    #expect(PolicyRule.directReclaimStuckProblem(on, freeKB: 0, nowMs: 1_301) == nil)
    let min = PolicyRule.lmkdMemory(on, availableKB: 0).watermarks.minKB
    #expect(PolicyRule.directReclaimStuckProblem(on, freeKB: min, nowMs: 1_301) != nil)
  }
}
