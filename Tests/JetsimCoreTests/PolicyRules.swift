import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// Each policy's rule, written from the rule as docs/policies.md and the kernels state it (not from
/// the policy's code): the victim it calls for on a rebuilt device, given the free memory that
/// counts and the processes it may not choose.
enum PolicyRule {
  /// What a rule calls for: a victim and the reason, or for `random` any of a set.
  enum Decision: Equatable {
    case none
    case victim(Int, KillReason)
    case anyOf(Set<Int>)
  }

  static func decide(
    _ policy: String, _ device: DeviceReplay, freeKB: Int, exempt: Set<Int>
  ) -> Decision {
    switch policy {
    case "largest-first":
      return tiered(device, freeKB: freeKB, exempt: exempt) { a, b in
        let (x, y) = (device.processes[a], device.processes[b])
        if x.footprintKB != y.footprintKB { return x.footprintKB > y.footprintKB }
        if x.lastUsedMs != y.lastUsedMs { return x.lastUsedMs < y.lastUsedMs }
        return x.name < y.name
      }
    case "lru":
      return tiered(device, freeKB: freeKB, exempt: exempt) { a, b in
        let (x, y) = (device.processes[a], device.processes[b])
        if x.lastUsedMs != y.lastUsedMs { return x.lastUsedMs < y.lastUsedMs }
        return x.name < y.name
      }
    case "random":
      guard freeKB < device.device.criticalThresholdKB else { return .none }
      let offScreen = Set(
        device.processes.indices.filter {
          [.background, .suspended].contains(device.processes[$0].state) && !exempt.contains($0)
        })
      if !offScreen.isEmpty { return .anyOf(offScreen) }
      if let screen = device.foreground, !exempt.contains(screen) { return .anyOf([screen]) }
      return .none
    case "jetsam": return jetsam(device, freeKB: freeKB, exempt: exempt)
    case "lmkd": return lmkd(device, freeKB: freeKB, exempt: exempt)
    case "oom-badness": return oomBadness(device, freeKB: freeKB, exempt: exempt)
    default: return .none
    }
  }

  /// largest-first and lru: below critical, suspended processes first, then processes running in
  /// the background, then the app on screen, each tier in `order`.
  static func tiered(
    _ device: DeviceReplay, freeKB: Int, exempt: Set<Int>, order: (Int, Int) -> Bool
  ) -> Decision {
    guard freeKB < device.device.criticalThresholdKB else { return .none }
    for tier in [AppState.suspended, .background] {
      let candidates = device.processes.indices.filter {
        device.processes[$0].state == tier && !exempt.contains($0)
      }
      if let first = candidates.min(by: order) { return .victim(first, .vmPageshortage) }
    }
    if let screen = device.foreground, !exempt.contains(screen) {
      return .victim(screen, .vmPageshortage)
    }
    return .none
  }

  /// XNU as xnu-11417's `memorystatus_pick_action` orders it: below the pressure level, a process
  /// over its soft limit off screen, lowest band first; while healthy (at or above the critical
  /// level), below the idle level, the head of IDLE (`idle-exit`); else, when `sweep` (a reaper
  /// kill is being checked: `reaperKillProblem`), the oldest entrant of IDLE in IDLE for the
  /// reaper's age whose relaunch likelihood is low or unknown. (When a sweep starts depends on
  /// checks of memory that leave no row, so the rule never calls for one by itself.)
  /// unhealthy, with the IDLE and daemon aging bands holding only daemons launchd relaunches at
  /// once (five at least) and free memory at most 7 % of memory, the head of the kill order
  /// (`proc-thrashing`, the march of `memorystatus_kill_processes_aggressive`; no process is pinned
  /// in ELEVATED_INACTIVE); else the head of the lowest band (oldest entrant; FOREGROUND by
  /// coalition). A purge that left memory below the pressure level is followed by its victim's
  /// kill (its reason, the top process's or idle-exit's, is not checked). Bands above 210 are never
  /// killed. The kernel sorts FOREGROUND by coalition at the first priority kill of a pass; with
  /// every process of the band its own coalition's leader (the sweep's members of an app's
  /// coalition never enter it) and no process entering the band while a pass kills, that is the
  /// largest coalition first (JetsamCoalitionTests holds the sort itself); of coalitions of equal
  /// size, any may come first (qsort's order of equals).
  static func jetsam(
    _ device: DeviceReplay, freeKB: Int, exempt: Set<Int>, sweep: Bool = false
  ) -> Decision {
    let profile = device.device
    let idleLevel = max(profile.idleThresholdKB, profile.criticalThresholdKB)
    let now = device.nowMs
    // A reaper sweep goes on whatever the memory.
    guard freeKB < max(profile.warningThresholdKB, idleLevel) || sweep else { return .none }
    // A purge that left available memory below the pressure level: its victim dies all the same.
    if let purge = device.lastPurge, purge.timeMs == now, freeKB < profile.warningThresholdKB,
      device.processes[purge.app].state.isResident, !exempt.contains(purge.app)
    {
      return .anyOf([purge.app])
    }
    var idle = 0
    var low = 0
    var lowRelaunching = 0
    typealias Key = (Int, Int, Int, Int)  // (band, key, seq, index)
    var best: Key?
    var highwater: Key?
    var reapable: Key?
    var swapped: Key?
    var waiting = false
    var foreground: [(index: Int, coalitionKB: Int)] = []
    for index in device.processes.indices where device.processes[index].state.isResident {
      let process = device.processes[index]
      if !process.isSystem, process.state == .suspended, !process.swapped { waiting = true }
      let position = device.bandPosition(index, nowMs: now)
      if position.band == 0 { idle += 1 }
      if position.band == 0 || position.band == 10 {
        low += 1
        if process.isSystem, process.systemKind == .idleDaemon,
          profile.systemProcesses[index - device.appCount].relaunchLikelihood == .high
        {
          lowRelaunching += 1
        }
      }
      if exempt.contains(index) || position.band > 210 { continue }
      let foregroundBand = position.band == 100
      let coalitionKB = foregroundBand ? device.coalitionKB(index) : 0
      if foregroundBand { foreground.append((index, coalitionKB)) }
      let key = (
        position.band, foregroundBand ? -coalitionKB : position.entryMs,
        foregroundBand ? device.nameRank[index] : position.seq, index
      )
      if best.map({ key < $0 }) ?? true { best = key }
      if device.isOverLimit(index, band: position.band), highwater.map({ key < $0 }) ?? true {
        highwater = key
      }
      // Swappable: an app or a member of an app's coalition, below BACKGROUND, swapped or not.
      let coalition =
        process.isSystem
        ? profile.systemProcesses[index - device.appCount].coalition : nil
      let donates =
        !process.isSystem
        || device.processes[..<device.appCount].contains { $0.name == coalition }
      if profile.appSwap != nil, donates, position.band < 30, swapped.map({ key < $0 }) ?? true {
        swapped = key
      }
      let relaunchesSoon =
        process.isSystem
        && profile.systemProcesses[index - device.appCount].relaunchLikelihood != .low
      if position.band == 0, now - position.entryMs >= profile.reaper.minAgeMs, !relaunchesSoon,
        reapable.map({ key < $0 }) ?? true
      {
        reapable = key
      }
    }
    if freeKB < profile.warningThresholdKB, profile.appSwap?.killsOnLowSwap == true, waiting,
      let victim = swapped
    {
      return .victim(victim.3, .lowSwap)
    }
    if freeKB < profile.warningThresholdKB, let victim = highwater {
      return .victim(victim.3, .highwater)
    }
    if freeKB >= profile.criticalThresholdKB {
      if freeKB < idleLevel, idle > 0, let victim = best, victim.0 == 0 {
        return .victim(victim.3, .idleExit)
      }
      if sweep, profile.reaper.enabled, let victim = reapable {
        return .victim(victim.3, .longIdleExit)
      }
      return .none
    }
    // Aggressive jetsam: the march from the head of the kill order (its top band and budget
    // follow the window's actions: `aggressiveHeads`).
    if low >= 5, lowRelaunching == low, freeKB <= profile.memoryKB * 7 / 100, let victim = best {
      return .anyOf([victim.3])
    }
    guard let victim = best else { return .none }
    // FOREGROUND's coalitions of equal size: the kernel sorts them with qsort, which leaves the
    // order of equals open, so any process of the tied coalitions may come first.
    if victim.0 == 100 {
      let tied = foreground.filter { $0.coalitionKB == -victim.1 }.map(\.index)
      if Set(tied.map { device.coalitions[$0] }).count > 1 { return .anyOf(Set(tied)) }
    }
    return .victim(victim.3, .vmPageshortage)
  }

  /// What is wrong with a `long-idle-exit` kill of `app`, if anything (xnu-11417's reaper,
  /// `memstat_reaper_*`): jetsam only; healthy, with nothing before the reaper called for
  /// (`memorystatus_pick_action`); the oldest entrant of IDLE the reaper may take; and a sweep's
  /// kills all in one instant (after each it goes on, and it ends when it finds no one), each
  /// sweep at least a period after the last (`_memstat_reaper_end_sweep`). Not checked: when an
  /// attempt found no one (it leaves no row), so a sweep coming late is not seen.
  static func reaperKillProblem(_ device: DeviceReplay, app: Int, freeKB: Int, exempt: Set<Int>)
    -> String?
  {
    let name = device.processes[app].name
    guard device.device.reaper.enabled else { return "a long-idle-exit kill with the reaper off" }
    guard freeKB >= device.device.criticalThresholdKB else {
      return "a long-idle-exit kill of \(name) below the critical level"
    }
    if let last = device.lastSweepKillMs, last != device.nowMs,
      device.nowMs < last + device.device.reaper.periodMs
    {
      return "a sweep at \(device.nowMs) ms, less than a period after the one at \(last) ms"
    }
    let first = jetsam(device, freeKB: freeKB, exempt: exempt)
    if first != .none {
      return "a long-idle-exit kill of \(name) though the rule calls for \(first)"
    }
    switch jetsam(device, freeKB: freeKB, exempt: exempt, sweep: true) {
    case .victim(app, .longIdleExit): return nil
    case let expected: return "a long-idle-exit kill of \(name); the rule calls for \(expected)"
    }
  }

  /// What is wrong with a `sustained-memory-pressure` kill of `app` at `nowMs`, if anything
  /// (`sustained_pressure_handler`, xnu-11417 kern_memorystatus_notify.c lines 1301–1336): jetsam
  /// only, the level above normal; the head of the kill order, in IDLE; at the handler's moment
  /// (`sustainedPressureMoment`). Updates the handler in `device`: a handler starting may make
  /// twice as many kills as IDLE holds.
  static func sustainedPressureProblem(
    _ device: inout DeviceReplay, policy: String, app: Int, exempt: Set<Int>, nowMs: Int
  ) -> String? {
    guard policy == "jetsam" else { return "a sustained-pressure kill under \(policy)" }
    guard device.level != .normal else { return "a sustained-pressure kill at the normal level" }
    let (head, idle) = idleHead(device, exempt: exempt, nowMs: nowMs)
    guard head == app else {
      return "a sustained-pressure kill of \(device.processes[app].name), not the head of IDLE"
    }
    guard let moment = sustainedPressureMoment(device), moment.atMs == nowMs else {
      return "a sustained-pressure kill at \(nowMs) ms, not at the handler's moment"
    }
    device.sustainedKillsLeft = moment.starts ? 2 * idle - 1 : device.sustainedKillsLeft - 1
    if moment.starts { device.pressureRoseMs = nil }
    device.lastSustainedKillMs = nowMs
    return nil
  }

  /// When jetsam's sustained-pressure handler next reads the level: 500 ms after its previous
  /// kill while it has kills left, else ten minutes after a rise from normal that followed 5 s or
  /// more at normal, with no return to normal since (`starts`: a handler starting).
  static func sustainedPressureMoment(_ device: DeviceReplay) -> (atMs: Int, starts: Bool)? {
    guard device.jetsam.killsOnSustainedPressure else { return nil }
    if let last = device.lastSustainedKillMs, device.sustainedKillsLeft > 0 {
      return (last + device.jetsam.sustainedPressureDelayMs, false)
    }
    return device.pressureRoseMs.map { ($0 + device.jetsam.sustainedPressureWindowMs, true) }
  }

  /// The head of jetsam's kill order at `nowMs` if it is in IDLE, and how many IDLE holds.
  static func idleHead(_ device: DeviceReplay, exempt: Set<Int>, nowMs: Int) -> (
    head: Int?, idle: Int
  ) {
    typealias Key = (Int, Int, Int, Int)
    var head: Key?
    var idle = 0
    for index in device.processes.indices where device.processes[index].state.isResident {
      let position = device.bandPosition(index, nowMs: nowMs)
      if position.band == device.jetsam.bands.idle { idle += 1 }
      guard !exempt.contains(index), position.band <= 210 else { continue }
      let key = (position.band, position.entryMs, position.seq, index)
      if head.map({ key < $0 }) ?? true { head = key }
    }
    guard let head, head.0 == device.jetsam.bands.idle else { return (nil, idle) }
    return (head.3, idle)
  }

  /// The processes a step of an aggressive march may kill, whatever the memory
  /// (`memorystatus_act_aggressive`, `memorystatus_kill_processes_aggressive`): the head of the
  /// kill order at or below the highest top band (150).
  static func aggressiveHeads(_ device: DeviceReplay, exempt: Set<Int>) -> Set<Int> {
    typealias Key = (Int, Int, Int, Int)
    var head: Key?
    for index in device.processes.indices
    where device.processes[index].state.isResident && !exempt.contains(index) {
      let position = device.bandPosition(index, nowMs: device.nowMs)
      guard position.band <= 210 else { continue }
      let foregroundBand = position.band == 100
      let key = (
        position.band,
        foregroundBand ? -device.coalitionKB(index) : position.entryMs,
        foregroundBand ? device.nameRank[index] : position.seq, index
      )
      if head.map({ key < $0 }) ?? true { head = key }
    }
    return Set([head.flatMap { $0.0 <= 150 ? $0.3 : nil }].compactMap { $0 })
  }

  /// Android's oom_score_adj, from the rebuilt device (ProcessList's values): persistent -800,
  /// foreground 0, perceptible 200, the previous app 700, background 500 if it has not been on
  /// screen in this life, the rest 900 on by recency.
  static func adjustments(_ device: DeviceReplay) -> [Int?] {
    var adj = [Int?](repeating: nil, count: device.processes.count)
    var cached: [Int] = []
    for index in device.processes.indices where device.processes[index].state.isResident {
      adj[index] = fixedAdj(device, index, activityManager: false)
      if adj[index] == nil { cached.append(index) }
    }
    cached.sort { isMoreRecent(device, $0, $1) }
    for (rank, index) in cached.enumerated() { adj[index] = min(999, 900 + rank) }
    return adj
  }

  /// The adj of resident process `index` that does not depend on the others: persistent -800,
  /// foreground 0, perceptible 200, the previous app 700, 500 in the background if it has not been
  /// on screen in this life; nil for a cached one. With `activityManager` (lmkd's adj), the app
  /// behind the lock is the top app (0), and the previous app is at 900 once expired: more than
  /// 60 s after it was suspended and was the previous app, never while it runs in the background.
  static func fixedAdj(_ device: DeviceReplay, _ index: Int, activityManager: Bool) -> Int? {
    let process = device.processes[index]
    if process.systemKind == .activeDaemon { return -800 }
    if process.state.isForeground || (activityManager && device.behindLock == index) { return 0 }
    if device.keepsRunning(index) { return 200 }
    if (activityManager ? device.previousApp : device.recencyPreviousApp) == index {
      let since = max(process.suspendedMs, device.previousSinceMs)
      let expired = process.state == .suspended && device.nowMs > since + 60_000
      return activityManager && expired ? 900 : 700
    }
    return process.state == .background && !process.shownUI ? 500 : nil
  }

  /// ActivityManager's LRU order: whether process `a` was used more recently than `b` (ties by
  /// name).
  static func isMoreRecent(_ device: DeviceReplay, _ a: Int, _ b: Int) -> Bool {
    let (x, y) = (device.processes[a], device.processes[b])
    return x.lastUsedMs != y.lastUsedMs ? x.lastUsedMs > y.lastUsedMs : x.name < y.name
  }

  /// lmkd's minfree levels (legacy mode): Android's, interpolated by memory.
  static func minfree(_ memoryKB: Int) -> [Int] {
    let low = [12_288, 18_432, 24_576, 36_864, 43_008, 49_152]
    let high = [73_728, 92_160, 110_592, 129_024, 147_456 * 3 / 2, 184_320 * 7 / 4]
    let scale = min(max(memoryKB / 1024 - 350, 0), 350)
    return (0..<6).map { low[$0] + (high[$0] - low[$0]) * scale / 350 }
  }

  /// ActivityManager's fixed adj of each process (nil: cached, or not in memory), as lmkd reads it:
  /// persistent -800, foreground 0, perceptible 200, the previous app 700 while in the background
  /// and for 60 s after it was suspended, 900 from then on, background 500 if it has not been on
  /// screen in this life; of those at 500, the ⌊n / 3⌋ + 1 most recently used stay there and the
  /// others are at 800 (service B).
  static func lmkdFixedAdjs(_ device: DeviceReplay) -> [Int?] {
    var adj = [Int?](repeating: nil, count: device.processes.count)
    var services: [Int] = []
    for index in device.processes.indices where device.processes[index].state.isResident {
      // An expired previous app is at 900, outside the cached slots ("previous-expired").
      let fixed = fixedAdj(device, index, activityManager: true)
      if fixed == 500 { services.append(index) } else { adj[index] = fixed }
    }
    let mostRecentFirst = services.sorted { isMoreRecent(device, $0, $1) }
    for (rank, index) in mostRecentFirst.enumerated() {
      adj[index] = rank <= services.count / 3 ? 500 : 800
    }
    return adj
  }

  /// Every resident process's adj under lmkd: fixed ones, then OomAdjuster's slots for cached apps
  /// (from 900) and, apart, for empty processes (idle system processes, and apps not on screen in
  /// this life, from 905): most recent first, `ceil(n / 10)` to a slot, slots 10 apart. An app
  /// that has been on screen and works in the background (a started service) steps the empty
  /// processes' ladder without being counted in its `n`, ahead of every empty process (it holds
  /// activities: ActivityManager's LRU list keeps it above them).
  static func lmkdAdjustments(_ device: DeviceReplay) -> [Int?] {
    var adj = lmkdFixedAdjs(device)
    for (index, slot) in lmkdLadderWalk(device, fixedAdjs: adj) { adj[index] = slot }
    return adj
  }

  /// The processes on the two ladders and their slots, in the order ActivityManager walks its LRU
  /// list: the cached apps most recent first, then the empty processes' ladder (apps with
  /// activities first).
  static func lmkdLadderWalk(_ device: DeviceReplay, fixedAdjs: [Int?]) -> [(Int, Int)] {
    var cached: [Int] = []
    var empty: [Int] = []
    var emptyCount = 0
    for (index, process) in device.processes.enumerated()
    where process.state.isResident && fixedAdjs[index] == nil {
      if process.isEmptyProcess {
        empty.append(index)
        emptyCount += 1
      } else if process.state == .background {
        empty.append(index)
      } else {
        cached.append(index)
      }
    }
    var walk: [(Int, Int)] = []
    for (list, first, counted) in [(cached, 900, cached.count), (empty, 905, emptyCount)] {
      let sorted = list.sorted {
        let (a, b) = (device.processes[$0].isEmptyProcess, device.processes[$1].isEmptyProcess)
        return a != b ? b : isMoreRecent(device, $0, $1)
      }
      let perSlot = max(1, (counted + 9) / 10)
      for (rank, index) in sorted.enumerated() {
        walk.append((index, min(999, first + rank / perSlot * 10)))
      }
    }
    return walk
  }

  /// ActivityManager's update as lmkd sees it: of the processes on the ladders, walked most recent
  /// first, each whose slot changed since the last update is registered at its new adj, after
  /// every process registered before; a process off the ladders will be registered anew. The
  /// processes of the start (the first update that finds any) are registered the least recent
  /// first, as if each had come down its ladder.
  static func registerLadderMoves(_ device: inout DeviceReplay) {
    var onLadder = [Bool](repeating: false, count: device.processes.count)
    let walk = lmkdLadderWalk(device, fixedAdjs: lmkdFixedAdjs(device))
    let atStart = !device.ladderStartRegistered
    if !walk.isEmpty { device.ladderStartRegistered = true }
    for (index, slot) in atStart ? walk.reversed() : walk {
      onLadder[index] = true
      if device.ladderAdj[index] != slot {
        device.ladderAdj[index] = slot
        device.ladderRegistered[index] = device.ladderRegistrations
        device.ladderRegistrations += 1
      }
    }
    for index in device.processes.indices where !onLadder[index] { device.ladderAdj[index] = nil }
  }

  /// The process lmkd kills at `minAdj` or above: the highest adj; inside one adj, at 200 and below
  /// (or with kill_heaviest_task) the largest RSS (no swapped or compressed page), on a tie the one
  /// that got the adj last; above 200 the one that got it first: cached ones the one registered
  /// at its slot first, an expired previous app against the first slot's by least recent use.
  static func lmkdTop(_ device: DeviceReplay, minAdj: Int, exempt: Set<Int>) -> Int? {
    var adj = lmkdFixedAdjs(device)
    // Inside a slot: registered there at an update, in the order of registration, before those
    // moved there since, which the next update registers in the order of the walk.
    var slotPlace = [(Int, Int)?](repeating: nil, count: device.processes.count)
    for (position, (index, slot)) in lmkdLadderWalk(device, fixedAdjs: adj).enumerated() {
      adj[index] = slot
      // (The start's processes are registered the least recent first.)
      let movedPlace = device.ladderStartRegistered ? position : -position
      slotPlace[index] =
        device.ladderAdj[index] == slot ? (0, device.ladderRegistered[index]) : (1, movedPlace)
    }
    func rss(_ index: Int) -> Int {
      let process = device.processes[index]
      let compressed = process.state == .suspended && device.device.compressionPermille > 1000
      return process.swapped || compressed ? 0 : process.footprintKB
    }
    let candidates = device.processes.indices.filter {
      (adj[$0] ?? -1) >= max(0, minAdj) && !exempt.contains($0)
    }
    return candidates.min { a, b in
      let (adjA, adjB) = (adj[a] ?? 0, adj[b] ?? 0)
      if adjA != adjB { return adjA > adjB }
      let (x, y) = (device.processes[a], device.processes[b])
      if adjA <= 200 || device.lmkd.killHeaviest {
        if rss(a) != rss(b) { return rss(a) > rss(b) }
        if device.adjSince[a] != device.adjSince[b] {
          return device.adjSince[a] > device.adjSince[b]
        }
      } else if adjA >= 900 {
        if let placeA = slotPlace[a], let placeB = slotPlace[b] { return placeA < placeB }
        if x.lastUsedMs != y.lastUsedMs { return x.lastUsedMs < y.lastUsedMs }
      } else if device.adjSince[a] != device.adjSince[b] {
        return device.adjSince[a] < device.adjSince[b]
      }
      return x.name < y.name
    }
  }

  /// lmkd's view of `availableKB` on the device: free pages (the free target, at least the high
  /// watermark, less one second of refaults), the file cache and the refaults.
  static func lmkdMemory(_ device: DeviceReplay, availableKB: Int) -> (
    freeKB: Int, fileKB: Int, refaultKB: Int, watermarks: ZoneWatermarks
  ) {
    let profile = device.device
    let marks =
      device.lmkd.watermarks
      ?? ZoneWatermarks(memoryKB: profile.memoryKB, scaleFactor: device.lmkd.watermarkScaleFactor)
    let available = max(0, availableKB)
    let target = min(available, max(profile.fileCache.freeTargetKB, marks.highKB))
    let file = available - target
    let refault = max(0, (profile.fileCache.workingSetKB ?? profile.memoryKB / 10) - file)
    return (max(0, target - refault), file, refault, marks)
  }

  /// lmkd. Legacy mode (`mp_event_common`): the first minfree level both free memory (less the
  /// high watermark) and the file cache are below; the top process at its adj, reason lmk-none.
  /// PSI mode, as far as a rule without lmkd's state can say: after a kill in this instant, with
  /// no drop of memory since, lmkd's poll finds free memory below min (PRESSURE_AFTER_KILL, adj 0
  /// and up) or below low with a process at 701 and up (some reason kills it): it must kill.
  static func lmkd(_ device: DeviceReplay, freeKB: Int, exempt: Set<Int>) -> Decision {
    let memory = lmkdMemory(device, availableKB: freeKB)
    if device.lmkd.useMinfreeLevels {
      let levels = device.lmkd.minfreeKB ?? minfree(device.device.memoryKB)
      let otherFree = memory.freeKB - memory.watermarks.highKB
      guard let level = levels.firstIndex(where: { otherFree < $0 && memory.fileKB < $0 }),
        let victim = lmkdTop(device, minAdj: [0, 100, 200, 250, 900, 950][level], exempt: exempt)
      else { return .none }
      return .victim(victim, .lmkNone)
    }
    guard device.lmkdKilledInInstant, !device.lmkdDroppedAfterKill else { return .none }
    if memory.freeKB < memory.watermarks.minKB,
      let victim = lmkdTop(device, minAdj: device.lmkd.pressureAfterKillMinScore, exempt: exempt)
    {
      return .victim(victim, .lmkPressureAfterKill)
    }
    if memory.freeKB < memory.watermarks.lowKB,
      let victim = lmkdTop(device, minAdj: device.lmkd.lowmemMinOomScore, exempt: exempt)
    {
      return .victim(victim, .lmkLowMem)
    }
    return .none
  }

  /// A kill by lmkd in PSI mode, against what a rule without lmkd's state can say: the victim is
  /// the top process at adj 0 and above; LOW_MEM kills at 701 and above, with free memory below the
  /// low watermark; PRESSURE_AFTER_KILL follows a kill in the same instant, below min;
  /// DIRECT_RECL_STUCK (lmkd.cpp lines 3023–3027) needs `direct_reclaim_threshold_ms` set, free
  /// memory below min, and below min for longer than the threshold before `nowMs` (the duration
  /// lmkd times is the stall accumulated in that time, never more than the time itself). The
  /// problem found, if any.
  static func lmkdPSIKillProblem(
    _ device: DeviceReplay, app: Int, reason: KillReason, availableKB: Int, exempt: Set<Int>,
    nowMs: Int
  ) -> String? {
    guard reason.isLmk, reason != .lmkNone else { return "reason \(reason) in PSI mode" }
    let top = lmkdTop(device, minAdj: 0, exempt: exempt)
    guard top == app else {
      return
        "killed \(device.processes[app].name); the top of lmkd's order is \(top.map { device.processes[$0].name } ?? "no one")"
    }
    let adj = lmkdAdjustments(device)[app] ?? 0
    let memory = lmkdMemory(device, availableKB: availableKB)
    switch reason {
    case .lmkLowMem:
      if adj < device.lmkd.lowmemMinOomScore { return "lmk-low-mem at adj \(adj)" }
      if memory.freeKB >= memory.watermarks.lowKB { return "lmk-low-mem with free above low" }
    case .lmkPressureAfterKill:
      if !device.lmkdKilledInInstant { return "pressure-after-kill with no kill before" }
      if memory.freeKB >= memory.watermarks.minKB { return "pressure-after-kill above min" }
    case .lmkDirectReclStuck:
      return directReclaimStuckProblem(device, freeKB: memory.freeKB, nowMs: nowMs)
    default: break
    }
    return nil
  }

  /// DIRECT_RECL_STUCK's conditions a rule without lmkd's state can check (`lmkdPSIKillProblem`).
  static func directReclaimStuckProblem(_ device: DeviceReplay, freeKB: Int, nowMs: Int)
    -> String?
  {
    let threshold = device.lmkd.directReclaimThresholdMs
    let memory = lmkdMemory(device, availableKB: 0).watermarks
    if threshold == 0 { return "lmk-direct-recl-stuck with the threshold off" }
    if freeKB >= memory.minKB { return "lmk-direct-recl-stuck with free \(freeKB) KB above min" }
    let elapsed = device.lmkdDirectReclaimSinceMs.map { nowMs - $0 } ?? 0
    if elapsed <= threshold {
      return "lmk-direct-recl-stuck after \(elapsed) ms below min (threshold \(threshold) ms)"
    }
    return nil
  }

  static func oomBadness(_ device: DeviceReplay, freeKB: Int, exempt: Set<Int>) -> Decision {
    guard freeKB < device.device.criticalThresholdKB else { return .none }
    let adj = adjustments(device)
    // Memory and swap (mm/oom_kill.c `constrained_alloc`), per 1000, the division first.
    let swapKB = device.device.appSwap?.budgetKB ?? device.device.zram?.sizeKB ?? 0
    let unit = (device.device.memoryKB + swapKB) / 4 / 1000
    let victim = device.processes.indices.filter { adj[$0] != nil && !exempt.contains($0) }.max {
      a, b in
      let scoreA = device.processes[a].footprintKB / 4 + (adj[a] ?? 0) * unit
      let scoreB = device.processes[b].footprintKB / 4 + (adj[b] ?? 0) * unit
      // Of equal scores, the process started last (`select_bad_process` keeps an equal one).
      return scoreA != scoreB
        ? scoreA < scoreB : device.processes[a].started < device.processes[b].started
    }
    return victim.map { .victim($0, .vmPageshortage) } ?? .none
  }
}
