import JetsimTestSupport
import Testing

@testable import JetsimCore

/// XNU's freezer under `--policy jetsam`, rule by rule, held to xnu-11417.101.15 (commit
/// e3723e1f17661b24996789d8afc084c0c3303b26): bsd/kern/kern_memorystatus_freeze.c (F),
/// kern_memorystatus_policy.c (P), kern_memorystatus.c (M) and the kernel's own test
/// tests/vm/memorystatus_freeze_test.c (T). Most of the rules have no test of the kernel's (the
/// trigger, the budget, the demotions, band 75's kill order rest on the source alone); those
/// that do cite its line.
///
/// The rig: a 4 GB device, apps of 20 MB that go to the background for 1 s, then suspend and age
/// 2 s into IDLE. Opening `n` of them one a second from 0 s and going home leaves them suspended,
/// the first the head of IDLE. The first event (0 s) makes the freezer's first pass, which
/// freezes nothing (too few suspended apps) and puts the next at 10 s or later.
@Suite struct JetsamFreezerTests {
  /// The rig's device, its freezer's threshold above any available memory (the trigger is the
  /// subject of one test only) unless `configure` says otherwise.
  static func device(_ configure: (inout DeviceProfile.Freezer) -> Void = { _ in })
    -> DeviceProfile
  {
    var device = DeviceProfile(name: "4 GB", memoryKB: mb(4096), reservedKB: mb(1000))
    var freezer = DeviceProfile.Freezer()
    freezer.thresholdKB = mb(4096)
    configure(&freezer)
    device.freezer = freezer
    return device
  }

  static let names = (0..<11).map { String(UnicodeScalar(UInt8(97 + $0))) }

  /// Apps "a", "b", … of 20 MB (the first `small` of them 4 MB), then "hog" of 100 MB.
  static func apps(_ count: Int, small: Int = 0) -> [AppProfile] {
    (0..<count).map { Fixture.app(names[$0], resident: $0 < small ? 4 : 20, work: sec(1)) }
      + [Fixture.app("hog", resident: 100, work: sec(1))]
  }

  /// Opens the first `count` apps one a second from 0 s, then goes home.
  static func openAll(_ count: Int) -> [TimedAction] {
    (0..<count).map { TimedAction(sec($0), .open(names[$0])) } + [TimedAction(sec(count), .home)]
  }

  /// A run played to `untilMs`, kept whole to look inside.
  struct Run {
    var simulation: Simulation<JetsamPolicy>
    var events: [EventRecord]
    var kills: [KillRecord]
    var apps: [AppProfile]
    var endMs: Int

    func index(_ name: String) -> Int { apps.firstIndex { $0.id == name } ?? -1 }
    func status(_ name: String) -> AppStatus { simulation.apps[index(name)] }
    func band(_ name: String) -> Int? {
      simulation.policy.band(of: index(name), nowMs: endMs)
    }
    /// The apps of the rows of `kind`, with their times.
    func rows(_ kind: EventKind) -> [String] {
      let names = apps.map(\.id) + simulation.device.systemProcesses.map(\.name)
      return events.filter { $0.kind == kind }.map { "\(names[$0.app])@\($0.timeMs)" }
    }
    var freezer: FreezerState { simulation.freezer }
  }

  static func run(
    _ device: DeviceProfile, _ apps: [AppProfile], _ actions: [TimedAction], untilMs: Int
  ) throws -> Run {
    let scenario = Scenario(
      name: "freezer", device: device, apps: apps, actions: actions, policy: .jetsam,
      durationMs: untilMs)
    var workload = try scenario.workload()
    var simulation = Simulation(
      device: device, apps: apps, policy: JetsamPolicy(), observer: EventLog(), seed: 1)
    try simulation.run(&workload, untilMs: untilMs)
    let log = try #require(simulation.observer as? EventLog)
    return Run(
      simulation: simulation, events: log.events, kills: log.kills, apps: apps, endMs: untilMs)
  }

  /// The rig with 6 apps suspended, "hog" opened at 12 s: the first pass that may freeze.
  static func sixSuspended(small: Int = 0, then more: [TimedAction] = [], untilMs: Int) throws
    -> Run
  {
    try run(
      device(), apps(6, small: small),
      openAll(6) + [TimedAction(sec(12), .open("hog")), TimedAction(sec(13), .home)] + more,
      untilMs: untilMs)
  }

  /// Rule 3, the pick (`memorystatus_freeze_pick_process`, P:652; eligibility P:446–570): the
  /// LRU walk of IDLE from its head takes the first suspended app whose footprint is at least
  /// `minFootprint` (8 MB, `memorystatus_freeze_pages_min`, P:521–529); the 4 MB head is passed
  /// over. T has this only disabled (`memorystatus_freeze_top_process`, T:1309, `T_SKIP` T:1314).
  @Test func thePickTakesTheIdleHeadThatIsSuspendedAndLargeEnough() throws {
    let run = try Self.sixSuspended(small: 1, untilMs: sec(12))
    #expect(run.rows(.freeze) == ["b@12000"])
    let again = try Self.sixSuspended(untilMs: sec(12))
    #expect(again.rows(.freeze) == ["a@12000"], "without the small head, the head is taken")
  }

  /// Rule 2, `memorystatus_can_freeze_processes` (F:2222, F:2231): a pass freezes only while the
  /// suspended apps outnumber the frozen ones by more than 4
  /// (`memorystatus_freeze_suspended_threshold`).
  @Test(arguments: [4, 5]) func noFreezeWhileAtMostFourSuspendedAreNotFrozen(count: Int) throws {
    let run = try Self.run(
      Self.device(), Self.apps(count),
      Self.openAll(count) + [TimedAction(sec(12), .open("hog"))], untilMs: sec(12))
    #expect(run.rows(.freeze) == (count > 4 ? ["a@12000"] : []))
  }

  /// Rule 1, the trigger (`memorystatus_freeze_thread_should_run`, P:741): no pass while
  /// available memory is above the threshold (P:752; 50 % of memory by default, M:2167–2172).
  @Test func noFreezeAboveTheThreshold() throws {
    var device = Self.device()
    device.freezer?.thresholdKB = nil
    let high = try Self.run(
      device, Self.apps(6), Self.openAll(6) + [TimedAction(sec(12), .open("hog"))],
      untilMs: sec(12))
    #expect(high.rows(.freeze) == [], "about 2.9 GB available, above the 2 GB threshold")
    #expect(high.simulation.availableKB > mb(2048))
    device.freezer?.thresholdKB = high.simulation.availableKB
    let low = try Self.run(
      device, Self.apps(6), Self.openAll(6) + [TimedAction(sec(12), .open("hog"))],
      untilMs: sec(12))
    #expect(low.rows(.freeze) == ["a@12000"], "at the threshold it freezes")
  }

  /// Rule 1, the spacing: after a pass the next comes 10 s later at the earliest
  /// (`memorystatus_freezer_thread_next_run_ts`, F:2954; P:774–779), whatever changes between.
  @Test func noSecondFreezeWithinTenSeconds() throws {
    let run = try Self.sixSuspended(
      then: [
        TimedAction(sec(15), .wake("c", durationMs: 500)),
        TimedAction(21_900, .wake("c", durationMs: 500)),
        TimedAction(22_000, .allocate("c", kilobytes: mb(1))),
      ], untilMs: sec(23))
    #expect(run.rows(.freeze) == ["a@12000", "b@22000"])
  }

  /// Rule 4, what a freeze does to memory (`memorystatus_freeze_process`, F:1779 → `task_freeze`):
  /// the app's memory leaves RAM for swap, its footprint stays (T:344 asserts the resident memory
  /// falls; `phys_footprint` counts compressed and swapped pages).
  @Test func aFrozenAppsMemoryLeavesRAMAndItsFootprintStays() throws {
    let run = try Self.sixSuspended(untilMs: sec(12))
    var off = Self.device()
    off.freezer = nil
    let unfrozen = try Self.run(
      off, Self.apps(6), Self.openAll(6) + [TimedAction(sec(12), .open("hog"))],
      untilMs: sec(12))
    let a = run.status("a")
    #expect(a.isFrozen && a.footprintKB == mb(20) && a.physicalKB == 0 && a.frozenKB == mb(20))
    #expect(run.simulation.memory.swappedKB == mb(20))
    #expect(unfrozen.status("a").physicalKB == mb(20))
    #expect(run.simulation.availableKB - unfrozen.simulation.availableKB == mb(20))
  }

  /// Rule 4, the cap: one freeze writes at most `maxFreeze` (`memorystatus_freeze_pages_max`, the
  /// budget of `task_freeze`, F:1838; T:346 `freeze_over_max_threshold`: what leaves RAM is at most
  /// `pages_max`); the rest stays in RAM.
  @Test func aFreezeWritesAtMostMaxFreeze() throws {
    var device = Self.device()
    device.freezer?.maxFreezeKB = mb(12)
    let run = try Self.run(
      device, Self.apps(6), Self.openAll(6) + [TimedAction(sec(12), .open("hog"))],
      untilMs: sec(12))
    let a = run.status("a")
    #expect(a.isFrozen && a.frozenKB == mb(12) && a.physicalKB == mb(8))
    #expect(run.freezer.pageouts == mb(12) / 16)
  }

  /// Rule 3, only IDLE is walked (P:701–713): a suspended app held in band 40 (an assertion, as a
  /// docked app's elevated band) is not frozen, and the next app of IDLE is (T:1822–1823
  /// `memorystatus_freeze_skip_docked`: `freeze_top_process` finds no candidate, P:560–570).
  @Test func anAppHeldInBand40IsNotFrozen() throws {
    let run = try Self.run(
      Self.device(), Self.apps(6),
      Self.openAll(6) + [TimedAction(sec(11), .assert("a", band: 40))], untilMs: sec(11))
    #expect(run.band("a") == 40 && run.status("a").state == .suspended)
    // The assertion's row is the first event after 10 s: the pass runs then.
    #expect(run.rows(.freeze) == ["b@11000"])
  }

  /// Rule 5, band 75 (`memstat_update_inactive_priority`, M:2413, called at F:1915; the mapping in
  /// `memstat_update_priority_locked`, M:2869–2878): frozen, the app goes to band 75; on screen it
  /// is in FOREGROUND; off screen again, working in the background (30) or suspended (0), it is
  /// back in 75, not in the aging band 20.
  @Test(arguments: [(13, 75), (21, 100), (25_500, 75), (27_000, 75)])
  func aFrozenAppStaysInBand75OffScreen(time: Int, band: Int) throws {
    let timeMs = time < 1_000 ? sec(time) : time
    let run = try Self.sixSuspended(
      then: [TimedAction(sec(20), .open("a")), TimedAction(sec(25), .home)], untilMs: timeMs)
    #expect(run.band("a") == band, "at \(timeMs) ms")
  }

  /// Rule 6, a resume thaws (`memorystatus_on_resume`, M:3771–3819): the app stays frozen
  /// (M:3816–3819; T:1162 `freezer_snapshot_thaw_state`), may be frozen again
  /// (`P_MEMSTAT_REFREEZE_ELIGIBLE`, M:3793–3796; T:1163) and counts one thaw (M:3804; T:1164);
  /// its memory is back in RAM.
  @Test func aResumeThawsAndMakesTheAppRefreezeEligible() throws {
    let run = try Self.sixSuspended(then: [TimedAction(sec(20), .open("a"))], untilMs: sec(20))
    #expect(run.rows(.thaw) == ["a@20000"])
    let a = run.status("a")
    #expect(a.isFrozen && a.frozenKB == 0 && a.physicalKB == a.footprintKB)
    let index = run.index("a")
    #expect(run.freezer.apps[index].refreezeEligible && run.freezer.apps[index].thawCount == 1)
    #expect(run.freezer.frozenCount == 1 && run.freezer.refreezeEligibleCount == 1)
    #expect(run.simulation.memory.swappedKB == 0)
  }

  /// Rule 3 with the slots full (`memorystatus_frozen_processes_max`; P:661–672, P:758–767): no
  /// new freeze, in single-app form T:2333 (`memorystatus_two_coalition_freeze`); rule 9, an
  /// exit frees the slot (`memorystatus_remove`, M:3287–3307).
  @Test(arguments: [false, true]) func fullSlotsFreezeNoMoreUntilAFrozenAppExits(quit: Bool) throws
  {
    var device = Self.device()
    device.freezer?.slots = 1
    let quitA = quit ? [TimedAction(sec(20), .forceQuit("a"))] : []
    let run = try Self.run(
      device, Self.apps(7),
      Self.openAll(7) + [TimedAction(sec(12), .open("hog")), TimedAction(sec(13), .home)] + quitA
        + [TimedAction(sec(23), .wake("g", durationMs: 500))], untilMs: sec(23))
    #expect(run.rows(.freeze) == (quit ? ["a@12000", "b@23000"] : ["a@12000"]))
    #expect(run.freezer.frozenCount == 1)
  }

  /// Rules 2 and 7, the budget (`memorystatus_freeze_update_throttle`, F:2797, F:2846–2850): a
  /// freeze is charged the compressed pages it writes (F:1924–1926); once the interval's budget is
  /// spent, a pass freezes nothing and demotes the first frozen app of band 75 thawed since its
  /// freeze (F:2935–2938, `memorystatus_demote_frozen_processes_using_thaw_count`, F:2339 urgent):
  /// to IDLE without aging (F:2302–2331), still frozen, its slot kept.
  @Test func aSpentBudgetDemotesAThawedFrozenAppToIdle() throws {
    var device = Self.device()
    device.freezer?.dailyBudgetKB = mb(20)
    let run = try Self.run(
      device, Self.apps(7),
      Self.openAll(7) + [
        TimedAction(sec(12), .open("hog")), TimedAction(sec(13), .home),
        TimedAction(sec(20), .open("a")), TimedAction(sec(21), .home),
      ], untilMs: sec(23))
    #expect(run.rows(.freeze) == ["a@12000"])
    #expect(run.freezer.remainingPages == 0 && run.freezer.pageouts == mb(20) / 16)
    // The pass at 22 s, when "a" suspends again (the next after 12 s).
    #expect(run.rows(.demote) == ["a@22000"])
    #expect(run.band("a") == 0, "IDLE at once, not the aging band")
    #expect(run.status("a").isFrozen && run.freezer.frozenCount == 1)
    #expect(!run.freezer.apps[run.index("a")].refreezeEligible)
  }

  /// Rule 8, the interval's end (`memorystatus_freeze_reset_interval`, F:1587–1594;
  /// `memorystatus_freeze_start_normal_throttle_interval`, F:2630–2646): the unused budget rolls
  /// over without cap; a budget overrun carries over, compared, as the kernel does, with the new
  /// budget; the next interval ends 24 h later.
  @Test func theBudgetRollsOverAndAnOverrunCarries() throws {
    var device = Self.device()
    device.freezer?.dailyBudgetKB = 100 * 16
    var state = FreezerState(device: device, processCount: 1, policyHasFreezer: true)
    state.pageouts = 30
    state.startNextInterval()
    #expect(state.maxPages == 170 && state.pageouts == 0 && state.intervalEndMs == 2 * 86_400_000)
    state.pageouts = 400
    state.startNextInterval()
    #expect(state.maxPages == 100 && state.pageouts == 300 && state.remainingPages == 0)
    state.startNextInterval()
    #expect(state.maxPages == 100 && state.pageouts == 200)
  }

  /// Rule 7 daily and rule 8 (`memorystatus_freeze_reset_interval`, F:1565, F:1596–1598): at the
  /// end of the 24 h interval, walking band 75 from its head, up to 2 frozen apps are demoted
  /// (`memorystatus_max_frozen_demotions_daily`), passing over one thawed 5 times or more
  /// (`memorystatus_thaw_count_demotion_threshold`, F:2369–2375). Here "a", frozen first and then
  /// thawed 5 times, is at the head of band 75; "b" and "c" are demoted, "d" stays.
  @Test func theDailyDemotionTakesTwoWithFewerThanFiveThaws() throws {
    var device = Self.device()
    device.freezer?.slots = 4
    // "hog" launched into the background makes the first freeze; quit, it leaves too few
    // suspended apps for another while "a" comes and goes.
    var actions =
      Self.openAll(5) + [
        TimedAction(sec(12), .wake("hog", durationMs: 500)),
        TimedAction(sec(13), .forceQuit("hog")),
      ]
    for cycle in 0..<5 {
      actions += [
        TimedAction(sec(14 + 3 * cycle), .open("a")), TimedAction(sec(15 + 3 * cycle), .home),
      ]
    }
    actions += (5..<10).map { TimedAction(sec(30 + $0), .open(Self.names[$0])) }
    actions += [
      TimedAction(sec(40), .home), TimedAction(sec(52), .wake("j", durationMs: 500)),
      TimedAction(sec(63), .wake("j", durationMs: 500)),
      TimedAction(sec(74), .wake("j", durationMs: 500)),
      TimedAction(sec(86_401), .wake("j", durationMs: 500)),
    ]
    let before = try Self.run(device, Self.apps(10), actions, untilMs: sec(86_000))
    #expect(before.rows(.freeze).map { $0.prefix(1) } == ["a", "b", "c", "d"])
    #expect(before.freezer.apps[before.index("a")].thawCount == 5)
    #expect(before.rows(.demote) == [])
    let after = try Self.run(device, Self.apps(10), actions, untilMs: sec(86_401))
    #expect(after.rows(.demote) == ["b@86401000", "c@86401000"])
    #expect(after.band("a") == 75 && after.band("d") == 75)
    #expect(after.band("b") == 0 && after.status("b").isFrozen)
  }

  /// Rule 10, kills (`memorystatus_kill_top_process`, M:6393, M:6451–6452): band 75 is an
  /// ordinary band; a kill reaches the frozen app only after every process of bands 0 to 50, and
  /// kills.csv names its band. (T:1127 `freezer_snapshot_frozen_state`: a frozen app can be
  /// killed.)
  @Test func killsReachBand75OnlyAfterBandsUpTo50() throws {
    let run = try Self.run(
      Self.device(), Self.apps(7),
      Self.openAll(6) + [
        TimedAction(sec(12), .open("hog")), TimedAction(sec(13), .wake("g", durationMs: 25_000)),
        TimedAction(sec(20), .allocate("hog", kilobytes: mb(2_950))),
      ], untilMs: sec(20))
    #expect(run.rows(.freeze) == ["a@12000"])
    let bands = run.kills.map { $0.band ?? -1 }
    let frozen = try #require(run.kills.firstIndex { $0.app == run.index("a") })
    #expect(run.kills[frozen].band == 75)
    #expect(bands[..<frozen].allSatisfy { $0 <= 50 } && bands[..<frozen].contains(30))
    #expect(bands == bands.sorted(), "the kills climb the bands: \(bands)")
  }

  /// Rule 3, refreezing (`memorystatus_freeze_pick_refreeze_process`, P:600–645; P:661–672): with
  /// the slots full and at least 3 thawed frozen apps (P:758–767), the pass refreezes the first
  /// of them from the head of band 75 ("b", which left the screen first), whatever it is doing;
  /// no slot is taken.
  @Test func withTheSlotsFullAndThreeThawedAppsTheHeadOfBand75IsRefrozen() throws {
    var device = Self.device()
    device.freezer?.slots = 3
    var actions = Self.openAll(9) + [TimedAction(sec(12), .open("hog"))]
    actions += [22, 32].map { TimedAction(sec($0), .wake("i", durationMs: 500)) }
    actions += ["b", "a", "c"].enumerated().flatMap { step, name in
      [TimedAction(sec(40 + 2 * step), .open(name))]
    }
    actions += [TimedAction(sec(46), .open("hog"))]
    let run = try Self.run(device, Self.apps(9), actions, untilMs: sec(50))
    #expect(run.rows(.freeze).map { $0.prefix(1) } == ["a", "b", "c", "b"])
    #expect(run.freezer.frozenCount == 3 && run.freezer.refreezeEligibleCount == 2)
    #expect(run.status("b").frozenKB == mb(20))
  }

  /// A run with the freezer on finishes, its report is the same twice, and the freezer's counts
  /// match the apps': the frozen apps hold the slots, the swapped memory is theirs.
  @Test func aRunWithTheFreezerIsDeterministicAndFinishes() throws {
    let apps = Fixture.stressApps + Self.apps(8)
    var actions: [TimedAction] = []
    for step in 0..<600 {
      let app = apps[(step * 7) % apps.count].id
      actions.append(TimedAction(sec(150 * step), step % 5 == 4 ? .home : .open(app)))
      if step % 50 == 49 {
        actions.append(TimedAction(sec(150 * step + 5), .allocate(app, kilobytes: mb(200))))
      }
    }
    var device = Self.device()
    device.freezer?.thresholdKB = nil
    device.memoryKB = mb(2048)
    device.reservedKB = mb(500)
    let first = try Self.run(device, apps, actions, untilMs: sec(90_000))
    let second = try Self.run(device, apps, actions, untilMs: sec(90_000))
    #expect(first.events == second.events && first.kills == second.kills)
    #expect(!first.rows(.freeze).isEmpty && !first.rows(.thaw).isEmpty)
    let statuses = first.simulation.apps
    #expect(first.freezer.frozenCount == statuses.filter(\.isFrozen).count)
    #expect(first.simulation.memory.swappedKB == statuses.reduce(0) { $0 + $1.frozenKB })
    let eligible = first.freezer.apps.filter(\.refreezeEligible).count
    #expect(first.freezer.refreezeEligibleCount == eligible)
  }

  // Coalitions: the XPC services of a frozen app (F:1945–1956, F:2110–2127; P:468–497).

  /// The rig's six apps with XPC services of "a" of 11, 12, … MB (`count` of them), managed unless
  /// named in `unmanaged`; "a" is frozen at 12 s.
  static func withServices(
    _ count: Int, unmanaged: Set<Int> = [], role: CoalitionRole = .xpc,
    tracking: DirtyTracking = .idleExit, minFootprintMB: Int = 8
  ) throws -> Run {
    var device = Self.device {
      $0.slots = 8
      $0.minFootprintKB = mb(minFootprintMB)
    }
    device.systemProcesses = (1...count).map { index in
      SystemProcess(
        name: "x\(index)", kind: .idleDaemon, footprintKB: mb(10 + index),
        dirtyTracking: tracking, isManaged: !unmanaged.contains(index), coalition: "a",
        coalitionRole: role)
    }
    return try Self.run(
      device, Self.apps(6),
      Self.openAll(6) + [TimedAction(sec(12), .open("hog")), TimedAction(sec(13), .home)],
      untilMs: sec(12))
  }

  /// `memorystatus_coalition_freeze` (T:2202; T:2230, T:2239): a leader and 7 XPC services, 8
  /// slots: one pass freezes all 8, the services from the end of the list the kernel gets
  /// largest first (the smallest first), each pinned to band 75 as a frozen app is.
  @Test func aFrozenAppsXPCServicesAreFrozenWithIt() throws {
    let run = try Self.withServices(7)
    #expect(run.rows(.freeze) == ["a@12000"] + (1...7).map { "x\($0)@12000" })
    #expect(run.freezer.frozenCount == 8)
    let services = Self.apps(6).count..<run.simulation.apps.count
    #expect(services.allSatisfy { run.simulation.apps[$0].isFrozen })
    #expect(services.allSatisfy { run.simulation.policy.band(of: $0, nowMs: sec(12)) == 75 })
    #expect(
      run.simulation.memory.swappedKB
        == run.simulation.apps.reduce(0) { $0 + $1.frozenKB })
  }

  /// `memstat_proc_is_active_locked` (M:5038–5051) asks first whether a process is pinned in an
  /// elevated band, and one frozen in band 75 is inactive whatever else holds. The services are
  /// clean and may idle exit: in IDLE before the freeze they are inactive, and in 75 the tracked
  /// rule alone (above IDLE) would make them active; frozen there, they stay inactive.
  @Test func aFrozenServicePinnedInBand75IsInactive() throws {
    let run = try Self.withServices(3)
    let policy = run.simulation.policy
    let services = Self.apps(6).count..<run.simulation.apps.count
    #expect(services.allSatisfy { policy.band(of: $0, nowMs: sec(12)) == 75 })
    #expect(services.allSatisfy { !policy.isActive($0, nowMs: sec(12)) })
    let before = try Self.run(
      run.simulation.device, Self.apps(6), Self.openAll(6), untilMs: sec(11))
    #expect(services.allSatisfy { before.simulation.policy.band(of: $0, nowMs: sec(11)) == 0 })
    #expect(services.allSatisfy { !before.simulation.policy.isActive($0, nowMs: sec(11)) })
  }

  /// `memorystatus_coalition_freezer_slot_limit` (T:2246; T:2274, T:1293, T:2287): a leader and 10
  /// XPC services, 8 slots: the leader and 7 services are frozen, the 3 largest left
  /// (`memorystatus_freeze_pid_list` stops when the slots are full, F:2114).
  @Test func theServicesStopWhenTheSlotsAreFull() throws {
    let run = try Self.withServices(10)
    #expect(run.rows(.freeze) == ["a@12000"] + (1...7).map { "x\($0)@12000" })
    #expect(run.freezer.frozenCount == 8)
  }

  /// Who is taken (P:468–497, M:2745–2747, M:8887–8894): an XPC service RunningBoard does not
  /// manage keeps `P_MEMSTAT_FREEZE_DISABLED`, and the first service the freezer cannot take ends
  /// the list (F:2121–2123): unmanaged at the end of the list (the smallest), none is frozen; the
  /// largest, the others are. An extension of the coalition is not an XPC service.
  @Test func anUnmanagedServiceEndsTheListAndAnExtensionIsNotTaken() throws {
    let smallest = try Self.withServices(3, unmanaged: [1])
    #expect(smallest.rows(.freeze) == ["a@12000"])
    let largest = try Self.withServices(3, unmanaged: [3])
    #expect(largest.rows(.freeze) == ["a@12000", "x1@12000", "x2@12000"])
    let extensions = try Self.withServices(3, role: .extension)
    #expect(extensions.rows(.freeze) == ["a@12000"])
  }

  /// A managed XPC service that is not dirty tracked is no system process to the freezer
  /// (`isSysProc`, bsd/sys/kern_memorystatus.h:574) and is taken as an app is, at least
  /// `minFootprint` (P:521–529); a tracked one has no minimum (P:468–497). With a 12 MB minimum,
  /// the untracked 11 MB service at the end of the list ends it; tracked, all three are frozen.
  @Test func anUntrackedServiceIsTakenAsAnAppIs() throws {
    let untracked = try Self.withServices(3, tracking: .none, minFootprintMB: 12)
    #expect(untracked.rows(.freeze) == ["a@12000"])
    let tracked = try Self.withServices(3, minFootprintMB: 12)
    #expect(tracked.rows(.freeze) == ["a@12000", "x1@12000", "x2@12000", "x3@12000"])
    let large = try Self.withServices(3, tracking: .none)
    #expect(large.rows(.freeze) == ["a@12000", "x1@12000", "x2@12000", "x3@12000"])
  }

  /// `memorystatus_two_coalition_freeze` (T:2302; T:2333, T:2344): the slots full from a first
  /// coalition (its leader and 7 services, 8 slots), a second leader is not frozen at the next
  /// pass, nor any of its services (`memorystatus_freeze_pick_process` takes refreezes only,
  /// P:661–672).
  @Test(arguments: [8, 9]) func withTheSlotsFullASecondCoalitionIsNotFrozen(slots: Int) throws {
    var device = Self.device { $0.slots = slots }
    device.systemProcesses =
      (1...7).map {
        SystemProcess(
          name: "x\($0)", kind: .idleDaemon, footprintKB: mb(10 + $0), isManaged: true,
          coalition: "a")
      }
      + (1...3).map {
        SystemProcess(
          name: "y\($0)", kind: .idleDaemon, footprintKB: mb(10 + $0), isManaged: true,
          coalition: "b")
      }
    let run = try Self.run(
      device, Self.apps(6),
      Self.openAll(6) + [
        TimedAction(sec(12), .open("hog")), TimedAction(sec(13), .home),
        TimedAction(21_900, .wake("c", durationMs: 500)),
        TimedAction(22_000, .allocate("c", kilobytes: mb(1))),
      ], untilMs: sec(23))
    // With a ninth slot, the pass at 22 s freezes b, the head of IDLE, which fills it.
    let more = slots > 8 ? ["b@22000"] : []
    #expect(run.rows(.freeze) == ["a@12000"] + (1...7).map { "x\($0)@12000" } + more)
    #expect(run.freezer.frozenCount == slots)
  }
}
