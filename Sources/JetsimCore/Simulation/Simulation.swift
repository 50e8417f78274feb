/// One device running one workload under one eviction policy: the model of docs/model.md.
///
/// The simulation owns the app states and the event queue; the policy only chooses victims, and the
/// observer only records. It is a concrete type (the policy and observer are existentials: one
/// indirect call each), so its hot loop is compiled once, fully specialized, whatever policy is chosen
/// at run time; it allocates nothing per event once its arrays have grown to the number of apps and
/// pending timers.
///
/// Most users call `Simulator.run`; drive a `Simulation` directly to stream your own workload.
package struct Simulation {
  enum TimerKind: UInt8 {
    case backgroundWorkEnd, watchdog, taskExpired, interruptionEnd, launchPeakEnd, growthTick
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
  /// The seed of the run's random streams.
  package let seed: UInt64
  /// Every app's status, by index.
  package internal(set) var apps: [AppStatus]
  /// The eviction policy.
  package internal(set) var policy: any EvictionPolicy
  /// The observer that receives events and kills.
  package var observer: any SimulationObserver
  /// Run-wide counters.
  package internal(set) var metrics = RunMetrics()
  /// Per-app counters, by index.
  /// Per-app counters, by index.
  package var appStats: [AppStats] {
    var stats = counters
    let states = AppState.allCases.count
    for index in stats.indices {
      stats[index].peakFootprintKB = peakFootprintKB[index]
      stats[index].timeInStateMs = Array(stateTimeMs[(index * states)..<((index + 1) * states)])
    }
    return stats
  }
  /// The per-app counters that change rarely; the two that change on most events live in flat arrays
  /// (one uniqueness check per update instead of two).
  var counters: [AppStats]
  /// Time in each state, `app × states + state`.
  var stateTimeMs: [Int]
  var peakFootprintKB: [Int]
  /// The pressure level the system has registered.
  package internal(set) var level: PressureLevel = .normal

  var queue = EventQueue<Timer>(capacity: 256)
  /// Physical memory held by apps.
  var usedKB = 0
  var seq = 0
  var foreground = -1
  var interrupted = false
  var locked = false
  var lockedApp = -1
  var episodeRank = 0
  /// The apps in memory (any state but notRunning).
  var resident: AppSet
  /// Time up to which the time-weighted metrics have been counted.
  var clockMs = 0
  /// The apps running code (active, inactive, background): memory warnings go to exactly these.
  var running: AppSet
  var scratch: [Int] = []
  /// The profiles' numbers, by index.
  let traits: [AppTraits]
  /// Free memory below which the policy may act (`EvictionPolicy.actsBelowFreeKB`).
  var policyWatermarkKB = Int.max
  /// Why the run stopped early, if it did; `failed` mirrors it so the hot loop tests a flag.
  var failure: JetsimError? { didSet { failed = failure != nil } }
  var failed = false

  /// A device with every app not running, at time 0.
  package init(
    device: DeviceProfile, apps profiles: [AppProfile], policy: any EvictionPolicy,
    observer: any SimulationObserver, seed: UInt64
  ) {
    self.device = device
    self.profiles = profiles
    self.seed = seed
    self.policy = policy
    self.observer = observer
    let ranks = profiles.indices.sorted { profiles[$0].id < profiles[$1].id }
    var rankOf = [Int](repeating: 0, count: profiles.count)
    for (rank, index) in ranks.enumerated() { rankOf[index] = rank }
    apps = rankOf.map { AppStatus(idRank: $0) }
    counters = Array(repeating: AppStats(), count: profiles.count)
    stateTimeMs = Array(repeating: 0, count: profiles.count * AppState.allCases.count)
    peakFootprintKB = Array(repeating: 0, count: profiles.count)
    running = AppSet(capacity: profiles.count)
    resident = AppSet(capacity: profiles.count)
    scratch.reserveCapacity(profiles.count)
    traits = profiles.map { AppTraits($0, device: device) }
    metrics.minFreeKB = device.usableKB
    metrics.peakUsedKB = device.reservedKB
    self.policy.start(view)
    policyWatermarkKB = self.policy.actsBelowFreeKB(device)
  }

  /// The current simulated time, in milliseconds.
  package var nowMs: Int { queue.now }
  /// Free memory: usable memory less the physical memory the apps hold.
  package var freeKB: Int { device.usableKB - usedKB }
  /// The app on screen, if any.
  package var foregroundApp: Int? { foreground >= 0 ? foreground : nil }

  /// The device as policies see it.
  package var view: DeviceView {
    DeviceView(
      device: device, profiles: profiles, apps: apps, nowMs: queue.now, freeKB: freeKB,
      level: level,
      foregroundApp: foregroundApp, seed: seed)
  }

  /// Runs `workload` and the timers it sets off, until both are done or `endMs` is reached, then
  /// closes the time-based metrics at the end time (`endMs`, or the last event's time).
  ///
  /// Throws if a step is out of time order or names no app, or if the policy picks an app that is
  /// not in memory.
  package mutating func run(_ workload: inout some WorkloadSource, untilMs endMs: Int? = nil)
    throws(JetsimError)
  {
    var pending = workload.next()
    while !failed {
      let timerTime = queue.nextTime
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
        advanceClock(to: time)
        fire(timer)
      } else {
        break
      }
    }
    if let failure { throw failure }
    finish(atMs: max(endMs ?? queue.now, queue.now))
  }

  private mutating func validate(_ step: WorkloadStep) -> Bool {
    if step.timeMs < queue.now {
      failure = .invalidValue(
        path: "workload", keyPath: "time", value: "\(step.timeMs)ms after \(queue.now)ms",
        expected: "steps in time order")
    } else if step.kind.needsApp, step.app < 0 || Int(step.app) >= apps.count {
      failure = .invalidValue(
        path: "workload", keyPath: "app", value: "index \(step.app)",
        expected: "an app index from 0 to \(apps.count - 1)")
    }
    return !failed
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
    }
  }

  mutating func fire(_ timer: Timer) {
    let app = Int(timer.app)
    if timer.kind == .launchPeakEnd {
      guard timer.generation == apps[app].lifeGeneration else { return }
      endLaunchPeak(app)
      return
    }
    guard timer.generation == apps[app].timerGeneration else { return }
    switch timer.kind {
    case .backgroundWorkEnd: finishBackgroundWork(app)
    case .watchdog: kill(app, .watchdog)
    case .taskExpired: kill(app, .backgroundTaskExpired)
    case .interruptionEnd: endInterruption(app)
    case .growthTick: grow(app)
    case .launchPeakEnd: break
    }
  }

  mutating func schedule(_ kind: TimerKind, _ app: Int, atMs time: Int) {
    let generation = kind == .launchPeakEnd ? apps[app].lifeGeneration : apps[app].timerGeneration
    queue.schedule(at: time, Timer(kind: kind, app: Int32(app), generation: generation))
  }

  /// Counts the time-weighted metrics up to `time`.
  mutating func advanceClock(to time: Int) {
    let elapsed = time - clockMs
    guard elapsed > 0 else { return }
    metrics.residentAppMs += resident.count * elapsed
    if level >= .warning { metrics.timeWarningMs += elapsed }
    if level == .critical { metrics.timeCriticalMs += elapsed }
    clockMs = time
  }

  mutating func finish(atMs end: Int) {
    advanceClock(to: end)
    for index in apps.indices {
      stateTimeMs[index * AppState.allCases.count + Int(apps[index].state.rawValue)] +=
        end - apps[index].enteredStateMs
      apps[index].enteredStateMs = end
    }
    metrics.durationMs = end
  }

  /// Records an event; `app` is -1 for device-wide events. The row's pressure is the level that its
  /// free memory implies.
  mutating func emit(
    _ app: Int, _ kind: EventKind, from: AppState? = nil, to: AppState? = nil,
    callback: Callback? = nil, reason: KillReason? = nil, mode: BackgroundMode? = nil
  ) {
    seq += 1
    metrics.events += 1
    let free = freeKB
    observer.record(
      EventRecord(
        seq: seq, timeMs: queue.now, app: app, kind: kind, from: from, to: to, callback: callback,
        reason: reason, mode: mode, footprintKB: app >= 0 ? apps[app].footprintKB : 0, freeKB: free,
        pressure: device.level(freeKB: free)))
  }

  /// Records an event that leaves the app in its state (a callback, a purge, a change of size).
  mutating func note(
    _ app: Int, _ kind: EventKind, callback: Callback? = nil, mode: BackgroundMode? = nil
  ) {
    let state = apps[app].state
    emit(app, kind, from: state, to: state, callback: callback, mode: mode)
  }
}
