import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// Invariants over many seeded random workloads, for every built-in policy: each run's event log is
/// replayed by an independent rebuild of the device (`DeviceReplay`), every row is checked against
/// docs/model.md, and every kill against the policy's rule as the kernel states it (`PolicyRule`):
/// the victim is the one the rule picks from the state just before it, no kill happens that the rule
/// did not call for, and no instant ends with a victim the rule still wants.
@Suite struct InvariantTests {
  /// The stress apps; "slow" with separate limits (its 60 MB over its inactive 50 MB once it
  /// suspends, not over its active 100 MB while it runs).
  static let apps = Fixture.stressApps.map { app in
    guard app.id == "slow" else { return app }
    var limited = app
    (limited.activeLimitKB, limited.inactiveLimitKB) = (mb(100), mb(50))
    return limited
  }

  /// System processes of every kind: idle daemons (one relaunched), active daemons (one with a band
  /// and a soft limit) and an extension; for the priority actions (`PriorityMix`), a managed idle
  /// daemon that starts dirty, a managed one tracked without idle exit and a managed untracked
  /// one, which with the extension have separate limits they are over when inactive.
  static let systemProcesses = [
    SystemProcess(name: "sys.idle-a", kind: .idleDaemon, footprintKB: mb(12)),
    SystemProcess(
      name: "sys.idle-b", kind: .idleDaemon, footprintKB: mb(30), relaunchDelayMs: sec(20),
      agingTimeMs: sec(10)),
    SystemProcess(name: "sys.active", kind: .activeDaemon, footprintKB: mb(40)),
    SystemProcess(
      name: "sys.fat", kind: .activeDaemon, footprintKB: mb(90), band: 80, softLimitKB: mb(60),
      relaunchDelayMs: sec(5)),
    limited(
      SystemProcess(name: "sys.widget", kind: .extension, footprintKB: mb(15)), activeMB: 20,
      inactiveMB: 10),
    limited(
      SystemProcess(
        name: "sys.managed", kind: .activeDaemon, footprintKB: mb(25), isManaged: true),
      activeMB: 40, inactiveMB: 20),
    limited(
      SystemProcess(
        name: "sys.dirty", kind: .idleDaemon, footprintKB: mb(30), band: 80,
        relaunchDelayMs: sec(10), agingTimeMs: sec(5), isManaged: true), activeMB: 45,
      inactiveMB: 20),
    limited(
      SystemProcess(
        name: "sys.tracked", kind: .activeDaemon, footprintKB: mb(45), band: 120,
        relaunchDelayMs: sec(5), dirtyTracking: .noIdleExit, isManaged: true),
      activeMB: 60, inactiveMB: 40),
  ]

  static func limited(_ process: SystemProcess, activeMB: Int, inactiveMB: Int) -> SystemProcess {
    var limited = process
    (limited.activeLimitKB, limited.inactiveLimitKB) = (mb(activeMB), mb(inactiveMB))
    return limited
  }

  /// Daemons launchd relaunches at once, six of them: alone in the IDLE band they are false idle
  /// (jetsam's aggressive mode).
  static let falseIdleDaemons = (1...6).map {
    SystemProcess(
      name: "sys.eager-\($0)", kind: .idleDaemon, footprintKB: mb(8), relaunchDelayMs: sec(3),
      relaunchLikelihood: .high)
  }

  /// An XPC service of the music app (an idle daemon RunningBoard does not manage, so it never
  /// leaves the low bands).
  static let appService = SystemProcess(
    name: "sys.music-xpc", kind: .idleDaemon, footprintKB: mb(6), coalition: "music")

  static func device(for seed: Int) -> DeviceProfile {
    var device = Fixture.device
    switch seed % 7 {
    case 0: break
    case 1:
      // Tight enough that the game's launch can leave free memory below critical: shortfalls.
      device = DeviceProfile(
        name: "1 GB", memoryKB: mb(1024), reservedKB: mb(300), foregroundLimitKB: mb(720))
    case 2: device.compressionPermille = 2000
    case 3: device.systemProcesses = systemProcesses
    case 4:
      // A critical level given alone (the others by XNU's ratios), a quick reaper and false-idle
      // daemons.
      device = DeviceProfile(
        name: "ratios", memoryKB: mb(2048), reservedKB: mb(500), foregroundLimitKB: mb(1200),
        criticalThresholdKB: mb(90))
      device.reaper.minAgeMs = sec(30)
      device.reaper.periodMs = sec(45)
      device.systemProcesses = falseIdleDaemons
    case 5:
      device.reaper.enabled = false
      device.systemProcesses = falseIdleDaemons + systemProcesses
    case _ where seed % 3 == 0:
      // zram: apps go to swap, wait for it, and their compressed copies (2.5:1) stay in RAM.
      device.zram = DeviceProfile.Zram(sizeKB: mb(300), compressionPermille: 2_500)
    default:
      // App swap with a small budget: apps go to swap, wait for it, and are killed for it, as is
      // an XPC service of an app's coalition, which donates its pages too.
      device.appSwap = DeviceProfile.AppSwap(budgetKB: mb(300))
      device.systemProcesses = [appService] + systemProcesses
    }
    // The page cache: a free target from none to a large one, and a working set the cache cannot
    // always hold (refaults).
    device.fileCache.freeTargetKB = [0, mb(8), mb(32), mb(150)][seed % 4]
    device.fileCache.workingSetKB = mb(100 + 50 * (seed % 5))
    // XNU's freezer (jetsam only): the kernel's defaults, or a budget spent after a few freezes.
    if [0, 2, 3].contains(seed % 7) {
      device.freezer = DeviceProfile.Freezer()
      if seed % 7 == 3 { device.freezer?.dailyBudgetKB = mb(40) }
    }
    return device
  }

  /// The run of `seed` under `policy`: 300 random actions; one seed in five starts from a snapshot.
  static func scenario(seed: Int, policy: String) -> Scenario {
    var scenario = Scenario(
      name: "random-\(seed)", device: device(for: seed), apps: apps, actions: [],
      policy: PolicyName.all.first { $0.rawValue == policy } ?? .default,
      seed: UInt64(seed))
    if seed % 5 == 4 {
      scenario.snapshot = Snapshot([
        .init(process: "tiny", state: .suspended, band: 0),
        .init(process: "music", state: .suspended, footprintKB: mb(60), band: 0),
        .init(process: "feed", state: .suspended, band: 80),
        .init(process: "maps", state: .active),
      ])
    }
    // lmkd: on one seed in three, 16 more small apps, so that more than ten are cached and
    // ActivityManager's slots hold several (their order inside is lmkd's registration order).
    if policy == "lmkd", seed % 3 == 1 {
      scenario.apps += (0..<16).map { Fixture.app("small\($0)", resident: 20 + $0 % 4 * 10) }
    }
    // lmkd: PSI mode (the default) on even seeds, legacy minfree mode on odd ones.
    if policy == "lmkd", seed % 2 == 1 {
      scenario.policySettings = PolicySettings(["lmkd": ["useMinfreeLevels": .flag(true)]])
    }
    // jetsam: sustained-pressure kills after 20 s above normal, not 600 s, on one seed in three
    // (the random workloads' spells above normal are shorter than ten minutes).
    if policy == "jetsam", seed % 3 == 1 {
      scenario.policySettings = PolicySettings([
        "jetsam": ["sustainedPressureWindow": .number(20_000)]
      ])
    }
    // PSI mode with DIRECT_RECL_STUCK on (ro.lmk.direct_reclaim_threshold_ms) on one seed in four.
    if policy == "lmkd", seed % 4 == 2 {
      scenario.policySettings = PolicySettings(["lmkd": ["directReclaimThresholdMs": .number(300)]])
    }
    return scenario
  }

  static func run(seed: Int, policy: any EvictionPolicy, name: String) throws -> (
    EventLog, Scenario
  ) {
    let scenario = scenario(seed: seed, policy: name)
    var workload = PriorityMix(
      RandomWorkload(seed: UInt64(seed), apps: scenario.apps, count: 300), seed: UInt64(seed),
      scenario: scenario)
    var log = EventLog()
    _ = try Simulator.run(scenario, policy: policy, workload: &workload, observer: &log)
    return (log, scenario)
  }

  /// The first seed: 0 on every `swift test`; a campaign on seeds kept back sets
  /// `JETSIM_INVARIANT_FIRST_SEED` (docs/model.md, "Invariants").
  static let firstSeed =
    ProcessInfo.processInfo.environment["JETSIM_INVARIANT_FIRST_SEED"].flatMap(Int.init) ?? 0
  /// Seeds per policy: 200 on every `swift test` (a few minutes of CI in a debug build), 1,000 or
  /// more for a campaign (`JETSIM_INVARIANT_SEEDS`).
  static let seeds =
    ProcessInfo.processInfo.environment["JETSIM_INVARIANT_SEEDS"].flatMap(Int.init) ?? 200

  @Test(arguments: PolicyRegistry.names, 0..<4)
  func everyRowAndEveryKillObeysTheRule(policy: String, batch: Int) throws {
    // `seeds` per policy, in four batches that run in parallel.
    let size = (Self.seeds + 3) / 4
    for seed in (Self.firstSeed + batch * size)..<(Self.firstSeed + batch * size + size) {
      let (log, scenario) = try Self.run(
        seed: seed, policy: scenario(seed: seed, policy: policy).makePolicy(), name: policy)
      let problems = Self.check(log, scenario: scenario, policy: policy)
      #expect(problems.isEmpty, "\(policy), seed \(seed): \(problems.prefix(3))")
      if !problems.isEmpty { return }
    }
  }

  func scenario(seed: Int, policy: String) -> Scenario { Self.scenario(seed: seed, policy: policy) }

  /// A policy with a planted fault: every few decisions it kills the app on screen while others are
  /// off screen (a wrong victim), or declines a kill its rule calls for (a missed kill).
  struct Faulty: EvictionPolicy {
    enum Fault { case wrongVictim, missedKill }
    var base: any EvictionPolicy
    let fault: Fault
    var decisions = 0
    var name: String { base.name }

    mutating func start(_ device: DeviceView) { base.start(device) }
    mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
      base.appDidChange(app, status, nowMs: nowMs)
    }
    func actsBelowFreeKB(_ device: DeviceProfile) -> Int { base.actsBelowFreeKB(device) }
    func reconsiderAtMs(_ device: DeviceView) -> Int? { base.reconsiderAtMs(device) }

    mutating func nextEviction(_ device: DeviceView) -> Eviction? {
      guard let eviction = base.nextEviction(device), !eviction.purgeOnly else {
        return base.nextEviction(device)
      }
      decisions += 1
      guard decisions % 5 == 0 else { return eviction }
      switch fault {
      case .missedKill:
        return nil
      case .wrongVictim:
        guard let screen = device.foregroundApp, screen != eviction.app,
          screen != device.allocatingApp,
          device.apps.contains(where: { $0.state == .suspended || $0.state == .background })
        else { return eviction }
        return Eviction(app: screen, reason: eviction.reason)
      }
    }
  }

  /// The checker can fail: for every policy, each planted fault is caught within 200 seeds.
  @Test(arguments: PolicyRegistry.names)
  func theCheckerCatchesAPlantedFaultInEveryPolicy(policy: String) throws {
    for fault in [Faulty.Fault.wrongVictim, .missedKill] {
      var caught = false
      for seed in 0..<200 where !caught {
        let base = try Self.scenario(seed: seed, policy: policy).makePolicy()
        let (log, scenario) = try Self.run(
          seed: seed, policy: Faulty(base: base, fault: fault), name: policy)
        caught = !Self.check(log, scenario: scenario, policy: policy).isEmpty
      }
      #expect(caught, "\(policy): the fault \(fault) went unnoticed")
    }
  }

  /// Checks every row and kill of `log`; the problems found, in words (empty when all is well).
  static func check(_ log: EventLog, scenario: Scenario, policy: String) -> [String] {
    var problems: [String] = []
    func fail(_ row: EventRecord, _ text: String) {
      if problems.count < 20 { problems.append("seq \(row.seq) at \(row.timeMs) ms: \(text)") }
    }
    let device = scenario.device
    var replay = DeviceReplay(scenario: scenario)
    var kills = log.kills.makeIterator()
    var expectedWarnings: [Int] = []
    let events = log.events

    /// The end of an instant: the rule calls for no one, not even a process whose allocation
    /// landed in it (once landed, it is an ordinary candidate), the level registered is
    /// the level of free memory; and for jetsam, no aging time ends (nor the reaper's age or
    /// period) before the next row with a victim the rule would then want.
    func endOfInstant(_ row: EventRecord, nextTime: Int?) {
      let decision = PolicyRule.decide(policy, replay, freeKB: replay.availableKB, exempt: [])
      if decision != .none { fail(row, "the instant ends with \(decision) still called for") }
      if replay.level != device.level(availableKB: replay.availableKB) {
        fail(
          row,
          "the level registered is \(replay.level), available memory's is \(device.level(availableKB: replay.availableKB))"
        )
      }
      if !expectedWarnings.isEmpty { fail(row, "warnings missing for \(expectedWarnings)") }
      // App swap: no suspended app is left in memory that swap would hold.
      if let app = replay.swappable.first {
        fail(row, "\(replay.processes[app].name) is suspended in memory though swap holds it")
      }
      guard policy == "jetsam" else { return }
      // The sustained-pressure handler's next moment, if it comes before the next row: with the
      // level above normal and anyone at the head of IDLE then, it kills (in this instant, if the
      // moment is now); else it stops.
      if let moment = PolicyRule.sustainedPressureMoment(replay), moment.atMs >= row.timeMs,
        moment.atMs < (nextTime ?? Int.max)
      {
        let head = PolicyRule.idleHead(replay, exempt: [], nowMs: moment.atMs).head
        if replay.level != .normal, let head {
          fail(
            row,
            "at \(moment.atMs) ms the sustained-pressure handler calls for \(replay.processes[head].name), but nothing happens"
          )
        } else if moment.starts {
          replay.pressureRoseMs = nil
        } else {
          replay.lastSustainedKillMs = nil
        }
      }
      for end in replay.agingEnds(after: row.timeMs).sorted() where end < (nextTime ?? Int.max) {
        var later = replay
        later.nowMs = end
        let wanted = PolicyRule.decide(policy, later, freeKB: later.availableKB, exempt: [])
        if wanted != .none {
          fail(
            row, "at \(end) ms an aging time ends and \(wanted) is called for, but nothing happens")
          break
        }
      }
    }

    for (position, row) in events.enumerated() {
      if position > 0, events[position - 1].timeMs != row.timeMs {
        endOfInstant(events[position - 1], nextTime: row.timeMs)
        (replay.lmkdKilledInInstant, replay.lmkdDroppedAfterKill) = (false, false)
        if policy == "lmkd" {
          PolicyRule.registerLadderMoves(&replay)
        }
      }
      replay.nowMs = row.timeMs
      replay.demoteAging(upTo: row.timeMs)
      if row.seq != position + 1 { fail(row, "seq out of order") }
      // Warnings: exactly the apps running when the level entered warning, in app order.
      if row.kind == .memoryWarning {
        if expectedWarnings.first == row.app {
          expectedWarnings.removeFirst()
        } else {
          fail(row, "an unexpected memory warning to \(replay.processes[row.app].name)")
        }
      } else if !expectedWarnings.isEmpty {
        fail(row, "warnings missing for \(expectedWarnings)")
        expectedWarnings = []
      }
      if row.kind == .pressure {
        let implied = device.level(availableKB: row.availableKB - row.pendingKB)
        if row.pressure != implied {
          fail(row, "pressure row says \(row.pressure), available memory \(implied)")
        }
        if row.pressure == replay.level { fail(row, "a pressure row without a change of level") }
        if replay.level == .normal {
          expectedWarnings = replay.processes.indices.filter {
            !replay.processes[$0].isSystem && replay.processes[$0].state.isRunning
          }
        }
      } else if row.pressure != replay.level {
        fail(row, "pressure \(row.pressure) but the level registered is \(replay.level)")
      }
      if row.kind == .kill {
        guard let kill = kills.next(), kill.seq == row.seq, kill.app == row.app else {
          fail(row, "a kill row without its kill record")
          return problems
        }
        checkKill(kill, row: row, replay: &replay, policy: policy, fail: fail)
      }
      // A purge by the policy (of an app on screen): the rule's victim.
      if row.kind == .purge, row.from?.isForeground == true {
        let expected = PolicyRule.decide(
          policy, replay, freeKB: replay.availableKB - row.pendingKB,
          exempt: row.allocatingApp >= 0 ? [row.allocatingApp] : [])
        switch expected {
        case .victim(row.app, _): break
        case .anyOf(let candidates) where candidates.contains(row.app): break
        default:
          fail(row, "purged \(replay.processes[row.app].name); the rule calls for \(expected)")
        }
      }
      if row.app >= 0, let from = row.from, let to = row.to {
        let process = replay.processes[row.app]
        if from != process.state {
          fail(row, "\(process.name) was \(process.state), the row says \(from)")
        }
        let legal =
          from == to || from.canMove(to: to) || [.snapshot, .start, .relaunch].contains(row.kind)
          || (process.isSystem && row.kind == .kill)
        if !legal { fail(row, "an illegal transition \(from)>\(to)") }
        if from == .suspended || to == .suspended || process.isSystem, let callback = row.callback {
          fail(row, "\(process.name) got \(callback) though it runs no UIApplication code")
        }
      }
      // A freeze: the app the freezer's rule picks, when its pass may freeze.
      if row.kind == .freeze, let problem = replay.freezeProblem(row.app) { fail(row, problem) }
      // The lock, as the rows show it: only the app behind it carries the flag, on every row of
      // its from the one on which it leaves the screen until an app comes on screen (its own
      // row coming back included) or it dies (its kill row not).
      if row.app >= 0, let from = row.from, let to = row.to {
        let startsLock = row.isBehindLock && from.isForeground
        let expected = replay.behindLock == row.app && to.isResident
        if row.isBehindLock != expected && !startsLock {
          fail(
            row, "\(replay.processes[row.app].name)'s row says behind the lock: \(row.isBehindLock)"
          )
        }
      }
      let availableBefore = replay.availableKB
      // lmkd: ActivityManager's update of the instant's changes before a death (and after it,
      // `noteLmkd`).
      if policy == "lmkd", row.from?.isResident == true, row.to?.isResident == false {
        PolicyRule.registerLadderMoves(&replay)
      }
      replay.apply(row)
      if policy == "lmkd" { noteLmkd(row, availableBeforeKB: availableBefore, replay: &replay) }
      checkMemory(row, replay: replay, fail: fail)
      if replay.processes.filter(\.state.isForeground).count > 1 { fail(row, "two apps on screen") }
    }
    if let last = events.last { endOfInstant(last, nextTime: nil) }
    if kills.next() != nil { problems.append("a kill record without its row") }
    return problems
  }

  /// What lmkd's rule needs beyond the processes: when each got its adj class, the order in which
  /// lmkd registered the processes on ActivityManager's ladders (before and after a death, and at
  /// the end of each instant: `PolicyRule.registerLadderMoves`), and in this instant whether lmkd
  /// killed and whether available memory fell after its last kill.
  static func noteLmkd(_ row: EventRecord, availableBeforeKB: Int, replay: inout DeviceReplay) {
    let fixedAdjs = PolicyRule.lmkdFixedAdjs(replay)
    for index in replay.processes.indices {
      let adjClass =
        replay.processes[index].state.isResident ? fixedAdjs[index] ?? Int.max : Int.min
      if adjClass != replay.adjClass[index] {
        replay.adjClass[index] = adjClass
        replay.adjSince[index] = row.timeMs
      }
    }
    // ActivityManager's update after a death.
    if row.from?.isResident == true, row.to?.isResident == false {
      PolicyRule.registerLadderMoves(&replay)
    }
    if row.kind == .kill, row.reason?.isLmk == true {
      (replay.lmkdKilledInInstant, replay.lmkdDroppedAfterKill) = (true, false)
    } else if replay.availableKB < availableBeforeKB || row.pendingKB > 0 {
      replay.lmkdDroppedAfterKill = replay.lmkdKilledInInstant
    }
    let memory = PolicyRule.lmkdMemory(replay, availableKB: replay.availableKB - row.pendingKB)
    if memory.freeKB >= memory.watermarks.minKB {
      replay.lmkdAboveMinMs = row.timeMs
    } else {
      if let above = replay.lmkdAboveMinMs, above != row.timeMs {
        replay.lmkdDirectReclaimSinceMs = nil
      }
      replay.lmkdDirectReclaimSinceMs = replay.lmkdDirectReclaimSinceMs ?? row.timeMs
      replay.lmkdAboveMinMs = nil
    }
  }

  /// The memory a row shows, against the processes the rows left in memory: every page is in one
  /// place (free + page cache + the processes' + wired = physical), free memory is never negative,
  /// and the cache takes every page above the free target.
  static func checkMemory(
    _ row: EventRecord, replay: DeviceReplay, fail: (EventRecord, String) -> Void
  ) {
    let device = replay.device
    let pages = row.freeKB + row.fileBackedKB + replay.heldKB + device.reservedKB
    if pages != device.memoryKB {
      fail(
        row,
        "free \(row.freeKB) + file-backed \(row.fileBackedKB) + processes \(replay.heldKB) + wired \(device.reservedKB) is \(pages), not the memory \(device.memoryKB)"
      )
    }
    if row.availableKB != row.freeKB + row.fileBackedKB {
      fail(row, "available \(row.availableKB) is not free + file-backed")
    }
    if row.freeKB < 0 || row.fileBackedKB < 0 {
      fail(row, "free or file-backed memory is negative")
    }
    if row.fileBackedKB > 0, row.freeKB != device.fileCache.freeTargetKB {
      fail(row, "the page cache holds pages while free memory \(row.freeKB) is off its target")
    }
  }

  /// A kill, against the rule: a policy's choice is the rule's victim; the allocating process dies
  /// only when its memory cannot fit, or would pass its limit; timers and the user kill by their
  /// own rules.
  static func checkKill(
    _ kill: KillRecord, row: EventRecord, replay: inout DeviceReplay, policy: String,
    fail: (EventRecord, String) -> Void
  ) {
    let process = replay.processes[kill.app]
    if kill.freedKB != replay.physicalKB(kill.app) {
      fail(row, "freed \(kill.freedKB), held \(replay.physicalKB(kill.app))")
    }
    if kill.footprintKB != process.footprintKB { fail(row, "the kill's footprint differs") }
    if kill.availableBeforeKB != replay.availableKB {
      fail(row, "available before the kill differs")
    }
    let warns = !process.isSystem && process.state == .background && kill.reason.warnsBackgroundApp
    if (kill.callback == .willTerminate) != warns {
      fail(row, "callback \(String(describing: kill.callback))")
    }
    let exempt: Set<Int> = kill.allocatingApp >= 0 ? [kill.allocatingApp] : []
    switch kill.reason {
    case .vmPageshortage, .highwater, .longIdleExit, .procThrashing, .lowSwap, .idleExit,
      .lmkPressureAfterKill, .lmkNotResponding, .lmkLowSwapAndThrashing,
      .lmkLowMemAndSwap, .lmkLowMemAndThrashing, .lmkDirectReclAndThrashing, .lmkLowMemAndSwapUtil,
      .lmkLowFilecacheAfterThrashing, .lmkLowMem, .lmkDirectReclStuck, .lmkNone:
      if kill.app == kill.allocatingApp {
        // The allocating process itself: only when nothing else is left and it cannot fit.
        if kill.availableBeforeKB - kill.pendingKB >= 0 {
          fail(row, "the allocator died though it fit")
        }
        let other = PolicyRule.decide(
          policy, replay, freeKB: kill.availableBeforeKB - kill.pendingKB, exempt: exempt)
        if other != .none {
          fail(row, "the allocator died while the rule still calls for \(other)")
        }
        return
      }
      if kill.rank < 1 { fail(row, "a policy kill without a rank") }
      if policy == "jetsam", kill.reason == .longIdleExit {
        if let problem = PolicyRule.reaperKillProblem(
          replay, app: kill.app, freeKB: kill.availableBeforeKB - kill.pendingKB, exempt: exempt)
        {
          fail(row, problem)
        }
        return
      }
      if policy == "jetsam", kill.reason == .procThrashing {
        // An aggressive march goes on whatever the memory, one head after another.
        if !PolicyRule.aggressiveHeads(replay, exempt: exempt).contains(kill.app) {
          fail(row, "killed \(process.name) (proc-thrashing), not a head an aggressive march takes")
        }
        return
      }
      if policy == "lmkd", !replay.lmkd.useMinfreeLevels {
        if let problem = PolicyRule.lmkdPSIKillProblem(
          replay, app: kill.app, reason: kill.reason,
          availableKB: kill.availableBeforeKB - kill.pendingKB, exempt: exempt, nowMs: kill.timeMs)
        {
          fail(row, problem)
        }
        return
      }
      let expected = PolicyRule.decide(
        policy, replay, freeKB: kill.availableBeforeKB - kill.pendingKB, exempt: exempt)
      switch expected {
      case .victim(let app, let reason):
        if app != kill.app || reason != kill.reason {
          fail(
            row,
            "killed \(process.name) (\(kill.reason)); the rule calls for \(replay.processes[app].name) (\(reason))"
          )
        }
      case .anyOf(let candidates):
        if !candidates.contains(kill.app) { fail(row, "killed \(process.name), not a candidate") }
      case .none:
        fail(row, "killed \(process.name) (\(kill.reason)) though the rule calls for no kill")
      }
    case .perProcessLimit:
      let limit =
        process.isSystem
        ? replay.device.systemProcesses[kill.app - replay.appCount].hardLimitKB ?? Int.max
        : replay.limits[kill.app]
      if process.footprintKB + kill.pendingKB <= limit {
        fail(row, "a per-process-limit kill under the limit")
      }
    case .watchdog, .backgroundTaskExpired, .exitOnSuspend:
      if process.isSystem || process.state != .background {
        fail(row, "\(kill.reason) of a process not in its background time")
      }
    case .userForceQuit, .reboot:
      break
    case .sustainedPressure:
      if let problem = PolicyRule.sustainedPressureProblem(
        &replay, policy: policy, app: kill.app, exempt: exempt, nowMs: kill.timeMs)
      {
        fail(row, problem)
      }
    case .amTooManyCached, .amTooManyEmpty, .amTrimEmpty:
      // ActivityManager trims by count, never an app at work: lmkd's runs only.
      if policy != "lmkd" { fail(row, "an ActivityManager kill under \(policy)") }
      if (kill.reason == .amTooManyCached) == process.isEmptyProcess || process.state != .suspended
      {
        fail(row, "\(kill.reason) of \(process.name), which is not cached or empty")
      }
    }
  }

  /// The freezer's checker can fail: a `freeze` row moved to another suspended app is caught.
  @Test func theCheckerCatchesAFreezeOfTheWrongApp() throws {
    var caught = 0
    for seed in 0..<40 {
      let (log, scenario) = try Self.run(
        seed: seed, policy: Self.scenario(seed: seed, policy: "jetsam").makePolicy(),
        name: "jetsam")
      guard let position = log.events.firstIndex(where: { $0.kind == .freeze }) else { continue }
      let row = log.events[position]
      guard
        let other = log.events[..<position].last(where: {
          $0.app >= 0 && $0.app != row.app && $0.app < scenario.apps.count && $0.to == .suspended
        })?.app
      else { continue }
      var planted = EventLog()
      for (index, event) in log.events.enumerated() {
        var copy = event
        if index == position { copy.app = other }
        planted.record(copy)
      }
      for kill in log.kills { planted.record(kill) }
      #expect(Self.check(log, scenario: scenario, policy: "jetsam").isEmpty)
      let problems = Self.check(planted, scenario: scenario, policy: "jetsam")
      if problems.contains(where: { $0.contains("froze") || $0.contains("a freeze") }) {
        caught += 1
      }
    }
    #expect(caught > 0, "no run froze an app, or the planted freezes went unnoticed")
  }

  @Test func theSweepReachesEveryKillReasonCallbackAndKindOfProcess() throws {
    var reasons = Set<KillReason>()
    var callbacks = Set<Callback>()
    var kinds = Set<EventKind>()
    for policy in ["largest-first", "jetsam"] {
      for seed in 0..<80 {
        let (log, _) = try Self.run(
          seed: seed, policy: Self.scenario(seed: seed, policy: policy).makePolicy(), name: policy)
        reasons.formUnion(log.kills.map(\.reason))
        callbacks.formUnion(log.events.compactMap(\.callback))
        kinds.formUnion(log.events.map(\.kind))
      }
    }
    #expect(reasons == Set(KillReason.allCases.filter { !$0.isLmk && !$0.isActivityManager }))
    // lmkd's own reasons, in both modes: those its defaults reach on these devices.
    var lmk = Set<KillReason>()
    for seed in 0..<40 {
      let (log, _) = try Self.run(
        seed: seed, policy: Self.scenario(seed: seed, policy: "lmkd").makePolicy(), name: "lmkd")
      lmk.formUnion(log.kills.map(\.reason).filter(\.isLmk))
    }
    #expect(
      lmk.isSuperset(of: [
        .lmkNone, .lmkLowMem, .lmkPressureAfterKill, .lmkLowMemAndThrashing, .lmkDirectReclStuck,
      ]),
      "\(lmk)")
    #expect(callbacks == Set(Callback.allCases))
    // The random apps have no separate limits: one run of an app over a non-fatal active limit.
    let limited = Scenario(
      name: "limit", device: DeviceProfile(name: "1 GB", memoryKB: mb(1024), reservedKB: mb(300)),
      apps: [Fixture.app("a", resident: 100) { $0.activeLimitKB = mb(150) }],
      actions: [
        TimedAction(0, .open("a")), TimedAction(sec(1), .allocate("a", kilobytes: mb(60))),
      ],
      policy: .jetsam, durationMs: sec(2))
    kinds.formUnion(try Simulator.run(limited).events.map(\.kind))
    // The random runs seldom spend the freezer's budget with a thawed frozen app off screen: one
    // run that does (JetsamFreezerTests), its demotion checked by the sweep's rules.
    var device = JetsamFreezerTests.device()
    device.freezer?.dailyBudgetKB = mb(20)
    let freezer = Scenario(
      name: "freezer", device: device, apps: JetsamFreezerTests.apps(7),
      actions: JetsamFreezerTests.openAll(7) + [
        TimedAction(sec(12), .open("hog")), TimedAction(sec(13), .home),
        TimedAction(sec(20), .open("a")), TimedAction(sec(21), .home),
      ], policy: .jetsam, durationMs: sec(23))
    var freezerLog = EventLog()
    _ = try Simulator.run(freezer, observer: &freezerLog)
    #expect(Self.check(freezerLog, scenario: freezer, policy: "jetsam") == [])
    kinds.formUnion(freezerLog.events.map(\.kind))
    #expect(
      Set(EventKind.allCases).subtracting(kinds).isEmpty,
      "\(Set(EventKind.allCases).subtracting(kinds))")
  }
}
