/// The jetsam priority actions (docs/model.md §8; docs/policies.md, "Priority assertions and dirty
/// state"): a process takes or gives up a RunningBoard priority assertion, a dirty-tracked daemon
/// becomes dirty or clean. Only the band it asks for and the limit in force change; the `jetsam`
/// policy decides what follows, the other policies ignore it. An action on a process that is not
/// running does nothing: the kernel finds no such process.
extension Simulation {
  /// Process `app` takes an assertion for `band`, or gives its assertion up (`band` 0).
  mutating func assertPriority(_ app: Int, band: Int) {
    guard apps[app].state.isResident else { return }
    apps[app].priority.assert(band: band, tracking: traits[app].dirtyTracking)
    priorityChanged(app, band > 0 ? .assert : .release, band: band > 0 ? band : nil)
  }

  /// Dirty-tracked process `app` becomes dirty or clean; nothing happens if it already is.
  mutating func setDirty(_ app: Int, _ dirty: Bool) {
    guard apps[app].state.isResident, apps[app].priority.setDirty(dirty) else { return }
    priorityChanged(app, dirty ? .dirty : .clean)
  }

  /// The band `app` asks for changed: the policy hears of it, and a snapshot's band no longer holds.
  /// Its event names the band asserted, if any (events.csv's `detail`).
  private mutating func priorityChanged(_ app: Int, _ kind: EventKind, band: Int? = nil) {
    apps[app].snapshotBand = nil
    changed = true
    policy.appDidChange(app, apps[app], nowMs: queue.now)
    let state = apps[app].state
    emit(app, kind, from: state, to: state, assertedBand: band)
  }

  /// The priority state a process starts each life with: clean and unasserted, except a tracked
  /// daemon its profile places in a band above IDLE (`SystemProcess.startsDirty`) — unless a
  /// snapshot places it in IDLE or the daemons' aging band (`snapshotBand` 10 or less), where a
  /// dirty one would not be.
  func initialPriority(_ app: Int, snapshotBand: Int? = nil) -> PriorityRequest {
    var priority = PriorityRequest()
    if traits[app].startsDirty, (snapshotBand ?? Int.max) > 10 { _ = priority.setDirty(true) }
    return priority
  }
}
