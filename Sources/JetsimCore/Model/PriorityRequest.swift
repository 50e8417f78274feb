/// How a system process takes part in launchd's dirty tracking (`proc_track_dirty`;
/// xnu-11417 bsd/kern/kern_memorystatus.c `memorystatus_dirty_track`, line 3391): untracked, or
/// tracked and allowed to exit when idle (`PROC_DIRTY_ALLOW_IDLE_EXIT`), or tracked and not.
public enum DirtyTracking: String, CaseIterable, Sendable {
  /// Not tracked: its band is the one it asks for.
  case none
  /// Tracked, and it may exit when idle: clean, it goes to IDLE through the daemons' aging band;
  /// dirty, it is in the band it asks for (launchd's `EnablePressuredExit` daemons).
  case idleExit = "idle-exit"
  /// Tracked, and it may not exit when idle: clean or dirty, it is in the band it asks for; only the
  /// limit in force follows its dirty state.
  case noIdleExit = "no-idle-exit"
}

/// A process's RunningBoard priority assertion and its dirty state, as xnu-11417's memorystatus
/// keeps them (`P_MEMSTAT_PRIORITY_ASSERTION`, `p_memstat_assertionpriority`, `P_DIRTY`), and the
/// band they ask for. Three bytes, so that `AppStatus` keeps its size.
public struct PriorityRequest: Sendable, Equatable {
  /// The band of its latest assertion (`p_memstat_assertionpriority`): kept when the assertion is
  /// given up, as the kernel keeps it (`memorystatus_set_priority`, kern_memorystatus.c:3100–3112,
  /// only clears the flag).
  private var assertionBandStorage: Int16 = 0
  private var flags: UInt8 = 0

  private static let held: UInt8 = 1
  private static let lingering: UInt8 = 2
  private static let dirty: UInt8 = 4
  private static let released: UInt8 = 8

  /// Nothing asserted, clean.
  public init() {}

  /// Whether it holds a priority assertion.
  public var holdsAssertion: Bool { flags & Self.held != 0 }
  /// Whether it is dirty (a tracked process doing work it must not lose).
  public var isDirty: Bool { flags & Self.dirty != 0 }
  /// The band of its latest assertion, held or not.
  public var assertionBand: Int { Int(assertionBandStorage) }

  /// It takes an assertion for `band` (above IDLE), or gives its assertion up (`band` 0):
  /// `memorystatus_set_priority` with `MEMORYSTATUS_SET_PRIORITY_ASSERTION`
  /// (kern_memorystatus.c:3041, 3100–3118). Given up, an untracked process asks for IDLE; a
  /// tracked one that is dirty or may not idle exit keeps the assertion's band as a floor until its
  /// dirty state next changes (:3114–3117 takes the maximum with `p_memstat_assertionpriority`,
  /// which a release does not reset).
  public mutating func assert(band: Int, tracking: DirtyTracking) {
    flags &= ~(Self.lingering | Self.released)
    if band > 0 {
      flags |= Self.held
      assertionBandStorage = Int16(clamping: band)
    } else {
      flags &= ~Self.held
      if tracking == .none {
        flags |= Self.released
      } else if isDirty || tracking == .noIdleExit {
        flags |= Self.lingering
      }
    }
  }

  /// It is marked dirty or clean (`memorystatus_dirty_set`, kern_memorystatus.c:3514): the band
  /// becomes what its dirty state asks for, with its assertion's if it holds one (:3601–3603).
  /// Returns false if it already was (`EALREADY`, :3570–3573): nothing changes.
  public mutating func setDirty(_ dirty: Bool) -> Bool {
    guard dirty != isDirty else { return false }
    flags &= ~Self.lingering
    if dirty { flags |= Self.dirty } else { flags &= ~Self.dirty }
    return true
  }

  /// The band it asks for, before any aging; `requested` is the band its own request gives
  /// (`p_memstat_requestedpriority`: a system process's from its profile; an app's from its state,
  /// RunningBoard's own assertions, which an explicit one can only raise).
  ///
  /// A tracked process asks for IDLE when clean and allowed to idle exit, else for `requested`
  /// (`memorystatus_dirty_set`, :3578–3599), raised to its assertion's band while it holds one or
  /// the floor a release left; an untracked one asks for its assertion's band while it holds one,
  /// IDLE once it gave one up (:3123 passes the band it asked for), else `requested`.
  public func band(requested: Int, tracking: DirtyTracking, isApp: Bool) -> Int {
    let held = holdsAssertion
    if isApp { return held ? max(requested, assertionBand) : requested }
    guard tracking != .none else {
      return held ? assertionBand : flags & Self.released != 0 ? 0 : requested
    }
    let own = tracking == .idleExit && !isDirty ? 0 : requested
    return held || flags & Self.lingering != 0 ? max(own, assertionBand) : own
  }

  /// Whether its active limit is in force (`memstat_proc_is_active_locked`,
  /// kern_memorystatus.c:5034–5090), in `band` after aging, in the kernel's order: a frozen
  /// process pinned in the freezer's band never (`isFrozenInFreezerBand`, lines 5038–5051); a
  /// tracked process when dirty, or when it may idle exit and is above IDLE (aging, or held there
  /// by an assertion); a managed one when it holds an assertion (`runsCode`: an app RunningBoard
  /// keeps running holds one); any other when above IDLE. (The kernel's other pinned band,
  /// ELEVATED_INACTIVE, is active; jetsim pins no process there: its band-40 apps hold an
  /// assertion, active by the managed rule.)
  public func isActive(
    band: Int, tracking: DirtyTracking, isManaged: Bool, runsCode: Bool,
    isFrozenInFreezerBand: Bool = false
  ) -> Bool {
    if isFrozenInFreezerBand { return false }
    switch tracking {
    case .idleExit: return isDirty || band > 0
    case .noIdleExit: return isDirty
    case .none: return isManaged ? holdsAssertion || runsCode : band > 0
    }
  }
}
