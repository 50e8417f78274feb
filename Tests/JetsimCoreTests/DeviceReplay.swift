import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// The device rebuilt from a run's event log alone, row by row, independently of the simulation's
/// code: what the invariant sweep checks every row and every kill against. It knows what the rows
/// show (states, footprints, modes, times), and the rules derive everything else from that.
struct DeviceReplay {
  struct Process {
    var name: String
    var isSystem: Bool
    var systemKind: SystemProcessKind?
    var state: AppState = .notRunning
    /// When the process started, in order of starts (the kernel's task list).
    var started = 0
    var footprintKB = 0
    var modes: Set<BackgroundMode> = []
    /// When it last entered the background state.
    var lastUsedMs = 0
    /// jetsam: the band it asks for, when it entered it (and in which row), its aging time, and a
    /// snapshot's band while it holds.
    var requestedBand = 0
    var bandEntryMs = 0
    var bandEntrySeq = 0
    var agingMs = 0
    var agingBand = 0
    var snapshotBand: Int?
    /// jetsam's priority actions, as the rows show them: whether it is dirty, the assertion it
    /// holds (or held last: the kernel keeps its band), whether it holds it, and what a release
    /// left (a floor while dirty or never idle-exiting; IDLE if untracked).
    var dirty = false
    var assertion = 0
    var holdsAssertion = false
    var releaseFloor = false
    var releasedToIdle = false
    /// Whether its memory is in swap (app swap), and since when it is suspended.
    var swapped = false
    var suspendedMs = 0
    /// Whether it has been on screen in this life (Android's "has shown UI"): an app that has not
    /// holds no activity, an empty process once its work is over.
    var shownUI = false
    /// Whether it holds no activity (ActivityManager's empty processes): a system process, or an
    /// app not on screen in this life.
    var isEmptyProcess: Bool { isSystem || !shownUI }
    /// XNU's freezer (`DeviceReplay+Freezer.swift`): frozen in this life, pinned to band 75,
    /// thawed since its last freeze, its thaws, and its memory in swap.
    var frozen = false
    var freezerElevated = false
    var refreezeEligible = false
    var thawCount = 0
    var frozenKB = 0
  }

  let device: DeviceProfile
  let appCount: Int
  /// Each app's per-app limit; each process's position among the names sorted (the last
  /// tie-break).
  let limits: [Int]
  /// Each app's separate active and inactive limits, if its profile gives them.
  let separateLimits: [MemoryLimits?]
  let nameRank: [Int]
  /// Each process's jetsam coalition: an app's id, or a system process's coalition (its own name
  /// when it gives none).
  let coalitions: [String]
  var processes: [Process]
  var level = PressureLevel.normal
  var nowMs = 0
  /// Processes started so far.
  var starts = 0
  /// Android's previous app: the last app that left the screen, until it returns or dies; and
  /// since when. ActivityManager's (lmkd's) knows the lock (`behindLock`); jetsim 0.3's
  /// (`oom-badness`) takes an app leaving the screen as the device locks as any other.
  var previousApp: Int?
  var previousSinceMs = 0
  var recencyPreviousApp: Int?
  /// The app that was on screen when the device locked, until an app comes on screen, an open
  /// that unlocked the device fails on the way, or it dies (the rows say so): Android's top app
  /// ("top-sleeping").
  var behindLock: Int?
  /// lmkd: when each process got its present adj class (see `PolicyRule.lmkdFixedAdjs`), and the
  /// class; the settings of the run; in the current instant, whether lmkd killed and whether
  /// available memory fell after its last kill.
  var adjSince: [Int] = []
  var adjClass: [Int] = []
  /// lmkd: each process's slot on ActivityManager's ladders as lmkd last had it registered (nil:
  /// on no ladder), and the order of those registrations (`PolicyRule.lmkdLadderWalk`).
  var ladderAdj: [Int?] = []
  var ladderRegistered: [Int] = []
  var ladderRegistrations = 0
  /// lmkd: whether the processes of the start are registered (the first update that finds a process
  /// on a ladder registers them, the least recent first).
  var ladderStartRegistered = false
  var lmkd = LmkdPolicy.Parameters()
  var jetsam = JetsamPolicy.Parameters()
  var lmkdKilledInInstant = false
  var lmkdDroppedAfterKill = false
  /// lmkd: since when lmkd's free memory has been below the min watermark (direct reclaim), and
  /// when it was last above it, if since then (a dip above and back inside one instant does not
  /// end it: lmkd may not have seen it).
  var lmkdDirectReclaimSinceMs: Int?
  var lmkdAboveMinMs: Int?
  /// jetsam's reaper: when the latest sweep killed (its `long-idle-exit` kills are in one
  /// instant: after each it goes on, and ends when it finds no one).
  var lastSweepKillMs: Int?
  /// jetsam's aging bands: when their lists last changed (the time of the last row), and the
  /// last row's seq (a demotion between two rows is ordered between them).
  var agingChangedMs = 0
  var lastRowSeq = 0
  /// When the level last rose from normal after at least 5 s at normal (a rise that schedules
  /// jetsam's sustained-pressure handler), and when the level last returned to normal.
  var pressureRoseMs: Int?
  var normalSinceMs = Int.min / 2
  /// jetsam's sustained-pressure handler: its latest kill, and the kills it may still make.
  var lastSustainedKillMs: Int?
  var sustainedKillsLeft = 0
  /// The last process a policy purged without bringing available memory back to the pressure
  /// level, and when: under jetsam it dies in the same instant all the same.
  var lastPurge: (app: Int, timeMs: Int)?
  /// The freezer's budget interval: its end, its budget and what was written in it, in pages.
  var freezerIntervalEndMs = DeviceProfile.Freezer.intervalMs
  var freezerMaxPages = 0
  var freezerPageouts = 0
  private let snapshotBands: [String: Int]
  /// Each snapshot entry's position, and how many there are: the recency before time 0.
  private let snapshotOrder: [String: Int]
  private let snapshotCount: Int

  init(scenario: Scenario) {
    device = scenario.device
    appCount = scenario.apps.count
    processes =
      scenario.apps.map { Process(name: $0.id, isSystem: false, systemKind: nil) }
      + scenario.device.systemProcesses.map {
        Process(name: $0.name, isSystem: true, systemKind: $0.kind)
      }
    var bands: [String: Int] = [:]
    var order: [String: Int] = [:]
    for (position, entry) in (scenario.snapshot?.entries ?? []).enumerated() {
      bands[entry.process] = entry.band
      order[entry.process] = position
    }
    snapshotBands = bands
    snapshotOrder = order
    snapshotCount = scenario.snapshot?.entries.count ?? 0
    limits = scenario.apps.map { $0.memoryLimitKB ?? scenario.device.foregroundLimitKB }
    separateLimits = scenario.apps.map { $0.memoryLimits(on: scenario.device) }
    adjSince = Array(repeating: 0, count: processes.count)
    adjClass = Array(repeating: Int.min, count: processes.count)
    ladderAdj = Array(repeating: nil, count: processes.count)
    ladderRegistered = Array(repeating: 0, count: processes.count)
    lmkd = ((try? scenario.makePolicy(.lmkd)) as? LmkdPolicy)?.parameters ?? LmkdPolicy.Parameters()
    jetsam =
      ((try? scenario.makePolicy(.jetsam)) as? JetsamPolicy)?.parameters
      ?? JetsamPolicy.Parameters()
    let names = processes.map(\.name)
    let sorted = names.indices.sorted { names[$0] < names[$1] }
    var rank = [Int](repeating: 0, count: names.count)
    for (position, index) in sorted.enumerated() { rank[index] = position }
    nameRank = rank
    coalitions =
      scenario.apps.map(\.id) + scenario.device.systemProcesses.map { $0.coalition ?? $0.name }
    freezerMaxPages = device.freezer?.dailyBudgetPages ?? 0
  }

  func physicalKB(_ index: Int) -> Int {
    let process = processes[index]
    // In swap: nothing in RAM (app swap, on storage) or zram's compressed copy.
    if process.swapped {
      return device.zram.map { process.footprintKB * 1000 / $0.compressionPermille } ?? 0
    }
    // Frozen: what the freezer wrote to swap is out of RAM.
    let held = process.footprintKB - min(process.frozenKB, process.footprintKB)
    return process.state == .suspended && device.compressionPermille > 1000
      ? held * 1000 / device.compressionPermille : held
  }

  /// The physical memory every process holds, as the rows show them.
  var heldKB: Int { processes.indices.reduce(0) { $0 + physicalKB($1) } }
  /// Available memory: usable memory less every process's physical memory.
  var availableKB: Int { device.usableKB - heldKB }

  var foreground: Int? { processes.firstIndex { $0.state.isForeground } }

  var keepsRunning: (Int) -> Bool {
    { index in
      !processes[index].modes.isDisjoint(with: [.audio, .location, .voip])
    }
  }

  /// Applies one row to the rebuilt device.
  mutating func apply(_ row: EventRecord) {
    nowMs = row.timeMs
    (agingChangedMs, lastRowSeq) = (row.timeMs, row.seq)
    if row.kind == .pressure {
      if row.pressure == .normal {
        (pressureRoseMs, normalSinceMs) = (nil, nowMs)
      } else if level == .normal {
        pressureRoseMs = nowMs - normalSinceMs >= 5_000 ? nowMs : nil
      }
      level = row.pressure
      return
    }
    guard row.app >= 0, let to = row.to else { return }
    let index = row.app
    let old = processes[index].state
    // A policy's purge is of an app on screen; an app leaving the screen is purged in the
    // background.
    if row.kind == .purge, row.from?.isForeground == true {
      let enough = row.availableKB - row.pendingKB >= device.warningThresholdKB
      lastPurge = enough ? nil : (index, row.timeMs)
    }
    if row.kind == .kill, row.reason == .longIdleExit { lastSweepKillMs = row.timeMs }
    if row.kind == .swapOut { processes[index].swapped = true }
    if to != .suspended { processes[index].swapped = false }
    if to == .suspended, old != .suspended { processes[index].suspendedMs = row.timeMs }
    applyFreezer(row, old: old)
    if row.kind == .modeStart, let mode = row.mode { processes[index].modes.insert(mode) }
    if row.kind == .modeStop, let mode = row.mode { processes[index].modes.remove(mode) }
    if to == .notRunning { processes[index].modes = [] }
    notePriority(row, old: old)
    if row.kind == .snapshot {
      // An earlier entry of the snapshot was used less recently.
      processes[index].lastUsedMs = (snapshotOrder[processes[index].name] ?? 0) - snapshotCount
    } else if to == .background, old != .background {
      processes[index].lastUsedMs = row.timeMs
    }
    if !old.isResident, to.isResident {
      starts += 1
      processes[index].started = starts
    }
    processes[index].state = to
    // ActivityManager's `mHasShownUi`: on screen at some time in this life; a snapshot's
    // suspended app was left by the user.
    let leftByUser = row.kind == .snapshot && to == .suspended
    processes[index].shownUI =
      to.isResident && (processes[index].shownUI || to.isForeground || leftByUser)
    processes[index].footprintKB = row.footprintKB
    // Android's previous app (ActivityManager's mPreviousProcess). An app leaving the screen as
    // the device locks stays the top app until an app comes on screen: then, if another, it is
    // the previous app.
    if row.isBehindLock, old.isForeground { behindLock = index }
    if (to.isForeground && !old.isForeground) || row.endsLock, let top = behindLock {
      behindLock = nil
      if top != index {
        previousApp = top
        previousSinceMs = row.timeMs
      }
    }
    if old.isForeground, !to.isForeground, to.isResident, !row.isBehindLock {
      previousApp = index
      previousSinceMs = row.timeMs
    } else if to.isForeground, previousApp == index {
      previousApp = nil
    }
    if !to.isResident, previousApp == index { previousApp = nil }
    if !to.isResident, behindLock == index { behindLock = nil }
    if old.isForeground, !to.isForeground, to.isResident {
      recencyPreviousApp = index
    } else if (to.isForeground || !to.isResident), recencyPreviousApp == index {
      recencyPreviousApp = nil
    }
    // jetsam: a change of band is an entry at the tail of the new band's list.
    if row.kind == .snapshot {
      processes[index].snapshotBand = snapshotBands[processes[index].name]
    } else if old != to || [.assert, .release, .dirty, .clean, .freeze, .demote].contains(row.kind)
    {
      processes[index].snapshotBand = nil
    }
    if to.isResident {
      let band = requestedBand(index)
      if !old.isResident || band != processes[index].requestedBand {
        processes[index].requestedBand = band
        processes[index].bandEntryMs = row.timeMs
        processes[index].bandEntrySeq = row.seq * 1_000
        // A snapshot's entry was in its band before time 0: no aging starts then.
        // A demotion by the freezer goes straight to IDLE (`MEMSTAT_PRIORITY_NO_AGING`).
        if band == 0, row.kind != .snapshot, row.kind != .demote {
          // Tracked: the daemons' aging band; managed (apps, extensions): the apps'; else none.
          let profile = processes[index].isSystem ? device.systemProcesses[index - appCount] : nil
          if let profile, profile.dirtyTracking != .none {
            (processes[index].agingBand, processes[index].agingMs) = (10, profile.agingTimeMs)
          } else if profile?.isManaged ?? true {
            (processes[index].agingBand, processes[index].agingMs) = (20, 2_000)
          } else {
            processes[index].agingMs = 0
          }
        } else {
          processes[index].agingMs = 0
        }
      }
    }
  }

  /// The band a process asks for (XNU's bands, as docs/policies.md lists them), before aging.
  func requestedBand(_ index: Int) -> Int {
    let process = processes[index]
    if let band = process.snapshotBand { return band }
    if process.isSystem {
      let profile = device.systemProcesses[index - appCount]
      let own = profile.band ?? (profile.kind == .activeDaemon ? 30 : 0)
      switch profile.dirtyTracking {
      case .none:
        if process.holdsAssertion { return process.assertion }
        return process.releasedToIdle ? 0 : own
      case .idleExit, .noIdleExit:
        let asked = profile.dirtyTracking == .idleExit && !process.dirty ? 0 : own
        let raised = process.holdsAssertion || process.releaseFloor
        return raised ? max(asked, process.assertion) : asked
      }
    }
    var band = process.holdsAssertion ? process.assertion : 0
    // An app in the background state runs code: a mode keeps it there, or background work.
    if process.state == .background { band = max(band, 30) }
    if process.modes.contains(.location) || process.modes.contains(.voip) { band = max(band, 40) }
    if process.state.isForeground { band = max(band, 100) }
    if process.modes.contains(.audio) { band = max(band, 120) }
    // Frozen and pinned: any band up to the freezer's 75 is 75 (kern_memorystatus.c:2869–2878).
    return process.freezerElevated && band <= 75 ? 75 : band
  }

  /// The priority actions' rows (`memorystatus_set_priority`, `memorystatus_dirty_set`), and a
  /// new life's start: clean and unasserted, but dirty for a tracked idle-exit daemon asking for a
  /// band above IDLE (an active daemon's default is 30), unless a snapshot places it at 10 or below.
  mutating func notePriority(_ row: EventRecord, old: AppState) {
    let index = row.app
    if !old.isResident || row.to == .notRunning {
      let profile = processes[index].isSystem ? device.systemProcesses[index - appCount] : nil
      let asksAboveIdle = profile.map { $0.band.map { $0 > 0 } ?? ($0.kind == .activeDaemon) }
      let placedLow = row.kind == .snapshot && (snapshotBands[processes[index].name] ?? 11) <= 10
      processes[index].dirty =
        profile?.dirtyTracking == .idleExit && asksAboveIdle == true && !placedLow
      (processes[index].assertion, processes[index].holdsAssertion) = (0, false)
      (processes[index].releaseFloor, processes[index].releasedToIdle) = (false, false)
    }
    let tracking =
      processes[index].isSystem ? device.systemProcesses[index - appCount].dirtyTracking : .none
    switch row.kind {
    case .assert:
      processes[index].assertion = row.assertedBand ?? 0
      processes[index].holdsAssertion = true
      (processes[index].releaseFloor, processes[index].releasedToIdle) = (false, false)
    case .release:
      processes[index].holdsAssertion = false
      processes[index].releasedToIdle = tracking == .none
      processes[index].releaseFloor =
        tracking != .none && (processes[index].dirty || tracking == .noIdleExit)
    case .dirty, .clean:
      processes[index].dirty = row.kind == .dirty
      processes[index].releaseFloor = false
    default: break
    }
  }

  /// Whether a process's active limit is in force (`memstat_proc_is_active_locked`,
  /// kern_memorystatus.c:5034): never for one frozen and pinned in band 75 (lines 5038–5051);
  /// else a tracked one while dirty, or (allowed to idle exit) above IDLE; a managed one (an app,
  /// an extension) while it holds an assertion or runs code; any other above IDLE.
  func isActive(_ index: Int, band: Int) -> Bool {
    let process = processes[index]
    if process.freezerElevated && band == 75 { return false }
    let profile = process.isSystem ? device.systemProcesses[index - appCount] : nil
    switch profile?.dirtyTracking ?? .none {
    case .idleExit: return process.dirty || band > 0
    case .noIdleExit: return process.dirty
    case .none:
      // An app running code holds RunningBoard's assertion; a system process only an explicit one.
      let asserted = process.holdsAssertion || (!process.isSystem && process.state.isRunning)
      return profile?.isManaged ?? true ? asserted : band > 0
    }
  }

  /// The memory in swap.
  var swapUsedKB: Int {
    processes.filter(\.swapped).reduce(0) { $0 + $1.footprintKB }
  }

  /// Apps suspended in memory that swap would hold now: none may be left at the end of an instant.
  var swappable: [Int] {
    guard let size = device.appSwap?.budgetKB ?? device.zram?.sizeKB else { return [] }
    let room = size - swapUsedKB
    return processes.indices.filter {
      let process = processes[$0]
      return !process.isSystem && process.state == .suspended && !process.swapped
        && process.footprintKB > 0 && process.footprintKB <= room
    }
  }

  /// A process's band at `nowMs` and its place in that band's list; `nowMs` is at or after the
  /// last row (an aging process leaves when every one before it in its band has: `demoteAging`).
  func bandPosition(_ index: Int, nowMs: Int) -> (band: Int, entryMs: Int, seq: Int) {
    let process = processes[index]
    guard isAging(index) else {
      return (process.requestedBand, process.bandEntryMs, process.bandEntrySeq)
    }
    var leavesMs = max(agingEnd(index), agingChangedMs)
    for other in processes.indices
    where isAging(other) && processes[other].agingBand == process.agingBand
      && entry(other) < entry(index)
    {
      leavesMs = max(leavesMs, agingEnd(other))
    }
    return nowMs < leavesMs
      ? (process.agingBand, process.bandEntryMs, process.bandEntrySeq)
      : (0, leavesMs, process.bandEntrySeq)
  }

  /// Whether process `index` is in an aging band on its way to IDLE.
  func isAging(_ index: Int) -> Bool {
    let process = processes[index]
    return process.state.isResident && process.requestedBand == 0 && process.agingMs > 0
  }

  func agingEnd(_ index: Int) -> Int { processes[index].bandEntryMs + processes[index].agingMs }
  func entry(_ index: Int) -> (Int, Int) {
    (processes[index].bandEntryMs, processes[index].bandEntrySeq)
  }

  /// XNU's demotions from the aging bands due by `time` (`_memstat_perform_idle_demotion_for_band`,
  /// xnu-11417 kern_memorystatus.c lines 2500–2557): each band is a list in order of entry,
  /// demoted from its head while the head's time has ended; the timer fires at the earliest end
  /// among the heads (`_memstat_find_earliest_idle_deadline`), not before the lists last changed
  /// (a process leaving reschedules it). Of two heads due in one firing, the one whose time ended
  /// first goes first. A demoted process enters IDLE at the firing, after the last row.
  mutating func demoteAging(upTo time: Int) {
    func heads() -> [Int] {
      var head: [Int: Int] = [:]
      for index in processes.indices where isAging(index) {
        let band = processes[index].agingBand
        if let other = head[band], entry(other) < entry(index) { continue }
        head[band] = index
      }
      return Array(head.values)
    }
    var demoted = 0
    while let earliest = heads().map(agingEnd).min(), max(earliest, agingChangedMs) <= time {
      let firing = max(earliest, agingChangedMs)
      while let next = heads().filter({ agingEnd($0) <= firing }).min(by: {
        (agingEnd($0), entry($0).1) < (agingEnd($1), entry($1).1)
      }) {
        demoted += 1
        processes[next].agingMs = 0
        (processes[next].bandEntryMs, processes[next].bandEntrySeq) = (
          firing, lastRowSeq * 1_000 + demoted
        )
      }
      agingChangedMs = firing
    }
  }

  /// The moments after `time` when jetsam's view changes with time alone: ends of aging times.
  func agingEnds(after time: Int) -> [Int] {
    processes.indices.compactMap { index in
      isAging(index) && agingEnd(index) > time ? agingEnd(index) : nil
    }
  }
}

extension DeviceReplay {
  /// Whether jetsam takes process `index`, in `band`, for a high-watermark kill. With separate
  /// limits (`MemoryLimits`), when over the one in force, on screen or not, or (a system process)
  /// over its soft limit; without, off screen over its soft limit (an app's is half its per-app
  /// limit, exactly).
  func isOverLimit(_ index: Int, band: Int) -> Bool {
    let process = processes[index]
    let system = process.isSystem ? device.systemProcesses[index - appCount] : nil
    let soft = process.isSystem ? system?.softLimitKB : limits[index] * 50 / 100
    let overSoft = soft.map { process.footprintKB > $0 } ?? false
    guard let separate = process.isSystem ? system?.memoryLimits : separateLimits[index] else {
      return overSoft && !process.state.isForeground
    }
    let limit = isActive(index, band: band) ? separate.active : separate.inactive
    return process.footprintKB > limit.kilobytes || (process.isSystem && overSoft)
  }

  /// The footprint of `index`'s coalition: every member in memory, in any band
  /// (`coalition_get_page_count`, which ranks coalitions in jetsam's FOREGROUND sort).
  func coalitionKB(_ index: Int) -> Int {
    processes.indices.reduce(0) {
      let member = processes[$1]
      return $0
        + (member.state.isResident && coalitions[$1] == coalitions[index]
          ? member.footprintKB : 0)
    }
  }
}
