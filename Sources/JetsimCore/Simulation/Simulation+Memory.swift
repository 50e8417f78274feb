/// The memory rules of docs/model.md §3 and §5: footprints, pressure levels, edge-triggered memory
/// warnings, per-app limits, and kills until free memory is back above critical.
extension Simulation {
  /// Recomputes `app`'s footprint and physical memory from its parts and state, updates the totals,
  /// and tells the policy. Call after any change to the app.
  mutating func refresh(_ app: Int) {
    let status = apps[app]
    var footprint = 0
    if status.state != .notRunning {
      footprint = traits[app].residentKB + status.grownKB + status.extraKB + status.peakKB
      if status.holdsScreenMemory { footprint += status.cachesKB + traits[app].backingStoresKB }
    }
    var physical = footprint
    if status.state == .suspended, device.compressionPermille > 1000 {
      physical = footprint * 1000 / device.compressionPermille
    }
    usedKB += physical - status.physicalKB
    apps[app].footprintKB = footprint
    apps[app].physicalKB = physical
    if footprint > peakFootprintKB[app] { peakFootprintKB[app] = footprint }
    let free = freeKB
    if free < metrics.minFreeKB { metrics.minFreeKB = free }
    if device.memoryKB - free > metrics.peakUsedKB { metrics.peakUsedKB = device.memoryKB - free }
    policy.appDidChange(app, apps[app], nowMs: queue.now)
  }

  /// After any change to memory: register the new pressure level (sending memory warnings on
  /// entering `warning`), then let the policy evict, one app at a time, until it stops. If free
  /// memory is still below critical then, record a shortfall.
  mutating func memoryChanged() {
    updateLevel()
    defer { episodeRank = 0 }
    while !failed {
      guard freeKB < policyWatermarkKB, let eviction = policy.nextEviction(view) else {
        if freeKB < device.criticalThresholdKB { recordShortfall() }
        return
      }
      let app = eviction.app
      guard apps.indices.contains(app) else {
        failure = .invalidEviction(
          policy: policy.name, app: "#\(app)", problem: "there is no such app")
        return
      }
      guard apps[app].state.isResident else {
        failure = .invalidEviction(
          policy: policy.name, app: profiles[app].id, problem: "it is not running")
        return
      }
      if eviction.purgeOnly {
        guard apps[app].purgeableKB > 0 else {
          failure = .invalidEviction(
            policy: policy.name, app: profiles[app].id, problem: "it has nothing to purge")
          return
        }
        apps[app].cachesKB = 0
        refresh(app)
        note(app, .purge)
      } else {
        episodeRank += 1
        kill(app, eviction.reason, rank: episodeRank)
      }
      updateLevel()
    }
  }

  /// Registers the level that free memory implies; on entering `warning` or worse from `normal`,
  /// every running app gets didReceiveMemoryWarning (suspended apps run no code and get nothing).
  mutating func updateLevel() {
    let new = device.level(freeKB: freeKB)
    guard new != level else { return }
    let old = level
    level = new
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
    metrics.shortfalls += 1
    metrics.maxShortfallKB = max(metrics.maxShortfallKB, device.criticalThresholdKB - freeKB)
    emit(-1, .shortfall)
  }

  /// Kills `app` at once if its footprint is over its per-app limit (no callback).
  mutating func enforceLimit(_ app: Int) {
    if apps[app].footprintKB > traits[app].limitKB { kill(app, .perProcessLimit) }
  }

  /// Terminates `app` for `reason`: willTerminate first if it is running in the background and the
  /// reason allows it (`KillReason.warnsBackgroundApp`), otherwise no callback. `rank` is its place in
  /// the current pressure episode, 0 for kills no policy chose.
  mutating func kill(_ app: Int, _ reason: KillReason, rank: Int = 0) {
    let state = apps[app].state
    let footprint = apps[app].footprintKB
    let physical = apps[app].physicalKB
    let freeBefore = freeKB
    let callback: Callback? =
      state == .background && reason.warnsBackgroundApp ? .willTerminate : nil
    if foreground == app {
      foreground = -1
      interrupted = false
    }
    apps[app].extraKB = 0
    apps[app].grownKB = 0
    apps[app].peakKB = 0
    apps[app].cachesKB = 0
    apps[app].holdsScreenMemory = false
    apps[app].activeModes = 0
    apps[app].hasBackgroundWork = false
    apps[app].leftForegroundMs = nil
    move(app, to: .notRunning, .kill, callback: callback, reason: reason)
    metrics.killsByReason[Int(reason.rawValue)] += 1
    counters[app].killsByReason[Int(reason.rawValue)] += 1
    observer.record(
      KillRecord(
        seq: seq, timeMs: queue.now, app: app, reason: reason, rank: rank, state: state,
        footprintKB: footprint, freedKB: physical, freeBeforeKB: freeBefore, freeAfterKB: freeKB,
        callback: callback))
  }

  /// The launch peak is over: the app's footprint drops by it.
  mutating func endLaunchPeak(_ app: Int) {
    guard apps[app].state.isResident, apps[app].peakKB > 0 else { return }
    apps[app].peakKB = 0
    refresh(app)
    note(app, .launchPeakEnd)
    memoryChanged()
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
    apps[app].grownKB += step
    refresh(app)
    note(app, .grow)
    enforceLimit(app)
    scheduleGrowth(app)
    memoryChanged()
  }

  /// The app allocates dirty memory (only an app running code can).
  mutating func allocate(_ app: Int, kilobytes: Int) {
    guard apps[app].state.isRunning else { return }
    apps[app].extraKB += kilobytes
    refresh(app)
    note(app, .allocate)
    enforceLimit(app)
    memoryChanged()
  }

  /// The app frees dirty memory it allocated (never below none).
  mutating func free(_ app: Int, kilobytes: Int) {
    guard apps[app].state.isRunning else { return }
    apps[app].extraKB -= min(kilobytes, apps[app].extraKB)
    refresh(app)
    note(app, .free)
    memoryChanged()
  }
}
