/// The memory rules of docs/model.md §3 and §5: footprints, allocations that wait for room, pressure
/// levels, edge-triggered memory warnings, per-process limits, and kills until available memory is back
/// above the policy's threshold.
extension Simulation {
  /// `app`'s footprint in its current state, or on screen (with `cachesKB` of caches and its
  /// backing stores) when `onScreen`.
  func footprint(of app: Int, onScreen: Bool, cachesKB: Int? = nil) -> Int {
    apps[app].footprint(
      onScreen: onScreen, cachesKB: cachesKB, backingStoresKB: traits[app].backingStoresKB)
  }

  /// Recomputes `app`'s footprint and physical memory from its parts and state, updates the totals,
  /// and tells the policy. Call after any change to the process.
  mutating func refresh(_ app: Int) { refreshInline(app) }

  /// `refresh`, inlined where it is called on every change of state (`move`).
  @inline(__always)
  mutating func refreshInline(_ app: Int) {
    let state = apps[app].state
    let footprint =
      state == .notRunning
      ? 0
      : apps[app].footprint(
        onScreen: apps[app].holdsScreenMemory, cachesKB: nil,
        backingStoresKB: traits[app].backingStoresKB)
    let swapped = apps[app].isSwapped
    // In swap: nothing in RAM, or zram's compressed copy.
    let physical =
      swapped
      ? DeviceProfile.Zram.storedKB(
        footprintKB: footprint, compressionPermille: memory.zramPermille)
      : DeviceProfile.physicalKB(
        footprintKB: footprint - min(apps[app].frozenKB, footprint), state: state,
        compressionPermille: compressionPermille)
    let compressed =
      swapped ? memory.zramPermille > 0 : state == .suspended && compressionPermille > 1000
    // Most changes of state leave the memory as it was (resigning active, entering the
    // background): then there is nothing to move between the totals, and nothing to write (a
    // write to the processes' array checks it for uniqueness first).
    if footprint != apps[app].footprintKB || physical != apps[app].physicalKB
      || compressed != apps[app].isCompressed
    {
      memory.hold(-apps[app].physicalKB, compressed: apps[app].isCompressed)
      memory.hold(physical, compressed: compressed)
      apps[app].footprintKB = footprint
      apps[app].physicalKB = physical
      apps[app].isCompressed = compressed
    }
    changed = true
    if footprint > peakFootprintKB[app] { peakFootprintKB[app] = footprint }
    // A non-fatal limit's notice re-arms once the process is back under it or its limit changes.
    if apps[app].overLimitNoted, let limits = traits[app].limits,
      !MemoryLimits.isActive(state) || footprint <= limits.active.kilobytes
    {
      apps[app].overLimitNoted = false
    }
    let available = memory.availableKB
    if available < metrics.minAvailableKB {
      metrics.minAvailableKB = available
      metrics.minFreeKB = memory.freeKB
      metrics.peakUsedKB = device.memoryKB - available
    }
    policy.appDidChange(app, apps[app], nowMs: queue.now)
  }

  /// Tells the policy of a change to `app` that moves no memory (its background work starting):
  /// `refresh` when its footprint parts and state are as the last refresh left them, which then
  /// finds nothing to recompute, so nothing is recomputed.
  mutating func statusChanged(_ app: Int) {
    assert(
      apps[app].state == .notRunning
        || footprint(of: app, onScreen: apps[app].holdsScreenMemory) == apps[app].footprintKB,
      "a change that moves memory needs refresh")
    changed = true
    policy.appDidChange(app, apps[app], nowMs: queue.now)
  }

  /// Makes room for `kilobytes` more physical memory for `app` before it lands (docs/model.md §5):
  /// the memory warnings go out if the level it would leave enters warning, then the policy kills,
  /// one victim at a time, any process but `app`, while it wants to. Returns whether the memory
  /// fits; if it cannot (available memory would be negative), `app` is killed (`vm-pageshortage`, if it
  /// is running) and nothing lands.
  mutating func reserve(_ app: Int, _ kilobytes: Int) -> Bool {
    guard kilobytes > 0 else { return true }
    // Room enough, and no level to register: settling now would do nothing (the common case).
    let remaining = availableKB - kilobytes
    if remaining >= policyWatermarkKB, remaining >= device.criticalThresholdKB, !inShortfall,
      device.level(availableKB: remaining) == level
    {
      lastEpisodeKills = 0
      return true
    }
    memory.pendingKB = kilobytes
    pendingApp = app
    defer {
      memory.pendingKB = 0
      pendingApp = -1
    }
    let rank = memoryChanged()
    guard availableKB - kilobytes >= 0 else {
      if apps[app].state.isResident { kill(app, .vmPageshortage, rank: rank + 1) }
      return false
    }
    return true
  }

  /// After any change to memory (and after every event): register the new pressure level (sending
  /// memory warnings on entering `warning`), then let the policy evict, one process at a time, until
  /// it stops; the allocating process, while an allocation waits, is never its victim. If free
  /// memory is still below critical then, a shortfall is recorded (once for each time it starts).
  /// Returns the number of kills made.
  @discardableResult
  mutating func memoryChanged() -> Int {
    swapOutWaiting()
    updateLevel()
    var rank = 0
    passes += 1
    while !failed {
      // An action under way (jetsam's aggressive march, reaper sweep or kill after a purge,
      // ActivityManager's trim) goes on above the policy's levels.
      // Below the policy's watermark, unless it says it cannot act yet at this level.
      let watermark = min(policyWatermarkKB, policy.actsNowBelowFreeKB(nowMs: queue.now))
      guard memory.availableAfterPendingKB < watermark || policyActing || policy.isActing else {
        policyActing = false
        break
      }
      guard let eviction = askPolicy(rank) else { return rank }
      policyActing = policy.isActing
      // A policy that names the allocating process has no one else to offer.
      if eviction.app == exemptApp { break }
      guard carryOut(eviction, rank: &rank) else { return rank }
      swapOutWaiting()
      updateLevel()
    }
    if endEpisode(rank) { reconsider(view) }
    return rank
  }

  /// The policy's next eviction, read from the view of this instant; when it has none, the
  /// episode of `rank` kills ends, and the policy is asked when to ask it again with the same view
  /// (one view built, not two, at each wake-up of a stalled lmkd). The view is gone before an
  /// eviction is carried out, so the kill does not copy the processes' array it shares.
  private mutating func askPolicy(_ rank: Int) -> Eviction? {
    let view = self.view
    if let eviction = policy.nextEviction(view) { return eviction }
    policyActing = false
    if endEpisode(rank) { reconsider(view) }
    return nil
  }

  /// Ends `memoryChanged`'s episode of `rank` kills: a shortfall is recorded. Returns whether the
  /// policy is to say when to ask it again (memory is below its watermark).
  @inline(__always)
  private mutating func endEpisode(_ rank: Int) -> Bool {
    let effective = memory.availableAfterPendingKB
    if effective < device.criticalThresholdKB {
      if !inShortfall { recordShortfall() }
      metrics.maxShortfallKB = max(metrics.maxShortfallKB, device.criticalThresholdKB - effective)
    } else {
      inShortfall = false
    }
    lastEpisodeKills = rank
    return effective < policyWatermarkKB && !failed
  }

  /// A policy whose decisions change with time alone (a process leaving its aging band, lmkd's
  /// next PSI event) says, reading `view`, when to ask it again.
  private mutating func reconsider(_ view: DeviceView) {
    if let wake = policy.reconsiderAtMs(view), wake > queue.now, wake != policyWakeMs {
      policyWakeMs = wake
      schedule(.policyWake, -1, atMs: wake)
    }
  }

  /// Purges or kills as `eviction` says, counting a kill in `rank`; false (with `failure` set) if
  /// the policy chose a process it cannot purge or kill.
  mutating func carryOut(_ eviction: Eviction, rank: inout Int) -> Bool {
    let app = eviction.app
    guard apps.indices.contains(app) else {
      failure = .invalidEviction(
        policy: policy.name, app: "#\(app)", problem: "there is no such process")
      return false
    }
    guard apps[app].state.isResident else {
      failure = .invalidEviction(
        policy: policy.name, app: name(of: app), problem: "it is not running")
      return false
    }
    if eviction.purgeOnly {
      guard apps[app].purgeableKB > 0 else {
        failure = .invalidEviction(
          policy: policy.name, app: name(of: app), problem: "it has nothing to purge")
        return false
      }
      apps[app].cachesKB = 0
      refresh(app)
      note(app, .purge)
    } else {
      rank += 1
      kill(app, eviction.reason, rank: rank, lmkd: eviction.lmkd)
    }
    return true
  }

  /// Registers the level of the available memory left once any pending allocation lands; on entering
  /// `warning` or worse from `normal`, every running app gets didReceiveMemoryWarning (suspended apps
  /// and system processes run no UIApplication code and get nothing). Inlined: most calls find the
  /// level unchanged.
  @inline(__always)
  mutating func updateLevel() {
    let new = device.level(availableKB: memory.availableAfterPendingKB)
    if new != level { enterLevel(new) }
  }

  /// Registers `new`, a level other than the current one (`updateLevel`).
  private mutating func enterLevel(_ new: PressureLevel) {
    let old = level
    level = new
    policy.pressureDidChange(to: new, nowMs: queue.now)
    emit(-1, .pressure)
    if old == .normal {
      deliverMemoryWarnings()
      updateLevel()
    }
  }

  /// didReceiveMemoryWarning to every running app, in app order; each frees its share of its caches.
  mutating func deliverMemoryWarnings() {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: running.members)
    scratch.sort()
    for app in scratch {
      apps[app].cachesKB -= apps[app].cachesKB * traits[app].warningFreesPercent / 100
      refresh(app)
      note(app, .memoryWarning, callback: .didReceiveMemoryWarning)
      metrics.memoryWarnings += 1
      counters[app].memoryWarnings += 1
    }
  }

  mutating func recordShortfall() {
    inShortfall = true
    metrics.shortfalls += 1
    emit(-1, .shortfall)
  }

  /// The name of process `app`, for messages.
  func name(of app: Int) -> String {
    app < appCount ? profiles[app].id : device.systemProcesses[app - appCount].name
  }

  /// Terminates `app` for `reason`: willTerminate first if it is an app running in the background
  /// and the reason allows it (`KillReason.warnsBackgroundApp`), otherwise no callback. `rank` is its
  /// place in the current pressure episode, 0 for kills no policy chose. A system process launchd
  /// relaunches is scheduled to come back.
  mutating func kill(_ app: Int, _ reason: KillReason, rank: Int = 0, lmkd: LmkdKillInfo? = nil) {
    let state = apps[app].state
    let footprint = apps[app].footprintKB
    let physical = apps[app].physicalKB
    let availableBefore = availableKB
    let band = policy.band(of: app, nowMs: queue.now)
    let system = apps[app].isSystemProcess
    let callback: Callback? =
      !system && state == .background && reason.warnsBackgroundApp ? .willTerminate : nil
    if foreground == app {
      foreground = -1
      interrupted = false
    }
    apps[app].lifeGeneration &+= 1
    apps[app].baseKB = 0
    apps[app].extraKB = 0
    apps[app].grownKB = 0
    apps[app].peakKB = 0
    apps[app].rampKB = 0
    apps[app].cachesKB = 0
    apps[app].holdsScreenMemory = false
    apps[app].activeModes = 0
    apps[app].hasBackgroundWork = false
    apps[app].leftForegroundMs = nil
    apps[app].isBehindLock = false
    if behindLock == app { behindLock = -1 }
    apps[app].priority = PriorityRequest()
    move(app, to: .notRunning, .kill, callback: callback, reason: reason)
    killCount += 1
    if system {
      metrics.systemProcessKills += 1
      metrics.systemProcessKillsByReason[Int(reason.rawValue)] += 1
      if traits[app].relaunchDelayMs >= 0, reason != .reboot {
        schedule(.relaunch, app, atMs: queue.now + traits[app].relaunchDelayMs)
      }
    } else {
      metrics.killsByReason[Int(reason.rawValue)] += 1
      apps[app].lostToPressure = reason.isMemoryPressure
    }
    countKill(app, reason, inForeground: state.isForeground)
    metrics.countKill(band: band, reason: reason)
    observer.record(
      KillRecord(
        seq: seq, timeMs: queue.now, app: app, reason: reason, rank: rank, state: state,
        footprintKB: footprint, freedKB: physical, availableBeforeKB: availableBefore,
        availableAfterKB: availableKB, pendingKB: memory.pendingKB, allocatingApp: exemptApp,
        callback: callback, band: band, lmkd: lmkd))
  }

  /// The launch peak is over: the app's footprint drops by it.
  mutating func endLaunchPeak(_ app: Int) {
    guard apps[app].state.isResident, apps[app].peakKB > 0 else { return }
    apps[app].peakKB = 0
    refresh(app)
    note(app, .launchPeakEnd)
  }

  /// Grows `app`'s dirty memory by `kilobytes` through `change` once there is room, or kills it:
  /// `per-process-limit` if it would pass its limit, `vm-pageshortage` if it cannot fit. Returns
  /// whether it grew.
  @discardableResult
  mutating func allocateDirty(
    _ app: Int, _ kilobytes: Int, _ kind: EventKind, change: (inout AppStatus) -> Void
  ) -> Bool {
    if crossesFatalLimit(app, to: apps[app].footprintKB + kilobytes) {
      killOverLimit(app, growth: kilobytes)
      return false
    }
    // On a compressing device a suspended process's dirty memory lands compressed, and a suspended
    // app allocates nothing anyway: the physical growth is the footprint's.
    guard reserve(app, kilobytes) else { return false }
    change(&apps[app])
    refresh(app)
    note(app, kind)
    noteLimitCrossing(app)
    return true
  }

  /// The limit a running process's allocations cross: its active limit, or its one fatal limit.
  /// Every allocation is made while the process runs, so while its active limit is in force; a
  /// lower inactive limit coming into force checks nothing (`ledger_set_limit`,
  /// osfmk/kern/ledger.c, only re-arms; `task_set_phys_footprint_limit_internal`,
  /// osfmk/kern/task.c, checks the balance only for the calling task).
  func activeLimit(_ app: Int) -> MemoryLimits.Limit {
    traits[app].limits?.active ?? MemoryLimits.Limit(kilobytes: traits[app].limitKB, isFatal: true)
  }

  /// Whether `app` growing to `footprintKB` crosses a fatal limit: it is killed
  /// (`per-process-limit`, `memorystatus_on_ledger_footprint_exceeded`, kern_memorystatus.c:4957).
  func crossesFatalLimit(_ app: Int, to footprintKB: Int) -> Bool {
    let limit = activeLimit(app)
    return limit.isFatal && footprintKB > limit.kilobytes
  }

  /// After memory landed for `app`: if it is now over a non-fatal active limit, a
  /// `limit-exceeded` event, once until it is back under the limit or its limit changes (the
  /// ledger calls back once, `LF_CALLED_BACK`; kern_memorystatus.c:4974–4987 notifies the process
  /// and marks it a high-watermark candidate, and nothing dies).
  mutating func noteLimitCrossing(_ app: Int) {
    guard let limits = traits[app].limits, !apps[app].overLimitNoted,
      apps[app].state.isRunning || apps[app].isSystemProcess,
      apps[app].footprintKB > limits.active.kilobytes
    else { return }
    apps[app].overLimitNoted = true
    note(app, .limitExceeded)
  }

  /// Kills `app` because `growth` more would take it over its limit (`per-process-limit`, no
  /// callback): instead of the growth, which is the kill's pending memory.
  mutating func killOverLimit(_ app: Int, growth: Int) {
    memory.pendingKB = growth
    pendingApp = app
    kill(app, .perProcessLimit)
    memory.pendingKB = 0
    pendingApp = -1
  }

  /// A step of a ramped cold launch: the next share of the app's memory arrives.
  mutating func launchStep(_ app: Int) {
    guard apps[app].state.isResident, apps[app].rampKB > 0 else { return }
    let profile = traits[app]
    let step = min(
      apps[app].rampKB, (profile.residentKB + profile.launchPeakKB) / profile.launchSteps)
    guard allocateDirty(app, step, .launchStep, change: { $0.rampKB -= step }) else { return }
    if apps[app].rampKB > 0 {
      schedule(.launchStep, app, atMs: queue.now + profile.coldLaunchMs / profile.launchSteps)
    }
  }

  /// Schedules the next growth step of an active app, if it grows.
  mutating func scheduleGrowth(_ app: Int) {
    guard traits[app].growthPerTickKB > 0, apps[app].state == .active else { return }
    guard apps[app].grownKB < traits[app].maxGrowthKB else { return }
    schedule(.growthTick, app, atMs: queue.now + Defaults.growthTickMs)
  }

  /// One growth step of an active app: its dirty memory grows, up to its `maxGrowth`.
  mutating func grow(_ app: Int) {
    guard apps[app].state == .active else { return }
    let step = min(traits[app].growthPerTickKB, traits[app].maxGrowthKB - apps[app].grownKB)
    guard step > 0 else { return }
    guard allocateDirty(app, step, .grow, change: { $0.grownKB += step }) else { return }
    scheduleGrowth(app)
  }

  /// The app allocates dirty memory (only an app running code can).
  mutating func allocate(_ app: Int, kilobytes: Int) {
    guard apps[app].state.isRunning else { return }
    allocateDirty(app, kilobytes, .allocate) { $0.extraKB += kilobytes }
  }

  /// The app frees dirty memory it allocated (never below none).
  mutating func free(_ app: Int, kilobytes: Int) {
    guard apps[app].state.isRunning else { return }
    apps[app].extraKB -= min(kilobytes, apps[app].extraKB)
    refresh(app)
    note(app, .free)
  }

  /// Counts a kill of `app` for `reason` in its row of `killCounts` (and of `foregroundKillCounts`
  /// if it was on screen), made at its first such kill.
  mutating func countKill(_ app: Int, _ reason: KillReason, inForeground: Bool) {
    killCounts.count(reason, row: &counters[app].killRow)
    if inForeground { foregroundKillCounts.count(reason, row: &counters[app].foregroundKillRow) }
  }
}
