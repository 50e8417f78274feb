/// One device running one workload under one eviction policy: the model of docs/model.md.
///
/// The simulation owns the process states and the event queue; the policy only chooses victims,
/// and the observer only records. It is generic over its policy: `Simulator.run` gives each
/// built-in policy a simulation compiled for it (its calls direct, its state inline, no existential
/// box to check at every call) and runs any other behind `AnyEvictionPolicy`, one indirect call
/// each; the observer is an existential. It allocates nothing per event once its arrays have grown
/// to the number of processes and pending timers.
///
/// Processes are numbered apps first (in the scenario's order), then the device's system processes.
/// After every event the simulation settles memory (`memoryChanged`); every allocation waits for
/// room first (`reserve`), so free memory is never negative.
///
/// Library users run it through `Simulator.run`.
package struct Simulation<Policy: EvictionPolicy> {
  enum TimerKind: UInt8 {
    case backgroundWorkEnd, watchdog, taskExpired, interruptionEnd, launchPeakEnd, growthTick
    case launchStep, relaunch, policyWake
  }

  struct Timer {
    var kind: TimerKind
    var app: Int32
    var generation: UInt32
  }

  /// The device.
  package let device: DeviceProfile
  /// The app profiles, by index.
  package let profiles: [AppProfile]
  /// The number of apps; processes from here on are the device's system processes.
  package let appCount: Int
  /// The seed of the run's random streams.
  package let seed: UInt64
  /// The state the run starts from, if any.
  package let snapshot: Snapshot?
  /// Every process's status, by index.
  package internal(set) var apps: [AppStatus]
  /// The eviction policy.
  package internal(set) var policy: Policy
  /// The observer that receives events and kills.
  package var observer: any SimulationObserver
  /// Run-wide counters.
  package internal(set) var metrics = RunMetrics()
  /// Per-process counters, by index.
  package var appStats: [AppStats] {
    let states = AppState.allCases.count
    return counters.indices.map {
      var stats = AppStats(
        counters[$0], peakFootprintKB: peakFootprintKB[$0],
        timeInState: TableRow(stateTimeMs, row: $0, width: states))
      if let row = killCounts.row(counters[$0].killRow) { stats.killRow = row }
      if let row = foregroundKillCounts.row(counters[$0].foregroundKillRow) {
        stats.foregroundKillRow = row
      }
      return stats
    }
  }
  /// The per-process counters that change rarely, as plain data: a copy of the simulation copies
  /// them without counting references. The two that change on most events live in flat arrays
  /// (one uniqueness check per update instead of two).
  var counters: [ProcessCounters]
  /// Every kill so far, of apps and system processes, counted as it is made: to tell whether an
  /// allocation waited (`metrics.totalKills` adds up a row of reasons, which a launch read twice).
  var killCount = 0
  /// The kills of each process killed so far, by reason (its row: `killRow`).
  var killCounts = KillTable()
  /// The same for the kills while on screen (`foregroundKillRow`).
  var foregroundKillCounts = KillTable()
  /// Time in each state, `process × states + state`.
  var stateTimeMs: [Int]
  var peakFootprintKB: [Int]
  /// The pressure level the system has registered.
  package internal(set) var level: PressureLevel = .normal

  var queue = EventQueue<Timer>(capacity: 256)
  /// Where every page is: the one place the run keeps its memory (`DeviceMemory`), and the
  /// allocation waiting for room (docs/model.md §5).
  package internal(set) var memory: DeviceMemory
  /// Whose allocation waits for room (-1: none).
  var pendingApp = -1
  /// Whether anything changed in the current event (a state, a footprint): if not, settling it asks
  /// the policy nothing.
  var changed = false
  var seq = 0
  var foreground = -1
  var interrupted = false
  var locked = false
  var lockedApp = -1
  /// The app on screen when the device last locked, until the lock ends or it dies
  /// (`AppStatus.isBehindLock`); -1: none.
  var behindLock = -1
  /// The app whose open unlocked the device while the app behind the lock is the top app, during
  /// its warm resume (-1: none): its kill on the way ends the lock (`EventRecord.endsLock`).
  var unlockingApp = -1
  /// Whether free memory is below critical with nothing left to kill (a shortfall is recorded once
  /// each time this becomes true).
  var inShortfall = false
  /// The processes in memory (any state but notRunning).
  var resident: AppSet
  /// Time up to which the time-weighted metrics have been counted.
  var clockMs = 0
  /// The apps running code (active, inactive, background): memory warnings go to exactly these.
  /// System processes get no UIApplication callbacks, so they are never members.
  var running: AppSet
  var scratch: [Int] = []
  /// The profiles' numbers, by index.
  let traits: [AppTraits]
  /// The part of every `view` that does not change.
  let fixedView: DeviceView.Fixed
  /// The device's compression, at hand for the hot path.
  let compressionPermille: Int
  /// App swap (`memory` holds its size and use): each app's share of it, and whether apps waiting
  /// for swap should be looked at (`Simulation+Swap.swift`).
  var swapShareKB: [Int]
  var pendingSwapOut = false
  /// XNU's freezer, on a device that has it under the `jetsam` policy (`Simulation+Freezer.swift`).
  var freezer: FreezerState
  /// Free memory below which the policy may act (`EvictionPolicy.actsBelowFreeKB`).
  var policyWatermarkKB = Int.max
  /// When the policy last asked to be asked again (-1: never), so one instant is scheduled once.
  var policyWakeMs = -1
  /// Whether the policy said, at its latest eviction, that an action of its goes on whatever the
  /// memory (`EvictionPolicy.isActing`).
  var policyActing = false
  /// The kills the latest settling of memory made: a launch that then cannot fit ranks after them.
  var lastEpisodeKills = 0
  /// The passes of questions to the policy so far (`DeviceView.pass`).
  var passes = 0
  var started = false
  /// Why the run stopped early, if it did; `failed` mirrors it so the hot loop tests a flag.
  var failure: JetsimError? { didSet { failed = failure != nil } }
  /// The workload's step read but not played when the run reached its end time.
  package var unplayed: WorkloadStep?
  var failed = false

  /// A device with every app not running and its system processes about to start, at time 0.
  /// `table` is `ProcessTable(device: device, profiles: profiles)`, when the caller has built it
  /// for many simulations of the same processes.
  package init(
    device: DeviceProfile, apps profiles: [AppProfile], policy: Policy,
    observer: any SimulationObserver, seed: UInt64, snapshot: Snapshot? = nil,
    table: ProcessTable? = nil
  ) {
    let table = table ?? ProcessTable(device: device, profiles: profiles)
    self.device = device
    self.profiles = profiles
    self.seed = seed
    self.snapshot = snapshot
    self.policy = policy
    self.observer = observer
    appCount = profiles.count
    let count = table.idRanks.count
    apps = table.idRanks.indices.map {
      AppStatus(idRank: table.idRanks[$0], isSystemProcess: $0 >= profiles.count)
    }
    counters = Array(repeating: ProcessCounters(), count: count)
    stateTimeMs = Array(repeating: 0, count: count * AppState.allCases.count)
    peakFootprintKB = Array(repeating: 0, count: count)
    running = AppSet(capacity: count)
    resident = AppSet(capacity: count)
    scratch.reserveCapacity(count)
    traits = table.traits
    fixedView = table.fixedView
    compressionPermille = device.compressionPermille
    memory = DeviceMemory(device: device)
    swapShareKB = memory.swapKB > 0 ? Array(repeating: 0, count: profiles.count) : []
    freezer = FreezerState(
      device: device, processCount: count, policyHasFreezer: policy.asJetsam != nil)
    metrics.minFreeKB = memory.freeKB
    metrics.minAvailableKB = memory.availableKB
    metrics.peakUsedKB = device.reservedKB
    if policy.hasBands {
      metrics.killsByBand = Array(repeating: 0, count: RunMetrics.countedBands.count + 1)
    }
    self.policy.start(view)
    policyWatermarkKB = self.policy.actsBelowFreeKB(device)
    self.observer.start(policy: self.policy.name)
  }

  /// The current simulated time, in milliseconds.
  package var nowMs: Int { queue.now }
  /// Available memory (`DeviceMemory.availableKB`): what no process holds.
  package var availableKB: Int { memory.availableKB }
  /// The app on screen, if any.
  package var foregroundApp: Int? { foreground >= 0 ? foreground : nil }

  /// The device as policies see it: available memory counts the allocation waiting for room.
  package var view: DeviceView {
    DeviceView(
      fixed: fixedView, apps: apps, nowMs: queue.now, memory: memory, level: level,
      foregroundApp: foregroundApp, allocatingApp: exemptApp >= 0 ? exemptApp : nil, seed: seed,
      pass: passes)
  }

  /// The process no policy may choose now: the one whose allocation waits for room. Once it lands,
  /// the process is an ordinary candidate again, in the same instant (docs/model.md §5, since 0.3).
  var exemptApp: Int { pendingApp }

  /// Runs `workload` and the timers it sets off, until both are done or `endMs` is reached, then
  /// closes the time-based metrics at the end time (`endMs`, or the last event's time).
  ///
  /// Throws if a step is out of time order or names no app, or if the policy picks a process that
  /// is not in memory.
  package mutating func run(_ workload: inout some WorkloadSource, untilMs endMs: Int? = nil)
    throws(JetsimError)
  {
    start()
    var pending = workload.next()
    while !failed {
      let timerTime = queue.nextTime
      changed = false
      if let step = pending, timerTime.map({ step.timeMs <= $0 }) ?? true {
        if let endMs, step.timeMs > endMs { break }
        guard validate(step) else { break }
        advanceClock(to: step.timeMs)
        queue.advance(to: step.timeMs)
        perform(step)
        pending = workload.next()
      } else if let timerTime {
        if let endMs, timerTime > endMs { break }
        guard let (time, timer) = queue.pop() else { break }
        // With no end time, the run ends when the workload and the work it set off are done:
        // launchd relaunches a daemon when it is next needed, and once the workload is over
        // nothing needs it (a daemon killed on every relaunch would otherwise cycle forever).
        if pending == nil, endMs == nil, timer.kind == .relaunch { continue }
        advanceClock(to: time)
        if timer.kind == .policyWake { changed = true }
        fire(timer)
      } else {
        break
      }
      // Every event that changed something ends with memory settled: the level registered and the
      // policy asked.
      if changed {
        memoryChanged()
        if freezer.isOn, wakeFreezer() { memoryChanged() }
      }
    }
    if let failure { throw failure }
    unplayed = pending
    finish(atMs: max(endMs ?? queue.now, queue.now))
  }

  /// Whether `step` can be played: in time order and, if its action names a process, naming one
  /// the run has. Inlined, as every step passes; the failure of one that does not is set apart.
  @inline(__always)
  private mutating func validate(_ step: WorkloadStep) -> Bool {
    if step.timeMs >= queue.now,
      !step.kind.needsApp
        || (step.app >= 0 && Int(step.app) < (step.kind.namesAnyProcess ? apps.count : appCount))
    {
      return true
    }
    refuse(step)
    return false
  }

  /// Sets `failure` for `step`, which `validate` refused.
  private mutating func refuse(_ step: WorkloadStep) {
    if step.timeMs < queue.now {
      failure = .invalidValue(
        path: "workload", keyPath: "time", value: "\(step.timeMs)ms after \(queue.now)ms",
        expected: "steps in time order")
    } else if step.kind.needsApp {
      let count = step.kind.namesAnyProcess ? apps.count : appCount
      if step.app < 0 || Int(step.app) >= count {
        failure = .invalidValue(
          path: "workload", keyPath: "app", value: "index \(step.app)",
          expected:
            "\(step.kind.namesAnyProcess ? "a process" : "an app") index from 0 to \(count - 1)")
      }
    }
  }

  mutating func perform(_ step: WorkloadStep) {
    let app = Int(step.app)
    switch step.kind {
    case .open: open(app)
    case .home: goHome()
    case .lock: lock()
    case .unlock: unlock()
    case .interrupt: interrupt(durationMs: step.value)
    case .wake: wake(app, durationMs: step.value)
    case .startMode: startMode(app, bit: UInt8(truncatingIfNeeded: step.value))
    case .stopMode: stopMode(app, bit: UInt8(truncatingIfNeeded: step.value))
    case .allocate: allocate(app, kilobytes: step.value)
    case .free: free(app, kilobytes: step.value)
    case .forceQuit: forceQuit(app)
    case .reboot: reboot()
    case .assert: assertPriority(app, band: step.value)
    case .release: assertPriority(app, band: 0)
    case .dirty: setDirty(app, true)
    case .clean: setDirty(app, false)
    }
  }

  mutating func fire(_ timer: Timer) {
    let app = Int(timer.app)
    switch timer.kind {
    case .policyWake:
      // Nothing to do but settle, which the loop does after every event: the policy's decisions
      // may have changed with time alone (a process left its aging band).
      return
    case .launchPeakEnd, .launchStep, .relaunch:
      guard timer.generation == apps[app].lifeGeneration else { return }
    default:
      guard timer.generation == apps[app].timerGeneration else { return }
    }
    switch timer.kind {
    case .backgroundWorkEnd: finishBackgroundWork(app)
    case .watchdog: kill(app, .watchdog)
    case .taskExpired: kill(app, .backgroundTaskExpired)
    case .interruptionEnd: endInterruption(app)
    case .growthTick: grow(app)
    case .launchPeakEnd: endLaunchPeak(app)
    case .launchStep: launchStep(app)
    case .relaunch: relaunch(app)
    case .policyWake: break
    }
  }

  mutating func schedule(_ kind: TimerKind, _ app: Int, atMs time: Int) {
    let generation =
      switch kind {
      case .launchPeakEnd, .launchStep, .relaunch: apps[app].lifeGeneration
      case .policyWake: UInt32(0)
      default: apps[app].timerGeneration
      }
    // A policy's wake-up comes after everything else in its instant, so what it decides does not
    // depend on when the policy asked for it.
    queue.schedule(
      at: time, Timer(kind: kind, app: Int32(app), generation: generation),
      last: kind == .policyWake)
  }

  /// Counts the time-weighted metrics up to `time`.
  @inline(__always)
  mutating func advanceClock(to time: Int) {
    let elapsed = time - clockMs
    guard elapsed > 0 else { return }
    metrics.residentAppMs += residentApps * elapsed
    let refaults = memory.refaultKBPerSecond
    if refaults > 0 {
      metrics.refaultKBMsPerSecond += refaults * elapsed
      metrics.stallPermilleMs += memory.stallPermille * elapsed
    }
    if level >= .warning { metrics.timeWarningMs += elapsed }
    if level == .critical { metrics.timeCriticalMs += elapsed }
    clockMs = time
  }

  /// The number of apps in memory (system processes are not counted).
  var residentApps: Int { resident.count - residentSystemProcesses }
  /// The number of system processes in memory.
  var residentSystemProcesses = 0

  mutating func finish(atMs end: Int) {
    advanceClock(to: end)
    for index in apps.indices {
      if apps[index].state == .suspended {
        counters[index].suspendedKBMs +=
          Double(apps[index].footprintKB) * Double(end - apps[index].enteredStateMs)
      }
      stateTimeMs[index * AppState.allCases.count + Int(apps[index].state.rawValue)] +=
        end - apps[index].enteredStateMs
      apps[index].enteredStateMs = end
    }
    metrics.durationMs = end
  }

  /// Records an event; `app` is -1 for device-wide events; `assertedBand` is an `assert`'s band.
  mutating func emit(
    _ app: Int, _ kind: EventKind, from: AppState? = nil, to: AppState? = nil,
    callback: Callback? = nil, reason: KillReason? = nil, mode: BackgroundMode? = nil,
    assertedBand: Int? = nil
  ) {
    seq += 1
    metrics.events += 1
    var record = EventRecord(
      seq: seq, timeMs: queue.now, app: app, kind: kind, from: from, to: to, callback: callback,
      reason: reason, mode: mode, footprintKB: app >= 0 ? apps[app].footprintKB : 0,
      memory: memory, allocatingApp: exemptApp, pressure: level)
    record.assertedBand = assertedBand
    record.isBehindLock = app >= 0 && apps[app].isBehindLock
    if unlockingApp >= 0 { record.endsLock = kind == .kill && app == unlockingApp }
    observer.record(record)
  }

  /// Records an event that leaves the process in its state (a callback, a purge, a change of size).
  mutating func note(
    _ app: Int, _ kind: EventKind, callback: Callback? = nil, mode: BackgroundMode? = nil
  ) {
    let state = apps[app].state
    emit(app, kind, from: state, to: state, callback: callback, mode: mode)
  }
}
