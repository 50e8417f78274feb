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
  /// level), below the idle level, the head of IDLE (`idle-exit`), else below the reaper level a
  /// sweep (at most one a period) of IDLE processes in IDLE for the reaper's age whose relaunch
  /// likelihood is low or unknown; unhealthy, with the IDLE and daemon aging bands holding only
  /// daemons launchd relaunches at once (five at least) and free memory at most 7 % of memory,
  /// the head of the lowest band above them up to BACKGROUND (`proc-thrashing`); else the head of
  /// the lowest band (oldest entrant; FOREGROUND by footprint). Bands above 210 are never killed.
  static func jetsam(_ device: DeviceReplay, freeKB: Int, exempt: Set<Int>) -> Decision {
    let profile = device.device
    let idleLevel = max(profile.idleThresholdKB, profile.criticalThresholdKB)
    let reaperLevel = profile.reaper.enabled ? profile.reaperThresholdKB : 0
    guard freeKB < max(profile.warningThresholdKB, idleLevel, reaperLevel) else { return .none }
    let now = device.nowMs
    var idle = 0
    var low = 0
    var lowRelaunching = 0
    typealias Key = (Int, Int, Int, Int)  // (band, key, seq, index)
    var best: Key?
    var highwater: Key?
    var aboveIdle: Key?
    var reapable: Key?
    var swapped: Key?
    var waiting = false
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
      let key = (
        position.band, foregroundBand ? -process.footprintKB : position.entryMs,
        foregroundBand ? device.nameRank[index] : position.seq, index
      )
      if best.map({ key < $0 }) ?? true { best = key }
      // An app's soft limit is half its per-app limit, exactly; a system process has its own.
      let soft: Int? =
        process.isSystem
        ? profile.systemProcesses[index - device.appCount].softLimitKB
        : device.limits[index] * 50 / 100
      if let soft, process.footprintKB > soft, !process.state.isForeground,
        highwater.map({ key < $0 }) ?? true
      {
        highwater = key
      }
      if ![0, 10, 20].contains(position.band), position.band <= 30,
        aboveIdle.map({ key < $0 }) ?? true
      {
        aboveIdle = key
      }
      if process.swapped, swapped.map({ key < $0 }) ?? true { swapped = key }
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
      let sweepAllowed =
        device.sweepStartMs.map { $0 == now || now >= $0 + profile.reaper.periodMs } ?? true
      if freeKB < reaperLevel, sweepAllowed, let victim = reapable {
        return .victim(victim.3, .longIdleExit)
      }
      return .none
    }
    if low >= 5, lowRelaunching == low, freeKB <= profile.memoryKB * 7 / 100,
      let victim = aboveIdle
    {
      return .victim(victim.3, .procThrashing)
    }
    if let victim = best { return .victim(victim.3, .vmPageshortage) }
    return .none
  }

  /// Android's oom_score_adj, from the rebuilt device (ProcessList's values).
  static func adjustments(_ device: DeviceReplay) -> [Int?] {
    var adj = [Int?](repeating: nil, count: device.processes.count)
    var cached: [Int] = []
    for (index, process) in device.processes.enumerated() where process.state.isResident {
      if process.systemKind == .activeDaemon {
        adj[index] = -800
      } else if process.state.isForeground {
        adj[index] = 0
      } else if device.keepsRunning(index) {
        adj[index] = 200
      } else if process.state == .background {
        adj[index] = 500
      } else if device.previousApp == index {
        adj[index] = 700
      } else {
        cached.append(index)
      }
    }
    cached.sort {
      let (a, b) = (device.processes[$0], device.processes[$1])
      return a.lastUsedMs != b.lastUsedMs ? a.lastUsedMs > b.lastUsedMs : a.name < b.name
    }
    for (rank, index) in cached.enumerated() { adj[index] = min(999, 900 + rank) }
    return adj
  }

  /// lmkd: the minfree levels of docs/policies.md (Android's, interpolated by memory).
  static func minfree(_ memoryKB: Int) -> [Int] {
    let low = [12_288, 18_432, 24_576, 36_864, 43_008, 49_152]
    let high = [73_728, 92_160, 110_592, 129_024, 147_456 * 3 / 2, 184_320 * 7 / 4]
    let scale = min(max(memoryKB / 1024 - 350, 0), 350)
    return (0..<6).map { low[$0] + (high[$0] - low[$0]) * scale / 350 }
  }

  static func lmkd(_ device: DeviceReplay, freeKB: Int, exempt: Set<Int>) -> Decision {
    let levels = [0, 100, 200, 250, 900, 950]
    guard let level = minfree(device.device.memoryKB).firstIndex(where: { freeKB < $0 }) else {
      return .none
    }
    let adj = adjustments(device)
    let candidates = device.processes.indices.filter {
      adj[$0].map { $0 >= levels[level] } == true && !exempt.contains($0)
    }
    let victim = candidates.min { a, b in
      let (adjA, adjB) = (adj[a] ?? 0, adj[b] ?? 0)
      if adjA != adjB { return adjA > adjB }
      let (x, y) = (device.processes[a], device.processes[b])
      if adjA <= 200 {
        if x.footprintKB != y.footprintKB { return x.footprintKB > y.footprintKB }
      } else if x.lastUsedMs != y.lastUsedMs {
        return x.lastUsedMs < y.lastUsedMs
      }
      return x.name < y.name
    }
    return victim.map { .victim($0, .vmPageshortage) } ?? .none
  }

  static func oomBadness(_ device: DeviceReplay, freeKB: Int, exempt: Set<Int>) -> Decision {
    guard freeKB < device.device.criticalThresholdKB else { return .none }
    let adj = adjustments(device)
    let pages = device.device.memoryKB / 4
    let victim = device.processes.indices.filter { adj[$0] != nil && !exempt.contains($0) }.max {
      a, b in
      let scoreA = device.processes[a].footprintKB / 4 + (adj[a] ?? 0) * pages / 1000
      let scoreB = device.processes[b].footprintKB / 4 + (adj[b] ?? 0) * pages / 1000
      return scoreA != scoreB
        ? scoreA < scoreB : device.processes[a].name > device.processes[b].name
    }
    return victim.map { .victim($0, .vmPageshortage) } ?? .none
  }
}
