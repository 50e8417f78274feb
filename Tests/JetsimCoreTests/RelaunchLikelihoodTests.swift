import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// How launchd turns a daemon's times to relaunch into its relaunch likelihood, as xnu-11417's own
/// test of it (tests/vm/posix_spawnattr_set_jetsam_ttr.c) checks `posix_spawnattr_set_jetsam_ttr_np`
/// (libsyscall/wrappers/spawn/posix_spawn.c:2847).
@Suite struct RelaunchLikelihoodTests {
  /// set_high_relaunch_behavior (line 45): 0 to 15 ms.
  @Test func smallTimesAreHigh() {
    #expect(RelaunchLikelihood(timesToRelaunchMs: Array(0..<16)) == .high)
  }

  /// set_medium_relaunch_behavior (line 74): 5,000 to 5,015 ms; 5,000 itself is high, the rest
  /// medium.
  @Test func timesJustAboveFiveSecondsAreMedium() {
    #expect(RelaunchLikelihood(timesToRelaunchMs: (0..<16).map { 5_000 + $0 }) == .medium)
  }

  /// set_low_relaunch_behavior (line 104): 10,000 to 10,015 ms.
  @Test func timesAboveTenSecondsAreLow() {
    #expect(RelaunchLikelihood(timesToRelaunchMs: (0..<16).map { 10_000 + $0 }) == .low)
  }

  /// set_high_relaunch_with_mixed_histogram (line 140): eight small times, five just above 5 s,
  /// three above 10 s.
  @Test func theCommonestBucketWins() {
    let times = (0..<16).map { i in i % 2 == 0 ? i : (i % 3 == 0 ? 10_000 + i : 5_000 + i) }
    #expect(RelaunchLikelihood(timesToRelaunchMs: times) == .high)
  }

  /// A tie goes to the bucket that reached the count first, in the order of the times.
  @Test func aTieGoesToTheBucketThatGotThereFirst() {
    #expect(RelaunchLikelihood(timesToRelaunchMs: [6_000, 1_000]) == .medium)
    #expect(RelaunchLikelihood(timesToRelaunchMs: [1_000, 6_000]) == .high)
    #expect(RelaunchLikelihood(timesToRelaunchMs: []) == nil)
  }

  /// A system process whose profile gives a relaunch delay and no likelihood gets launchd's, and
  /// with it its aging time; one that gives both keeps its own.
  @Test func aProfileWithADelayGetsLaunchdsLikelihood() {
    let quick = SystemProcess(
      name: "d", kind: .idleDaemon, footprintKB: 1024, relaunchDelayMs: 1_000)
    #expect(quick.relaunchLikelihood == .high && quick.agingTimeMs == 10_000)
    let slow = SystemProcess(
      name: "d", kind: .idleDaemon, footprintKB: 1024, relaunchDelayMs: 7_000)
    #expect(slow.relaunchLikelihood == .medium && slow.agingTimeMs == 5_000)
    let given = SystemProcess(
      name: "d", kind: .idleDaemon, footprintKB: 1024, relaunchDelayMs: 1_000,
      relaunchLikelihood: .low)
    #expect(given.relaunchLikelihood == .low)
    let never = SystemProcess(name: "d", kind: .idleDaemon, footprintKB: 1024)
    #expect(never.relaunchLikelihood == .low)
  }
}
