extension JetsamPolicy {
  /// The processes on their way to IDLE, one list for each aging band, each in the band's order
  /// (entry). XNU's demotion (`_memstat_perform_idle_demotion_for_band`, kern_memorystatus.c
  /// lines 2500–2557) walks a band from its head and stops at the first process whose aging time
  /// has not ended ("No further candidates"), and its timer is armed at the earliest deadline of
  /// the bands' heads (`_memstat_find_earliest_idle_deadline`, lines 2630–2678): a process whose
  /// time has ended waits behind one that entered the band before it and ages longer (the
  /// daemons' band 10 holds times of 10, 5 and 2 s).
  struct AgingLists: Sendable {
    /// The daemons' aging band (`system_procs_aging_band`), demoted first.
    var daemons = IndexedHeap<Key>(capacity: 0)
    /// The apps' aging band (`applications_aging_band`).
    var apps = IndexedHeap<Key>(capacity: 0)
    /// The latest moment the policy caught up with (every change to the lists comes at such a
    /// moment, after the demotions due by then): a demotion that came due earlier because its
    /// head left is made then, as the kernel reschedules its timer whenever a process leaves an
    /// aging band (`memorystatus_remove`, line 3284; `memstat_update_priority_locked`, line 2959).
    var changedMs = 0

    init(capacity: Int) {
      (daemons, apps) = (.init(capacity: capacity), .init(capacity: capacity))
    }
  }

  /// Files process `app`, keyed `key`, in the aging list of its band, or out of both when it is
  /// not `aging`.
  @inline(__always)
  mutating func fileAging(_ app: Int, key: Key, aging: Bool) {
    let inAppsBand = members[app].agingBand == parameters.bands.aging
    agingLists.daemons.update(app, key: aging && !inAppsBand ? key : nil)
    agingLists.apps.update(app, key: aging && inAppsBand ? key : nil)
  }

  /// The end of process `app`'s own aging time.
  @inline(__always)
  func agingEndMs(_ app: Int) -> Int { members[app].entryMs + members[app].agingMs }

  /// When the next demotion runs: the earliest aging end of the lists' heads, not before their
  /// last change. Nil when no process is aging.
  @inline(__always)
  func nextDemotionMs() -> Int? {
    let earliest = min(
      agingLists.daemons.first.map(agingEndMs) ?? .max,
      agingLists.apps.first.map(agingEndMs) ?? .max)
    return earliest == .max ? nil : max(earliest, agingLists.changedMs)
  }

  /// Runs every demotion due by `nowMs`, as `memorystatus_perform_idle_demotion` does at each
  /// firing of its timer (lines 2560–2580): each band from its head while the head's aging time
  /// has ended; each process goes to the tail of IDLE at the moment of the firing, its inactive
  /// limit then in force. The kernel's clock tells apart what jetsim's milliseconds do not: of two
  /// heads due in one firing, the one whose time ended first (of equal ends, the earlier entrant)
  /// goes first, as a firing at its deadline would have taken it alone.
  ///
  /// - Complexity: O(log *r*) per process moved.
  mutating func advance(to nowMs: Int) {
    while let run = nextDemotionMs(), run <= nowMs {
      while let app = dueHead(atMs: run) { demote(app, atMs: run) }
      agingLists.changedMs = run
    }
    agingLists.changedMs = max(agingLists.changedMs, nowMs)
  }

  /// The head due at `nowMs` whose aging time ended first, of the two lists.
  @inline(__always)
  private func dueHead(atMs nowMs: Int) -> Int? {
    let daemon = agingLists.daemons.first.flatMap { agingEndMs($0) <= nowMs ? $0 : nil }
    let app = agingLists.apps.first.flatMap { agingEndMs($0) <= nowMs ? $0 : nil }
    guard let daemon, let app else { return daemon ?? app }
    let appFirst =
      (agingEndMs(app), members[app].entrySeq) < (agingEndMs(daemon), members[daemon].entrySeq)
    return appFirst ? app : daemon
  }

  /// Moves process `app` from its aging band to the tail of IDLE at `nowMs`.
  private mutating func demote(_ app: Int, atMs nowMs: Int) {
    members[app].band = parameters.bands.idle
    (members[app].entryMs, members[app].entrySeq) = (nowMs, nextSeq)
    nextSeq += 1
    // In IDLE a process that may idle exit is inactive: its inactive limit comes into force.
    members[app].overSoftLimit = members[app].isOverLimit(isSystemProcess: app >= appCount)
    file(app)
  }

  /// Process `app`'s band at `nowMs`, and its place in that band's list (when it entered it, and
  /// in what order), with the demotions due by then made; `nowMs` is at or after the policy's
  /// last change (no process leaves a list before then).
  ///
  /// - Complexity: O(1), or O(*r*) for a process aging whose own time has ended by `nowMs`.
  func position(_ app: Int, nowMs: Int) -> (band: Int, entryMs: Int, entrySeq: Int) {
    let member = members[app]
    let idle = parameters.bands.idle
    guard member.resident, member.requested == idle, member.band != idle else {
      return (member.requested, member.entryMs, member.entrySeq)
    }
    guard agingEndMs(app) <= nowMs else { return (member.band, member.entryMs, member.entrySeq) }
    // It leaves when every process before it in its band has: the latest of their ends.
    let inAppsBand = member.agingBand == parameters.bands.aging
    let list = inAppsBand ? agingLists.apps : agingLists.daemons
    let key = self.key(app)
    var demotionMs = max(agingEndMs(app), agingLists.changedMs)
    for other in members.indices where list.contains(other) && self.key(other) < key {
      demotionMs = max(demotionMs, agingEndMs(other))
    }
    return nowMs < demotionMs
      ? (member.band, member.entryMs, member.entrySeq)
      : (member.requested, demotionMs, member.entrySeq)
  }
}
