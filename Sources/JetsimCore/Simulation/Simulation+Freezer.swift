/// XNU's freezer under the `jetsam` policy (bsd/kern/kern_memorystatus_freeze.c, xnu-11417.101.15;
/// docs/policies.md, "The freezer"): on a change of available memory at or below its threshold, at
/// most one pass every 10 s freezes one suspended app from the head of IDLE (or refreezes a thawed
/// one from band 75): its memory goes to swap (`DeviceMemory.swappedKB`), its footprint stays, and
/// it stays in band 75 while it asks for a band up to 75. A resume thaws it; its exit frees its
/// slot; when the daily budget is spent, or at the end of each 24 h interval, frozen apps are
/// demoted to the ordinary bands.
///
/// Every pass walks the apps once (O(*a*)), at most once every 10 s of simulated time; nothing is
/// allocated. Citations are to xnu-11417.101.15 (commit e3723e1f17661b24996789d8afc084c0c3303b26):
/// F is bsd/kern/kern_memorystatus_freeze.c, P kern_memorystatus_policy.c, M kern_memorystatus.c.
extension Simulation {
  /// After an event changed memory: the intervals that ended, then a pass if the freezer thread
  /// would run (`memorystatus_freeze_thread_should_run`, kern_memorystatus_policy.c:741): available
  /// memory at or below the threshold, slots free or enough thawed apps to refreeze, and 10 s
  /// since the last pass. Returns whether it changed anything.
  @discardableResult
  mutating func wakeFreezer() -> Bool {
    let now = queue.now
    var acted = false
    while now >= freezer.intervalEndMs {
      freezer.startNextInterval()
      // The daily demotion (`memorystatus_freeze_reset_interval`, F:1596–1598).
      acted = demoteFrozen(urgent: false) || acted
    }
    guard memory.availableKB <= freezer.thresholdKB, now >= freezer.nextRunMs, freezer.hasWork
    else { return acted }
    // The next pass comes 10 s after this one, whatever it did (F:2954).
    freezer.nextRunMs = now + DeviceProfile.Freezer.periodMs
    return freezerPass() || acted
  }

  /// One pass of the freezer thread (`memorystatus_freeze_thread`, F:2903–2960): one app at most
  /// on iOS, once more than 4 suspended apps are not frozen; with no budget left, one urgent
  /// demotion instead.
  private mutating func freezerPass() -> Bool {
    // `memorystatus_suspended_count` counts the processes RunningBoard suspends: the apps, and
    // the system processes it manages (an idle daemon launchd runs is idle, not suspended).
    var suspended = 0
    for app in apps.indices where apps[app].state == .suspended {
      if app < appCount || device.systemProcesses[app - appCount].isManaged { suspended += 1 }
    }
    // `memorystatus_can_freeze_processes` (F:2231) counts frozen processes even once resumed.
    guard suspended - freezer.frozenCount > DeviceProfile.Freezer.suspendedThreshold else {
      return false
    }
    let remaining = freezer.remainingPages
    guard remaining > 0 else { return demoteFrozen(urgent: true) }
    guard let app = freezeCandidate() else { return false }
    freeze(app, budgetPages: remaining)
    if app < appCount { freezeXPCServices(of: app) }
    return true
  }

  /// After a freeze of `leader`, an app, the XPC services of its coalition
  /// (`memorystatus_freeze_process`, F:1945–1956, then `memorystatus_freeze_pid_list`,
  /// F:2110–2127): up to 10, the list largest first (`coalition_get_pid_list` with `dflt_cmp`,
  /// osfmk/kern/coalition.c:2589) frozen from its end, while a slot is free, each as the freezer
  /// takes a daemon (`takes`), the first it cannot take ending the list.
  ///
  /// - Complexity: O(*p*) for *p* processes; nothing is allocated (the run's scratch list).
  private mutating func freezeXPCServices(of leader: Int) {
    guard let jetsam = policy.asJetsam else { return }
    scratch.removeAll(keepingCapacity: true)
    for process in appCount..<apps.count where jetsam.xpcLeader(of: process) == leader {
      if apps[process].state.isResident { scratch.append(process) }
    }
    // Largest first, equals in the order of the processes.
    scratch.sort { (-apps[$0].footprintKB, $0) < (-apps[$1].footprintKB, $1) }
    var listed = min(scratch.count, DeviceProfile.Freezer.xpcServicesPerLeader)
    while listed > 0, freezer.frozenCount < freezer.slots {
      listed -= 1
      let process = scratch[listed]
      let remaining = freezer.remainingPages
      guard remaining > 0, takes(process, .coalitionMember, in: jetsam) else { break }
      freeze(process, budgetPages: remaining)
    }
  }

  /// The app the pass freezes (`memorystatus_freeze_pick_process`, kern_memorystatus_policy.c:652):
  /// with a slot free, the first app from the head of IDLE that is suspended, at least
  /// `minFootprint`, and not frozen unless thawed since (P:446–570); else, with at least 3 thawed
  /// frozen apps, the first of them from the head of band 75 (P:600–645).
  func freezeCandidate() -> Int? {
    guard let jetsam = policy.asJetsam else { return nil }
    let bands = jetsam.parameters.bands
    if freezer.frozenCount < freezer.slots,
      let app = head(of: bands.idle, in: jetsam, where: .newFreeze)
    {
      return app
    }
    guard freezer.refreezeEligibleCount >= DeviceProfile.Freezer.refreezeThreshold else {
      return nil
    }
    return head(of: bands.freezer, in: jetsam, where: .refreeze)
  }

  /// Which processes of a band a walk of the freezer takes.
  enum FreezerWalk {
    /// A new freeze (or a demoted app's refreeze) from IDLE.
    case newFreeze
    /// An XPC service of an app just frozen (`freezeXPCServices`).
    case coalitionMember
    /// A refreeze from band 75: frozen and thawed since.
    case refreeze
    /// The daily demotion: frozen, fewer than 5 thaws in its life.
    case dailyDemotion
  }

  /// The process nearest the head of `band` (the earliest entry) that `walk` takes, or nil.
  ///
  /// - Complexity: O(*p*) for *p* processes.
  func head(of band: Int, in jetsam: JetsamPolicy, where walk: FreezerWalk) -> Int? {
    let now = queue.now
    var best = -1
    var bestEntry = (Int.max, Int.max)
    for app in apps.indices where apps[app].state.isResident && takes(app, walk, in: jetsam) {
      let position = jetsam.position(app, nowMs: now)
      guard position.band == band, (position.entryMs, position.entrySeq) < bestEntry else {
        continue
      }
      best = app
      bestEntry = (position.entryMs, position.entrySeq)
    }
    return best >= 0 ? best : nil
  }

  /// Whether `walk` takes process `app` (`memorystatus_is_process_eligible_for_freeze`,
  /// P:446–570). A system process starts `P_MEMSTAT_FREEZE_DISABLED` (M:2745–2747), which
  /// RunningBoard's management clears (M:8887–8894): one it does not manage is never taken. A
  /// managed one that is dirty tracked is a system process to the freezer (`isSysProc`,
  /// bsd/sys/kern_memorystatus.h:574), taken as the XPC service of a frozen app, with no minimum
  /// size (P:468–497); managed and untracked, it is taken as an app is, as a member of a frozen
  /// app's coalition (a walk of IDLE does not take it: left out, docs/policies.md). jetsim also
  /// asks a system process to be suspended (idle): memory in swap cannot run.
  private func takes(_ app: Int, _ walk: FreezerWalk, in jetsam: JetsamPolicy) -> Bool {
    let status = apps[app]
    let eligible = freezer.apps[app].refreezeEligible
    switch walk {
    case .newFreeze where app >= appCount, .coalitionMember:
      let process = device.systemProcesses[app - appCount]
      guard process.isManaged, status.state == .suspended, !status.isFrozen || eligible else {
        return false
      }
      if process.dirtyTracking == .none {
        return walk == .coalitionMember && status.footprintKB >= freezer.minFootprintKB
      }
      guard let leader = jetsam.xpcLeader(of: app) else { return false }
      return apps[leader].isFrozen
    case .newFreeze:
      return status.state == .suspended && status.footprintKB >= freezer.minFootprintKB
        && (!status.isFrozen || eligible)
    case .refreeze: return status.isFrozen && eligible
    case .dailyDemotion:
      return status.isFrozen
        && freezer.apps[app].thawCount < DeviceProfile.Freezer.demotionThawThreshold
    }
  }

  /// Freezes `app` within `budgetPages` (`memorystatus_freeze_process`, F:1779): the memory it has
  /// in RAM, up to `maxFreeze` and the budget (uncompressed pages, F:1838), goes to swap; the
  /// interval is charged the compressed pages written (F:1924–1926); a first freeze takes a slot;
  /// the app is pinned to band 75 (F:1915).
  mutating func freeze(_ app: Int, budgetPages: Int) {
    if apps[app].isFrozen {
      // A refreeze: no longer eligible, before the attempt (F:1820).
      freezer.apps[app].refreezeEligible = false
      freezer.refreezeEligibleCount -= 1
    } else {
      apps[app].isFrozen = true
      freezer.frozenCount += 1
    }
    let inRAM = max(0, apps[app].footprintKB - apps[app].frozenKB)
    let pageKB = DeviceProfile.Freezer.pageKB
    let frozen = min(inRAM, freezer.maxFreezeKB, budgetPages * pageKB)
    let ratio = max(1_000, compressionPermille)
    let compressedKB = (frozen * 1_000 + ratio - 1) / ratio
    freezer.pageouts += (compressedKB + pageKB - 1) / pageKB
    apps[app].frozenKB += frozen
    memory.swappedKB += frozen
    apps[app].isFreezerElevated = true
    // A freeze moves the app to band 75 whatever band a snapshot gave it.
    apps[app].snapshotBand = nil
    refresh(app)
    note(app, .freeze)
  }

  /// Demotes frozen apps from the head of band 75 (`memorystatus_demote_frozen_processes_using_thaw_count`,
  /// F:2339): urgent (the budget is spent), the first thawed since its last freeze; daily, up to 2
  /// with fewer than 5 thaws in their life. Returns whether it demoted any.
  @discardableResult
  mutating func demoteFrozen(urgent: Bool) -> Bool {
    var demoted = 0
    let most = urgent ? 1 : DeviceProfile.Freezer.demotionsPerInterval
    while demoted < most, let jetsam = policy.asJetsam,
      let app = head(
        of: jetsam.parameters.bands.freezer, in: jetsam, where: urgent ? .refreeze : .dailyDemotion)
    {
      demote(app)
      demoted += 1
    }
    return demoted > 0
  }

  /// `memorystatus_demote_frozen_process` (F:2302): no longer pinned nor eligible for a refreeze,
  /// the app goes to the band it asks for (IDLE, if nothing holds it higher) without aging; it
  /// stays frozen and keeps its slot.
  mutating func demote(_ app: Int) {
    apps[app].isFreezerElevated = false
    if freezer.apps[app].refreezeEligible {
      freezer.apps[app].refreezeEligible = false
      freezer.refreezeEligibleCount -= 1
    }
    apps[app].skipsAging = true
    apps[app].snapshotBand = nil
    refresh(app)
    apps[app].skipsAging = false
    note(app, .demote)
  }

  /// The freezer's part of `app`'s move from `old` to `state`, before its memory is counted again:
  /// running again or dead, its frozen memory leaves swap (running, it comes back into RAM, for
  /// which the move waited); a resume from suspension thaws a frozen app (`memorystatus_on_resume`,
  /// kern_memorystatus.c:3780–3811); its exit frees its slot (`memorystatus_remove`, M:3287–3307).
  /// Returns whether it thawed.
  mutating func freezerMove(_ app: Int, from old: AppState, to state: AppState) -> Bool {
    if apps[app].frozenKB > 0, state != .suspended {
      memory.swappedKB -= apps[app].frozenKB
      apps[app].frozenKB = 0
    }
    guard apps[app].isFrozen else { return false }
    if state == .notRunning {
      freezer.frozenCount -= 1
      if freezer.apps[app].refreezeEligible { freezer.refreezeEligibleCount -= 1 }
      freezer.apps[app] = FreezerState.App()
      apps[app].isFrozen = false
      apps[app].isFreezerElevated = false
      return false
    }
    guard old == .suspended, state.isRunning else { return false }
    freezer.apps[app].thawCount += 1
    if !freezer.apps[app].refreezeEligible {
      freezer.apps[app].refreezeEligible = true
      freezer.refreezeEligibleCount += 1
    }
    return true
  }
}
