import JetsimTestSupport
import Testing

@testable import JetsimCore

/// lmkd's candidates kept in order give the victim a scan of every process gives.
@Suite struct LmkdCandidatesTests {
  /// The last slot's adj and the processes before it, as `assignSlots` hands the adjs out: when
  /// every process counts for the slots' size, and when only some do (the empty processes' ladder,
  /// which cached started services step without being counted), so that the ladder reaches 999.
  @Test func theLastSlotIsTheOneAssignSlotsGivesLast() {
    for count in 1...300 {
      for counted in Set([count, count / 2, count / 7, 0]) {
        for first in [AndroidImportance.cachedMin, AndroidImportance.cachedMin + 5] {
          var adjs: [Int] = []
          AndroidImportance.assignSlots(Array(0..<count), first: first, counted: counted) {
            _, adj in adjs.append(adj)
          }
          let slot = LmkdCandidates.lastSlot(count: count, counted: counted, first: first)
          let label = "\(count), \(counted) counted, from \(first)"
          #expect(slot.adj == adjs.last, "\(label)")
          #expect(slot.before == adjs.firstIndex(of: slot.adj), "\(label)")
        }
      }
    }
  }

  /// On seeded random devices (apps on screen, perceptible, at work, previous, started services
  /// that have been on screen, cached with ties of recency, behind the lock, never on screen and
  /// empty; idle daemons, the empty processes), at
  /// every floor and with or without a process whose allocation waits, the kept lists name the
  /// victim the scan names: at 10 s, and at 70 s, when the previous app has expired to adj 900
  /// beside the cached apps of the first slot.
  @Test(arguments: 1...40)
  func theKeptListsNameTheScansVictim(seed: Int) {
    var random = RandomStream(seed: UInt64(seed), stream: 3)
    var device = Fixture.device
    let daemons = random.below(30)
    device.systemProcesses = (0..<daemons).map {
      SystemProcess(name: "d\($0)", kind: .idleDaemon, footprintKB: mb(1 + $0 % 3))
    }
    let apps: [PolicyHarness.App] = (0..<(1 + random.below(60))).map { index in
      var app = PolicyHarness.App(
        id: "a\(index)", state: .suspended, footprintMB: 1 + random.below(4),
        lastUsedMs: random.below(8) * 1_000)
      switch random.below(8) {
      case 0: app.state = .background; app.modes = [.audio]
      case 1: app.state = .background; app.working = true
      case 2: app.leftScreen = true; app.enteredMs = random.below(5) * 1_000
      case 3:
        // A started service in an app that has been on screen: on the empty processes' ladder.
        (app.state, app.working, app.leftScreen) = (.background, true, true)
        app.enteredMs = random.below(5) * 1_000
      case 4:
        // Woken, never on screen, its work over: an empty process.
        app.shownUI = false
      case 5:
        // On screen when the device locked: the top app.
        app.behindLock = true
      default: break
      }
      app.enteredMs = max(app.enteredMs, random.below(4) * 1_000)
      return app
    }
    var harness = PolicyHarness(device: device, nowMs: 10_000, apps)
    for index in 0..<daemons { harness.addIdleSystemProcess(footprintMB: 1, enteredMs: index) }
    var policy = harness.started(LmkdPolicy())
    for nowMs in [10_000, 70_000] {
      harness.nowMs = nowMs
      for floor in [0, 200, 500, 701, 900, 950] {
        for allocating in [nil, random.below(harness.apps.count)] {
          harness.allocating = allocating
          let view = harness.view(seed: 1)
          var scanning = policy
          #expect(
            policy.victim(view, minAdj: floor) == scanning.scanVictim(view, minAdj: floor),
            "seed \(seed), at \(nowMs) ms, floor \(floor), allocating \(String(describing: allocating))"
          )
        }
      }
    }
  }

  /// An expired previous app (adj 900, "previous-expired") beside a lone cached app, whose slot is
  /// 900 too: of the two, the least recently used dies first, whichever it is, as the scan says.
  @Test(arguments: [(1_000, 2_000), (2_000, 1_000)])
  func atAdj900TheLeastRecentlyUsedOfTheExpiredAndTheCachedGoesFirst(
    previousUsedMs: Int, cachedUsedMs: Int
  ) {
    let apps: [PolicyHarness.App] = [
      .init(id: "screen", state: .active, footprintMB: 100, lastUsedMs: 5_000, enteredMs: 5_000),
      .init(
        id: "previous", state: .suspended, footprintMB: 10, lastUsedMs: previousUsedMs,
        enteredMs: previousUsedMs, leftScreen: true),
      .init(id: "cached", state: .suspended, footprintMB: 10, lastUsedMs: cachedUsedMs),
    ]
    var harness = PolicyHarness(nowMs: 10_000, apps)
    var policy = harness.started(LmkdPolicy())
    #expect(policy.victim(harness.view(seed: 1), minAdj: 900) == 2)
    // More than 60 s after "previous" was suspended (as it left the screen): at 900 with "cached".
    harness.nowMs = 70_000
    let view = harness.view(seed: 1)
    var scanning = policy
    let first = previousUsedMs < cachedUsedMs ? 1 : 2
    #expect(scanning.scanVictim(view, minAdj: 900) == first)
    #expect(policy.victim(view, minAdj: 900) == first)
  }

  /// Inside a shared slot, the process lmkd registered there first dies first (`proc_adj_tail`),
  /// not the least recently used. Fifteen cached apps c0...c14 (c15, the last to leave the screen,
  /// is the previous app), two to a slot: c1 and c0 last, at 960 and 970. When c11 dies the ones
  /// behind it move up a place, and ActivityManager's update moves c0 into 960, registered there
  /// after c1, which stayed: lmkd kills c1, the more recently used (by least recent use, c0).
  @Test func aProcessMovedUpIntoASlotDiesAfterTheOneThatWasThere() {
    var harness = PolicyHarness(nowMs: 0, Self.leftOneASecond(16))
    var policy = harness.started(LmkdPolicy())
    harness.nowMs = 20_000
    #expect(policy.victim(harness.view(seed: 1), minAdj: 900) == 0)
    harness.apps[11].state = .notRunning
    harness.apps[11].footprintKB = 0
    policy.appDidChange(11, harness.apps[11], nowMs: 20_000)
    let view = harness.view(seed: 1)
    var scanning = policy
    #expect(scanning.scanVictim(view, minAdj: 900) == 1)
    #expect(policy.victim(view, minAdj: 900) == 1)
  }

  /// The registrations `registerMoves` makes by looking only where changes may have moved a
  /// process are those of a walk of every process: on seeded random ladders of up to 300 processes
  /// (cached apps, started services and empty processes, many sharing a time of last use), after
  /// one to six changes at a time (processes used, arriving, leaving, changing kind), every
  /// process on a ladder has the slot and the registration a full walk gives it.
  @Test(arguments: 1...12)
  func registrationsAreThoseOfAWalkOfEveryProcess(seed: Int) {
    var random = RandomStream(seed: UInt64(seed), stream: 9)
    let count = 300
    var candidates = LmkdCandidates(count: count)
    var statuses = (0..<count).map { AppStatus(idRank: $0, isSystemProcess: false) }
    let kinds: [AndroidImportance.CachedKind] = [.cached, .cached, .service, .empty]
    var kind = [AndroidImportance.CachedKind](repeating: .cached, count: count)
    var slot = [Int?](repeating: nil, count: count)
    var registered = [Int](repeating: 0, count: count)
    var registrations = 0
    var startRegistered = false
    for step in 0..<600 {
      // (Now and then more than `CachedLadder.settle` puts in place one by one.)
      for _ in 0...random.below(random.below(5) == 0 ? 14 : 6) {
        let app = random.below(step < 100 ? count : 120)
        if random.below(4) == 0 {
          statuses[app].state = .notRunning
        } else {
          statuses[app].state = .suspended
          statuses[app].lastUsedMs = random.below(50) * 1_000
          kind[app] = kinds[random.below(kinds.count)]
        }
        candidates.file(app, statuses[app], adj: nil, since: 0, kind: kind[app])
      }
      candidates.registerMoves()
      // The walk of every process: the cached apps from 900; the services, then the empty
      // processes, from 905, stepped by the empty processes alone.
      let resident = (0..<count).filter { statuses[$0].state.isResident }
      let cached = resident.filter { kind[$0] == .cached }.sorted {
        AndroidImportance.isMoreRecent(statuses[$0], statuses[$1])
      }
      let services = resident.filter { kind[$0] == .service }.sorted {
        AndroidImportance.isMoreRecent(statuses[$0], statuses[$1])
      }
      let empties = resident.filter { kind[$0] == .empty }.sorted {
        AndroidImportance.isMoreRecent(statuses[$0], statuses[$1])
      }
      var onLadder = [Bool](repeating: false, count: count)
      // The first walk that finds a process registers the start's, the least recent first.
      let atStart = !startRegistered && !resident.isEmpty
      startRegistered = startRegistered || atStart
      for (ladder, first, counted) in [
        (cached, 900, cached.count), (services + empties, 905, empties.count),
      ] {
        var walk: [(app: Int, adj: Int)] = []
        AndroidImportance.assignSlots(ladder, first: first, counted: counted) {
          walk.append(($0, $1))
        }
        for (app, adj) in atStart ? walk.reversed() : walk {
          onLadder[app] = true
          if slot[app] != adj {
            (slot[app], registered[app]) = (adj, registrations)
            registrations += 1
          }
        }
      }
      for app in 0..<count where !onLadder[app] { slot[app] = nil }
      for app in resident {
        #expect(
          candidates.registry.slotAdj[app] == slot[app],
          "seed \(seed), step \(step), process \(app)")
        #expect(
          candidates.registry.registered[app] == registered[app],
          "seed \(seed), step \(step), process \(app)")
      }
      if resident.contains(where: { candidates.registry.slotAdj[$0] != slot[$0] }) { return }
    }
  }

  /// The processes in memory at the start are registered as if each had come down its ladder, the
  /// least recently used of a slot first: of twelve cached apps c0...c11 (c12, the last to leave
  /// the screen, is the previous app), two to a slot, c1 and c0 share the last one, and c0, the
  /// least recently used, dies first, before any update (in the start's instant) and after the
  /// first one (a change at 5 s). Registered in one walk, most recent first, c1 would.
  @Test func theStartsProcessesAreRegisteredLeastRecentFirst() {
    let apps: [PolicyHarness.App] = (0..<13).map { index in
      .init(
        id: "c\(index)", state: .suspended, footprintMB: 10, lastUsedMs: (index + 1) * 100,
        leftScreen: true)
    }
    var harness = PolicyHarness(nowMs: 0, apps)
    var policy = harness.started(LmkdPolicy())
    #expect(policy.victim(harness.view(seed: 1), minAdj: 900) == 0)
    harness.nowMs = 5_000
    policy.appDidChange(12, harness.apps[12], nowMs: 5_000)
    let view = harness.view(seed: 1)
    var scanning = policy
    #expect(scanning.scanVictim(view, minAdj: 900) == 0)
    #expect(policy.victim(view, minAdj: 900) == 0)
  }

  /// `count` apps c0, c1, ... suspended, each left the screen a second after the one before (from
  /// 1 s), the last the previous app: the others cached, c0 the least recently used.
  static func leftOneASecond(_ count: Int) -> [PolicyHarness.App] {
    (0..<count).map { index in
      .init(
        id: "c\(index)", state: .suspended, footprintMB: 10, lastUsedMs: (index + 1) * 1_000,
        enteredMs: (index + 1) * 1_000, leftScreen: true)
    }
  }

  /// A choice made before ActivityManager's update of its instant takes the slots as that update
  /// will register them: the processes registered there before, then those moved there since. Of
  /// fifteen cached apps (two to a slot), c11 comes back on screen from the home screen at 20 s, c0
  /// moves up into c1's slot, and c1, registered there before, is the victim, before any later
  /// change.
  @Test func aChoiceBeforeTheUpdateTakesTheProcessRegisteredBefore() {
    var harness = PolicyHarness(nowMs: 0, Self.leftOneASecond(16))
    var policy = harness.started(LmkdPolicy())
    harness.nowMs = 20_000
    harness.apps[11].state = .active
    harness.apps[11].lastUsedMs = 20_000
    policy.appDidChange(11, harness.apps[11], nowMs: 20_000)
    #expect(policy.victim(harness.view(seed: 1), minAdj: 900) == 1)
  }

  /// A death is an update of its own, and so is what changed before it in its instant: 22 apps left
  /// the screen a second apart, the last at 22 s, which makes c20 cached, the 21st, and three to a
  /// slot (c2, c1 and c0 at 960, registered in that order). lmkd kills c2 in that same instant;
  /// after its death, two to a slot, c1 and c0 move to 990 (c1 first), and c1 is the next victim.
  /// Taken as one update with the death, c1 and c0 would have stayed at 990 as lmkd registered them
  /// before 22 s, c0 first, and c0 would die before c1.
  @Test func aDeathInTheInstantOfAChangeFollowsItsUpdate() {
    var harness = PolicyHarness(nowMs: 0, Self.leftOneASecond(22))
    var policy = harness.started(LmkdPolicy())
    harness.nowMs = 22_000
    let first = policy.victim(harness.view(seed: 1), minAdj: 900)
    #expect(first == 2)
    harness.apps[2].state = .notRunning
    harness.apps[2].footprintKB = 0
    policy.appDidChange(2, harness.apps[2], nowMs: 22_000)
    #expect(policy.victim(harness.view(seed: 1), minAdj: 900) == 1)
  }

  /// A death is followed by an update of its own, before the rest of its instant: twelve cached
  /// apps c0...c11; in one instant two apps arrive or are used, c8 dies, and three more change.
  /// With the update after the death, c1 is the victim; with the death's update taken together
  /// with the changes after it, c0 would be. (An instant found by a random search of such
  /// instants for one where the two differ.)
  @Test func theUpdateAfterADeathRegistersWhatItMoved() {
    var apps: [PolicyHarness.App] = (0..<40).map { index in
      .init(id: "c\(index)", state: .notRunning, footprintMB: 10)
    }
    for index in 0..<12 {
      (apps[index].state, apps[index].lastUsedMs) = (.suspended, (index + 1) * 1_000)
      apps[index].enteredMs = (index + 1) * 1_000
    }
    var harness = PolicyHarness(nowMs: 0, apps)
    var policy = harness.started(LmkdPolicy())
    harness.nowMs = 20_000
    func change(_ app: Int, to state: AppState, usedAtMs: Int? = nil) {
      harness.apps[app].state = state
      harness.apps[app].lastUsedMs = usedAtMs ?? harness.apps[app].lastUsedMs
      harness.apps[app].footprintKB = state.isResident ? mb(10) : 0
      harness.apps[app].physicalKB = harness.apps[app].footprintKB
      harness.apps[app].leftForegroundMs = harness.apps[app].lastUsedMs
      policy.appDidChange(app, harness.apps[app], nowMs: 20_000)
    }
    change(31, to: .suspended, usedAtMs: 13_636)
    change(9, to: .suspended, usedAtMs: 13_444)
    change(8, to: .notRunning)
    change(3, to: .suspended, usedAtMs: 14_150)
    change(26, to: .suspended, usedAtMs: 14_068)
    change(12, to: .suspended, usedAtMs: 14_004)
    #expect(policy.victim(harness.view(seed: 1), minAdj: 900) == 1)
  }
}
