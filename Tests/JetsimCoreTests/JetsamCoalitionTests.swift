import JetsimTestSupport
import Testing

@testable import JetsimCore

/// The FOREGROUND band sorted by jetsam coalition, as xnu-11417.101.15 (commit
/// e3723e1f17661b24996789d8afc084c0c3303b26) does it: `memorystatus_sort_bucket_locked`
/// (bsd/kern/kern_memorystatus.c:1721) and `memorystatus_sort_by_largest_coalition_locked`
/// (:9235), at the first priority kill of a pass (`memorystatus_do_priority_kill`, :4617–4619).
@Suite struct JetsamCoalitionTests {
  /// One system process of the test: its name, footprint, coalition and role.
  struct Member {
    var name: String
    var footprintMB: Int
    var coalition: String?
    var role: CoalitionRole?
  }

  /// The kill order when the device must free everything: `members`, in that list order, all in
  /// FOREGROUND (band 100) at time 0, beside the processes of `idle` in IDLE.
  func killOrder(_ members: [Member], idle: [Member] = []) throws -> [String] {
    var device = DeviceProfile(name: "4 GB", memoryKB: mb(4096), reservedKB: mb(1000))
    device.systemProcesses = (members + idle).map {
      SystemProcess(
        name: $0.name, kind: .activeDaemon, footprintKB: mb($0.footprintMB),
        coalition: $0.coalition, coalitionRole: $0.role)
    }
    var scenario = Scenario(
      name: "coalitions", device: device, apps: [Fixture.app("app", resident: 10)], actions: [],
      policy: .jetsam)
    scenario.snapshot = Snapshot(
      idle.map { Snapshot.Entry(process: $0.name, state: .background, band: 0) }
        + members.map { Snapshot.Entry(process: $0.name, state: .background, band: 100) })
    var simulation = Simulation(
      device: scenario.device, apps: scenario.apps, policy: JetsamPolicy(),
      observer: DiscardingObserver(), seed: 1, snapshot: scenario.snapshot)
    try simulation.placeForReplay()
    let names = scenario.processNames
    return simulation.evict(freeingKB: mb(4096)).map { names[$0] }.filter { $0 != "app" }
  }

  /// memorystatus_sort_test.c:114–142 (`memorystatus_sort_coalition`, disabled in the kernel's
  /// suite, rdar://133461319): four members of one coalition, equal footprints, launched leader,
  /// extension, undefined, XPC service; the kernel expects the kill order undefined, extension, XPC,
  /// leader (:266–278), which `memorystatus_verify_sort_order` (:6081) checks.
  @Test func memorystatusSortCoalitionKillsUndefinedThenExtensionsThenXPCThenTheLeader() throws {
    let order = try killOrder([
      Member(name: "leader", footprintMB: 20),
      Member(name: "ext", footprintMB: 20, coalition: "leader", role: .extension),
      Member(name: "undef", footprintMB: 20, coalition: "leader", role: .undefined),
      Member(name: "xpc", footprintMB: 20, coalition: "leader", role: .xpc),
    ])
    #expect(order == ["undef", "ext", "xpc", "leader"])
  }

  /// `memorystatus_sort_by_largest_coalition_locked`: coalitions rank by the footprint of all their
  /// members, in any band (`coalition_get_page_count`, osfmk/kern/coalition.c:2523), the largest
  /// first; inside a role the largest first (`dflt_cmp`, :2589); members whose leader is not in the
  /// band are not moved and die after every sorted coalition, whatever their size.
  @Test func coalitionsRankByTheirWholeFootprintAndTheLeaderlessComeLast() throws {
    // A: 300 + 50 + 80 + 120 in FOREGROUND and 400 in IDLE = 950 MB; B: 200 + 10 = 210 MB.
    // "orphan" (500 MB) belongs to a coalition without a leader.
    let order = try killOrder(
      [
        Member(name: "A", footprintMB: 300),
        Member(name: "B", footprintMB: 200),
        Member(name: "a1", footprintMB: 50, coalition: "A", role: .xpc),
        Member(name: "ae", footprintMB: 80, coalition: "A", role: .extension),
        Member(name: "orphan", footprintMB: 500, coalition: "gone", role: .undefined),
        Member(name: "a2", footprintMB: 120, coalition: "A", role: .xpc),
        Member(name: "bu", footprintMB: 10, coalition: "B", role: .undefined),
      ], idle: [Member(name: "a3", footprintMB: 400, coalition: "A", role: .xpc)])
    #expect(order == ["a3", "ae", "a2", "a1", "A", "bu", "B", "orphan"])
  }

  /// B is the larger coalition only with its member in IDLE counted: the rank is the whole
  /// coalition's, not the band's share of it.
  @Test func aCoalitionsMembersInOtherBandsCountInItsRank() throws {
    let order = try killOrder(
      [
        Member(name: "A", footprintMB: 300),
        Member(name: "B", footprintMB: 200),
      ], idle: [Member(name: "b-idle", footprintMB: 150, coalition: "B", role: .xpc)])
    // At the first kill (b-idle's, in IDLE) B holds 350 MB against A's 300: B first.
    #expect(order == ["b-idle", "B", "A"])
  }

  /// The scan collects at most ten leaders, in list order (`MAX_COAL_LEADERS`,
  /// kern_memorystatus.c:9238, and the `break` at :9284–9290): the eleventh and later stay behind
  /// the sorted ones, in list order, however large.
  @Test func onlyTheFirstTenLeadersAreSorted() throws {
    let small = (1...10).map { Member(name: "p\($0)", footprintMB: 10 + $0) }
    let order = try killOrder(small + [Member(name: "big", footprintMB: 400)])
    #expect(order == (1...10).reversed().map { "p\($0)" } + ["big"])
  }

  /// With no leader in the band the kernel sorts it process by process, the largest first
  /// (`memorystatus_sort_by_largest_process_locked`, :1796), equals in their order before.
  @Test func aBandWithoutALeaderIsSortedProcessByProcess() throws {
    let order = try killOrder([
      Member(name: "u1", footprintMB: 30, coalition: "none", role: .undefined),
      Member(name: "u2", footprintMB: 90, coalition: "none", role: .xpc),
      Member(name: "u3", footprintMB: 30, coalition: "none", role: .extension),
      Member(name: "u4", footprintMB: 60, coalition: "none", role: .undefined),
    ])
    #expect(order == ["u2", "u4", "u1", "u3"])
  }

  /// The band is sorted at the first priority kill of a pass, not kept sorted: a process that
  /// enters FOREGROUND after the sort goes to the tail (`memstat_update_priority_locked`,
  /// kern_memorystatus.c:2918–2922), however large, until a new pass sorts again (the jetsam
  /// thread's next wake-up sets `sort_flag`, :4775).
  @Test(arguments: [false, true])
  func aProcessEnteringAfterTheSortWaitsAtTheTailForTheNextPass(newPass: Bool) {
    var device = Fixture.device
    device.systemProcesses = ["mid", "big"].map {
      SystemProcess(name: $0, kind: .idleDaemon, footprintKB: mb(10))
    }
    var harness = PolicyHarness(
      device: device,
      [
        .init(id: "small", state: .active, footprintMB: 150),
        .init(id: "other", state: .suspended, footprintMB: 10),
        .init(id: "filler", state: .suspended, footprintMB: 380),
        .init(id: "filler2", state: .suspended, footprintMB: 380),
      ])
    harness.addIdleSystemProcess(footprintMB: 50)
    harness.addIdleSystemProcess(footprintMB: 800)
    harness.apps[5].state = .notRunning
    harness.apps[5].footprintKB = 0
    var policy = harness.started(JetsamPolicy())
    var kills: [Int] = []
    func kill() {
      guard let victim = policy.nextEviction(harness.view(seed: 1))?.app else { return }
      kills.append(victim)
      harness.apps[victim].state = .notRunning
      harness.apps[victim].footprintKB = 0
      policy.appDidChange(victim, harness.apps[victim], nowMs: harness.nowMs)
    }
    // 30 MB available, under the critical level (100 MB), no app over its soft limit (500 MB): the
    // pass's first kill, of "other" at the head of IDLE, sorts FOREGROUND ("small" alone).
    kill()
    // "big" (800 MB) then enters FOREGROUND.
    harness.apps[5].state = .background
    harness.apps[5].footprintKB = mb(800)
    harness.apps[5].snapshotBand = 100
    policy.appDidChange(5, harness.apps[5], nowMs: harness.nowMs)
    // A new pass (the thread found nothing to do, then woke again) sorts again.
    if newPass { policy.foregroundSortPending = true }
    while kills.count < 6, policy.nextEviction(harness.view(seed: 1)) != nil { kill() }
    // IDLE's fillers and "mid" die, then FOREGROUND's head: "small" in the same pass (the entrant
    // at the tail), "big" in a new one (the largest first); either kill ends the shortage.
    #expect(kills == (newPass ? [1, 2, 3, 4, 5] : [1, 2, 3, 4, 0]))
  }

  /// On a device with app swap, a low-swap kill takes the head of the bands below BACKGROUND among
  /// the processes that donate their pages — the members of a swappable coalition, swapped out or
  /// not — and skips the rest (`MEMORYSTATUS_KILL_SUSPENDED_SWAPPABLE`, kern_memorystatus.c:4681,
  /// `task_donates_own_pages` at :6479; `coalition_mark_swappable`, osfmk/kern/coalition.c:2805).
  @Test func lowSwapKillsTakeAppCoalitionsMembersSwappedOrNot() {
    var device = Fixture.device
    device.appSwap = DeviceProfile.AppSwap(budgetKB: mb(100))
    device.systemProcesses = [
      SystemProcess(name: "daemon", kind: .idleDaemon, footprintKB: mb(10)),
      SystemProcess(name: "a-xpc", kind: .idleDaemon, footprintKB: mb(10), coalition: "a"),
    ]
    var harness = PolicyHarness(
      device: device,
      [
        .init(id: "a", state: .suspended, footprintMB: 300, enteredMs: 4_000),
        .init(id: "b", state: .suspended, footprintMB: 300, enteredMs: 3_000),
        .init(id: "screen", state: .active, footprintMB: 300),
      ])
    harness.apps[0].isSwapped = true
    harness.apps[0].physicalKB = 0
    harness.addIdleSystemProcess(footprintMB: 10, enteredMs: 1_000)
    harness.addIdleSystemProcess(footprintMB: 10, enteredMs: 2_000)
    // 80 MB available, below the pressure level (200 MB); b waits in memory for swap. The daemon
    // heads IDLE but donates nothing; a's XPC service does, then b, not swapped, before a; then
    // available memory (390 MB) is above the pressure level.
    #expect(harness.decisions(JetsamPolicy()) == ["kill a-xpc (low-swap)", "kill b (low-swap)"])
  }
}
