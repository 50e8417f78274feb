import JetsimTestSupport

@testable import JetsimCore

/// XNU's freezer as the rows show it (docs/policies.md, "The freezer"), rebuilt from its rules in
/// xnu-11417.101.15 (bsd/kern/kern_memorystatus_freeze.c, kern_memorystatus_policy.c) rather than
/// from the simulation's code: what a `freeze`, `thaw` or `demote` row does to an app, and which
/// app the rule would freeze.
extension DeviceReplay {
  /// The freezer's part of `row`: a move into a running state or death brings the frozen memory
  /// back (or frees it); death ends the freezer's state; the freezer's own rows.
  mutating func applyFreezer(_ row: EventRecord, old: AppState) {
    let index = row.app
    guard let to = row.to else { return }
    if old != to, to != .suspended { processes[index].frozenKB = 0 }
    if to == .notRunning {
      (processes[index].frozen, processes[index].freezerElevated) = (false, false)
      (processes[index].refreezeEligible, processes[index].thawCount) = (false, 0)
    }
    switch row.kind {
    case .freeze: applyFreeze(index, footprintKB: row.footprintKB, timeMs: row.timeMs)
    case .thaw:
      processes[index].thawCount += 1
      processes[index].refreezeEligible = true
    case .demote:
      processes[index].freezerElevated = false
      processes[index].refreezeEligible = false
    default: break
    }
  }

  /// A freeze: the memory in RAM, up to `maxFreeze` and the budget left (uncompressed pages), goes
  /// to swap; the budget is charged the compressed pages (F:1838, F:1924–1926); the app is frozen,
  /// pinned, and no longer eligible for a refreeze.
  private mutating func applyFreeze(_ index: Int, footprintKB: Int, timeMs: Int) {
    guard let freezer = device.freezer else { return }
    while timeMs >= freezerIntervalEndMs {
      let rollover = max(0, freezerMaxPages - freezerPageouts)
      freezerMaxPages = freezer.dailyBudgetPages + rollover
      freezerPageouts = freezerPageouts > freezerMaxPages ? freezerPageouts - freezerMaxPages : 0
      freezerIntervalEndMs += DeviceProfile.Freezer.intervalMs
    }
    let remaining = max(0, freezerMaxPages - freezerPageouts)
    let inRAM = max(0, footprintKB - processes[index].frozenKB)
    let frozen = min(inRAM, freezer.maxFreezeKB(on: device), remaining * 16)
    let ratio = max(1000, device.compressionPermille)
    let compressed = (frozen * 1000 + ratio - 1) / ratio
    freezerPageouts += (compressed + 15) / 16
    processes[index].frozenKB += frozen
    processes[index].frozen = true
    processes[index].freezerElevated = true
    processes[index].refreezeEligible = false
  }

  /// What is wrong with a `freeze` row of `app`, the state before it: the pass's conditions
  /// (available memory at or below the threshold, more than 4 suspended processes not frozen) and the
  /// pick (the head of IDLE that is suspended, large enough and not frozen unless thawed since;
  /// else, with 3 thawed frozen apps, the head of band 75 among them; slots full, only the
  /// latter). Nil when the rule picks `app`.
  func freezeProblem(_ app: Int) -> String? {
    guard let freezer = device.freezer else { return "a freeze on a device without a freezer" }
    let apps = 0..<appCount
    // The kernel counts every frozen process and every process RunningBoard suspends: the apps
    // and the system processes it manages.
    let frozenCount = processes.indices.filter { processes[$0].frozen }.count
    let eligible = apps.filter { processes[$0].refreezeEligible }.count
    let suspended = processes.indices.filter {
      processes[$0].state == .suspended
        && ($0 < appCount || device.systemProcesses[$0 - appCount].isManaged)
    }.count
    if availableKB > freezer.thresholdKB(on: device) {
      return "a freeze with \(availableKB) KB available, above the threshold"
    }
    if suspended - frozenCount <= DeviceProfile.Freezer.suspendedThreshold {
      return "a freeze with \(suspended) suspended apps and \(frozenCount) frozen"
    }
    let newFreeze = apps.filter {
      let process = processes[$0]
      return process.state == .suspended && process.footprintKB >= freezer.minFootprintKB
        && (!process.frozen || process.refreezeEligible)
    }
    var expected = frozenCount < freezer.slots ? head(of: 0, among: newFreeze) : nil
    if expected == nil, eligible >= DeviceProfile.Freezer.refreezeThreshold {
      expected = head(of: 75, among: apps.filter { processes[$0].refreezeEligible })
    }
    guard expected != app else { return nil }
    return
      "froze \(processes[app].name); the rule picks \(expected.map { processes[$0].name } ?? "none")"
  }

  /// The first of `candidates` in `band`'s list, at `nowMs`.
  private func head(of band: Int, among candidates: [Int]) -> Int? {
    candidates.filter { bandPosition($0, nowMs: nowMs).band == band }.min {
      let (a, b) = (bandPosition($0, nowMs: nowMs), bandPosition($1, nowMs: nowMs))
      return (a.entryMs, a.seq) < (b.entryMs, b.seq)
    }
  }
}
