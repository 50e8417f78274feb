/// System processes and snapshot starts (docs/model.md §11): at time 0 the processes of a snapshot
/// take the states it gives, in its order, and the device's other system processes start; launchd
/// relaunches a killed daemon after its delay, its memory waiting for room like any allocation.
extension Simulation {
  /// Puts the device in its state at time 0 (once): the snapshot's processes, in its order, then
  /// the system processes it does not list.
  mutating func start() {
    guard !started else { return }
    place()
    if !failed { memoryChanged() }
  }

  /// The state at time 0, memory not yet settled: the snapshot's processes, then the system
  /// processes it does not list. `known` is the process of each of the snapshot's entries, when the
  /// caller has looked them up already.
  mutating func place(entryApps known: [Int]? = nil) {
    started = true
    var listed = [Bool](repeating: false, count: apps.count)
    if let snapshot {
      let entryApps: [Int]
      if let known {
        entryApps = known
      } else {
        do throws(JetsimError) {
          entryApps = try processIndex().apps(of: snapshot.entries)
        } catch {
          failure = error
          return
        }
      }
      for (position, entry) in snapshot.entries.enumerated() {
        let app = entryApps[position]
        listed[app] = true
        // The snapshot's order is the history before time 0: an earlier entry was used less
        // recently (docs/model.md §11, since 0.3), for every policy that ranks by recency.
        apps[app].lastUsedMs = position - snapshot.entries.count
        applySnapshot(entry, to: app)
        if failed { return }
      }
    }
    for app in appCount..<apps.count where !listed[app] {
      startSystemProcess(app, .start)
    }
  }

  /// Each app's and system process's index by name (the first of a name, as the workload refuses
  /// two), looked up from the name's bytes (`AppIndex`): cheaper than hashing each `String`, which
  /// counted at every replay of a report of 100,000 processes.
  ///
  /// - Complexity: O(*n*) for *n* processes, so placing a snapshot is linear in its length.
  func processIndex() -> AppIndex {
    AppIndex(profiles.map(\.id) + device.systemProcesses.map(\.name))
  }

  /// Starts system process `app` in its running state (a `start` at time 0, a `relaunch` later),
  /// once its memory has room. Returns whether it runs.
  @discardableResult
  mutating func startSystemProcess(_ app: Int, _ kind: EventKind) -> Bool {
    guard let state = traits[app].systemState, apps[app].state == .notRunning else { return false }
    apps[app].lifeGeneration &+= 1
    guard reserve(app, traits[app].residentKB) else {
      // Nothing landed: the policy last read memory with this allocation pending (lmkd's
      // refaults), and is told it is not (an app's failed launch tells it with its kill).
      policy.appDidChange(app, apps[app], nowMs: queue.now)
      return false
    }
    apps[app].baseKB = traits[app].residentKB
    apps[app].priority = initialPriority(app)
    counters[app].launches += 1
    move(app, to: state, kind)
    // Its memory is allocated as it runs, under its active limit (a profile with separate limits).
    if traits[app].limits != nil {
      if crossesFatalLimit(app, to: apps[app].footprintKB) {
        kill(app, .perProcessLimit)
      } else {
        noteLimitCrossing(app)
      }
    }
    return true
  }

  /// launchd relaunches a system process it killed; if its memory does not fit now, it tries again
  /// after the same delay.
  mutating func relaunch(_ app: Int) {
    guard apps[app].state == .notRunning else { return }
    if startSystemProcess(app, .relaunch) {
      metrics.relaunches += 1
    } else if traits[app].relaunchDelayMs >= 0 {
      schedule(.relaunch, app, atMs: queue.now + traits[app].relaunchDelayMs)
    }
  }

  /// Process `app` as the snapshot gives it at time 0: its state, footprint and band. The memory
  /// must fit: a snapshot is the state of a real device, where it did.
  mutating func applySnapshot(_ entry: Snapshot.Entry, to app: Int) {
    let state = entry.state
    let system = apps[app].isSystemProcess
    guard state != .notRunning else { return }
    if state.isForeground {
      guard !system, foreground < 0 else {
        failure = .invalidValue(
          path: "snapshot", keyPath: entry.process, value: "on screen",
          expected: system ? "a system process off screen" : "at most one app on screen")
        return
      }
    }
    let profile = traits[app]
    let onScreen = state.isForeground
    let screen = onScreen ? profile.cachesKB + profile.backingStoresKB : 0
    let footprint = entry.footprintKB ?? (profile.residentKB + screen)
    apps[app].lifeGeneration &+= 1
    apps[app].everLaunched = true
    apps[app].baseKB = max(0, footprint - screen)
    apps[app].cachesKB = onScreen ? min(profile.cachesKB, footprint) : 0
    apps[app].holdsScreenMemory = onScreen
    if onScreen {
      apps[app].baseKB = max(0, footprint - apps[app].cachesKB - profile.backingStoresKB)
    }
    apps[app].placeBySnapshot(band: entry.band)
    apps[app].priority = initialPriority(app, snapshotBand: entry.band)
    // The memory is checked before it lands: free memory never goes negative, even at time 0.
    let physical = device.physicalKB(footprintKB: footprint, state: state)
    guard physical <= availableKB else {
      failure = .invalidValue(
        path: "snapshot", keyPath: entry.process,
        value: "\(Units.megabytes(footprint)) with only \(Units.megabytes(availableKB)) left",
        expected: "processes whose footprints fit in the device's memory beside its reserved memory"
      )
      return
    }
    counters[app].launches += 1
    move(app, to: state, .snapshot)
    if onScreen { foreground = app }
    if state == .background, !system {
      startBackgroundWork(app, workMs: profile.backgroundWorkMs, taskMs: profile.backgroundTaskMs)
    }
  }
}
