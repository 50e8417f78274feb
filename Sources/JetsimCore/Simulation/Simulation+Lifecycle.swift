/// The lifecycle rules of docs/model.md §2 and §4: every transition, its callbacks, and the background
/// time that follows leaving the screen. Every transition that brings memory back (a launch, a
/// resume) first waits for room (`reserve`, docs/model.md §5).
extension Simulation {
  /// Moves `app` to `state` and records the event. Every state change goes through here.
  mutating func move(
    _ app: Int, to state: AppState, _ kind: EventKind, callback: Callback? = nil,
    reason: KillReason? = nil
  ) {
    let old = apps[app].state
    assert(
      old.canMove(to: state) || kind == .snapshot || kind == .start || kind == .relaunch,
      "illegal transition \(old) -> \(state)")
    let now = queue.now
    if state == .suspended, old != .suspended { counters[app].suspensions += 1 }
    if old == .suspended {
      counters[app].suspendedKBMs +=
        Double(apps[app].footprintKB) * Double(now - apps[app].enteredStateMs)
    }
    stateTimeMs[app * AppState.allCases.count + Int(old.rawValue)] += now - apps[app].enteredStateMs
    apps[app].enter(state, atMs: now, bySnapshot: kind == .snapshot)
    if !apps[app].isSystemProcess, old.isRunning != state.isRunning {
      running.update(app, isMember: state.isRunning)
    }
    if apps[app].isSwapped, state != .suspended { swapIn(app) }
    let thawed = freezer.isOn && freezerMove(app, from: old, to: state)
    if old.isResident != state.isResident {
      resident.update(app, isMember: state.isResident)
      if apps[app].isSystemProcess {
        residentSystemProcesses += state.isResident ? 1 : -1
      } else {
        metrics.peakAppsResident = max(metrics.peakAppsResident, residentApps)
      }
    }
    refreshInline(app)
    emit(app, kind, from: old, to: state, callback: callback, reason: reason)
    // The lock ends where the row says so: an app comes on screen, or the app whose open unlocked
    // the device is killed on the way (`EventRecord.endsLock`).
    if behindLock >= 0,
      (state.isForeground && !old.isForeground) || (kind == .kill && app == unlockingApp)
    {
      endLock()
    }
    if thawed { note(app, .thaw) }
    if state == .suspended, memory.swapKB > 0 { swapOut(app) }
  }

  /// The memory a launch into `state` brings: resident memory and the launch peak, plus caches and
  /// backing stores on screen; with a ramped cold launch, only its first step of dirty memory.
  func launchKB(_ app: Int, into state: AppState) -> (total: Int, ramp: Int) {
    let profile = traits[app]
    let dirty = profile.residentKB + profile.launchPeakKB
    var ramp = 0
    if state == .inactive, profile.launchSteps > 1 {
      ramp = dirty / profile.launchSteps * (profile.launchSteps - 1)
    }
    let screen = state == .inactive ? profile.cachesKB + profile.backingStoresKB : 0
    return (dirty - ramp + screen, ramp)
  }

  /// Starts `app` from not running, on screen (`.inactive`) or in the background, once its memory
  /// has room; if it cannot fit, the launch fails: the app is killed before its memory lands.
  /// Returns whether it is running.
  @discardableResult
  mutating func launch(_ app: Int, into state: AppState, userOpened: Bool = false) -> Bool {
    let profile = traits[app]
    let (memory, ramp) = launchKB(app, into: state)
    apps[app].lifeGeneration &+= 1
    apps[app].everLaunched = true
    apps[app].lostToPressure = false
    counters[app].launches += 1
    if crossesFatalLimit(app, to: memory) {
      failLaunch(app, into: state, memory: memory, reason: .perProcessLimit)
      return false
    }
    let killsBefore = killCount
    guard reserve(app, memory) else {
      failLaunch(app, into: state, memory: memory, reason: .vmPageshortage)
      return false
    }
    if userOpened, killCount > killsBefore { metrics.launchesWaited += 1 }
    apps[app].baseKB = profile.residentKB
    apps[app].peakKB = profile.launchPeakKB
    apps[app].rampKB = ramp
    apps[app].cachesKB = state == .inactive ? profile.cachesKB : 0
    apps[app].holdsScreenMemory = state == .inactive
    move(app, to: state, .launch, callback: .willFinishLaunching)
    note(app, .finishLaunching, callback: .didFinishLaunching)
    noteLimitCrossing(app)
    if profile.launchPeakKB > 0 {
      schedule(.launchPeakEnd, app, atMs: queue.now + profile.coldLaunchMs)
    }
    if ramp > 0 {
      schedule(.launchStep, app, atMs: queue.now + profile.coldLaunchMs / profile.launchSteps)
    }
    return true
  }

  /// A launch whose memory never landed: the process starts (with nothing) and is killed at once,
  /// with the allocation it waited for as the kill's pending memory.
  mutating func failLaunch(_ app: Int, into state: AppState, memory: Int, reason: KillReason) {
    self.memory.pendingKB = memory
    pendingApp = app
    move(app, to: state, .launch, callback: .willFinishLaunching)
    kill(app, reason, rank: reason == .vmPageshortage ? lastEpisodeKills + 1 : 0)
    self.memory.pendingKB = 0
    pendingApp = -1
  }

  /// The user opens `app`: cold launch, warm resume, or nothing if it is on screen already.
  /// Opening an app unlocks the device.
  mutating func open(_ app: Int) {
    locked = false
    lockedApp = -1
    guard foreground != app else { return }
    if foreground >= 0 {
      leaveForeground()
      memoryChanged()
    }
    let profile = traits[app]
    metrics.opens += 1
    if apps[app].everLaunched { metrics.opensOfLaunchedApps += 1 }
    if apps[app].state == .notRunning {
      let lostToPressure = apps[app].lostToPressure
      guard launch(app, into: .inactive, userOpened: true) else { return }
      if lostToPressure { metrics.pressureColdLaunches += 1 }
      metrics.coldLaunches += 1
      counters[app].coldLaunches += 1
      metrics.launchTimeMs += profile.coldLaunchMs
    } else {
      // A warm resume: caches and backing stores come back (and, on a device that compresses
      // memory, the suspended app's memory is decompressed) once there is room.
      let onScreen = footprint(of: app, onScreen: true, cachesKB: profile.cachesKB)
      // Killed on the way, the app ends the lock at its kill (`move`): no app comes on screen.
      unlockingApp = behindLock >= 0 ? app : -1
      defer { unlockingApp = -1 }
      if crossesFatalLimit(app, to: onScreen) {
        killOverLimit(app, growth: onScreen - apps[app].footprintKB)
        return
      }
      let killsBefore = killCount
      guard reserve(app, onScreen - apps[app].physicalKB) else { return }
      if killCount > killsBefore { metrics.launchesWaited += 1 }
      if apps[app].state == .suspended { move(app, to: .background, .resume) }
      apps[app].cachesKB = profile.cachesKB
      apps[app].holdsScreenMemory = true
      apps[app].hasBackgroundWork = false
      move(app, to: .inactive, .enterForeground, callback: .willEnterForeground)
      noteLimitCrossing(app)
      metrics.warmResumes += 1
      counters[app].warmResumes += 1
      metrics.launchTimeMs += profile.warmResumeMs
    }
    foreground = app
    move(app, to: .active, .becomeActive, callback: .didBecomeActive)
    scheduleGrowth(app)
  }

  /// The foreground app leaves the screen: resign, enter the background, purge caches and backing
  /// stores, then exit (exitsOnSuspend) or start its background time.
  mutating func leaveForeground() {
    let app = foreground
    foreground = -1
    interrupted = false
    apps[app].leftForegroundMs = queue.now
    if apps[app].state == .active {
      move(app, to: .inactive, .resignActive, callback: .willResignActive)
    }
    move(app, to: .background, .enterBackground, callback: .didEnterBackground)
    apps[app].cachesKB = 0
    apps[app].holdsScreenMemory = false
    refresh(app)
    note(app, .purge)
    let profile = traits[app]
    if profile.exitsOnSuspend {
      kill(app, .exitOnSuspend)
    } else {
      startBackgroundWork(app, workMs: profile.backgroundWorkMs, taskMs: profile.backgroundTaskMs)
    }
  }

  /// Schedules the end of `app`'s background time: suspension when the work is done, or the watchdog
  /// (didEnterBackground too slow) or the background-task expiry. Its memory must be as the last
  /// `refresh` left it: background work moves none.
  mutating func startBackgroundWork(_ app: Int, workMs: Int, taskMs: Int) {
    let now = queue.now
    let (end, timer): (Int, TimerKind) =
      if workMs > device.enterBackgroundTimeoutMs {
        (now + device.enterBackgroundTimeoutMs, .watchdog)
      } else if taskMs > device.backgroundTaskLimitMs {
        (now + workMs + device.backgroundTaskLimitMs, .taskExpired)
      } else {
        (now + workMs + taskMs, .backgroundWorkEnd)
      }
    // Both fields written together (one uniqueness check of the array), before the timer: it
    // reads neither.
    apps[app].workEndMs = end
    apps[app].hasBackgroundWork = true
    schedule(timer, app, atMs: end)
    statusChanged(app)
  }

  /// The app's background work is done: it is suspended, unless a background mode keeps it running.
  mutating func finishBackgroundWork(_ app: Int) {
    guard apps[app].state == .background else { return }
    apps[app].hasBackgroundWork = false
    if apps[app].keepsRunning {
      refresh(app)
      return
    }
    move(app, to: .suspended, .suspend)
  }

  mutating func goHome() {
    guard foreground >= 0 else { return }
    leaveForeground()
  }

  mutating func lock() {
    guard !locked else { return }
    locked = true
    lockedApp = foreground
    if foreground >= 0 {
      behindLock = foreground
      apps[foreground].isBehindLock = true
    }
    goHome()
  }

  /// Unlocking brings back the app that was on screen when the device locked (resumed, or launched
  /// again if it was killed meanwhile).
  mutating func unlock() {
    guard locked else { return }
    let app = lockedApp
    locked = false
    lockedApp = -1
    if app >= 0 { open(app) }
  }

  /// An app has come on screen (from off it), or an open that unlocked the device failed before
  /// any did: the app behind the lock is so no more. When it is not on screen, the policy hears of
  /// it (on Android the app behind the lock stops being the top app and becomes the previous one);
  /// when it is, its coming on screen says it all.
  mutating func endLock() {
    let app = behindLock
    behindLock = -1
    apps[app].isBehindLock = false
    if !apps[app].state.isForeground { statusChanged(app) }
  }

  /// The foreground app becomes inactive for `durationMs` (a call, an alert). A second interruption
  /// while the first lasts extends it.
  mutating func interrupt(durationMs: Int) {
    guard foreground >= 0 else { return }
    let app = foreground
    let end = queue.now + durationMs
    if interrupted {
      guard end > apps[app].interruptionEndMs else { return }
      apps[app].timerGeneration &+= 1
    } else {
      move(app, to: .inactive, .resignActive, callback: .willResignActive)
      interrupted = true
    }
    apps[app].interruptionEndMs = end
    schedule(.interruptionEnd, app, atMs: end)
  }

  mutating func endInterruption(_ app: Int) {
    guard interrupted, foreground == app, apps[app].state == .inactive else { return }
    interrupted = false
    move(app, to: .active, .becomeActive, callback: .didBecomeActive)
    scheduleGrowth(app)
  }

  /// Brings a suspended app back to running in the background (a wake, a mode starting), once the
  /// memory that decompressing it needs has room. Returns whether it is running.
  mutating func resumeIntoBackground(_ app: Int) -> Bool {
    guard reserve(app, footprint(of: app, onScreen: false) - apps[app].physicalKB) else {
      return false
    }
    move(app, to: .background, .resume)
    return true
  }

  /// The system runs `app` in the background for `durationMs` (push, fetch, location): a background
  /// launch if it is not running, a resume if it is suspended. A wake longer than the device's
  /// background task limit is killed at the limit.
  mutating func wake(_ app: Int, durationMs: Int) {
    let limit = device.backgroundTaskLimitMs
    switch apps[app].state {
    case .active, .inactive:
      return
    case .notRunning:
      guard launch(app, into: .background) else { return }
    case .suspended:
      guard resumeIntoBackground(app) else { return }
    case .background:
      if apps[app].hasBackgroundWork, durationMs <= limit,
        apps[app].workEndMs >= queue.now + durationMs
      {
        return
      }
      apps[app].timerGeneration &+= 1
    }
    apps[app].workEndMs = queue.now + min(durationMs, limit)
    schedule(durationMs > limit ? .taskExpired : .backgroundWorkEnd, app, atMs: apps[app].workEndMs)
    apps[app].hasBackgroundWork = true
    // Launched, resumed (each refreshed) or in the background as it was: no memory moved.
    statusChanged(app)
  }

  /// A background mode starts: the app is launched or resumed into the background if it is not
  /// running, and stays running while the mode lasts.
  mutating func startMode(_ app: Int, bit: UInt8) {
    switch apps[app].state {
    case .notRunning: guard launch(app, into: .background) else { return }
    case .suspended: guard resumeIntoBackground(app) else { return }
    default: break
    }
    apps[app].activeModes |= bit
    refresh(app)
    note(app, .modeStart, mode: BackgroundMode.allCases.first { $0.bit == bit })
  }

  /// A background mode stops; an app in the background with no work left is suspended.
  mutating func stopMode(_ app: Int, bit: UInt8) {
    guard apps[app].activeModes & bit != 0 else { return }
    apps[app].activeModes &= ~bit
    refresh(app)
    note(app, .modeStop, mode: BackgroundMode.allCases.first { $0.bit == bit })
    if apps[app].state == .background, !apps[app].hasBackgroundWork, !apps[app].keepsRunning {
      move(app, to: .suspended, .suspend)
    }
  }

  /// The user swipes `app` away: a suspended app dies with no callback, one running in the background
  /// gets willTerminate; the foreground app first leaves the screen.
  mutating func forceQuit(_ app: Int) {
    guard apps[app].state != .notRunning else { return }
    if foreground == app {
      leaveForeground()
      memoryChanged()
    }
    if apps[app].state.isResident { kill(app, .userForceQuit) }
  }

  /// Every process stops, with no callbacks; the device comes back unlocked at the home screen, and
  /// its system processes start again.
  mutating func reboot() {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: resident.members)
    scratch.sort()
    for app in scratch { kill(app, .reboot) }
    locked = false
    lockedApp = -1
    for app in appCount..<apps.count where apps[app].state == .notRunning {
      startSystemProcess(app, .start)
    }
  }
}
