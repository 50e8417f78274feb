/// A process's two memory limits as xnu-11417's memorystatus holds them: one in force while the
/// process is active, one while it is inactive, each fatal or not (`p_memstat_memlimit_active`,
/// `p_memstat_memlimit_inactive`, `P_MEMSTAT_MEMLIMIT_ACTIVE_FATAL`,
/// `P_MEMSTAT_MEMLIMIT_INACTIVE_FATAL`; bsd/kern/kern_memorystatus.c `memstat_set_memlimits_locked`,
/// line 3135). A profile gives them with `activeLimit`, `inactiveLimit`, `activeLimitFatal` and
/// `inactiveLimitFatal` (docs/profiles.md).
public struct MemoryLimits: Sendable, Equatable {
  /// One limit: its size and whether crossing it kills.
  public struct Limit: Sendable, Equatable {
    /// The footprint above which the process is over it.
    public var kilobytes: Int
    /// Whether crossing it kills (`per-process-limit`) rather than only notifies.
    public var isFatal: Bool

    /// A limit of `kilobytes`, fatal or not.
    public init(kilobytes: Int, isFatal: Bool) {
      self.kilobytes = kilobytes
      self.isFatal = isFatal
    }
  }

  /// The limit in force while the process is active.
  public var active: Limit
  /// The limit in force while the process is inactive.
  public var inactive: Limit

  /// The limits as `memstat_set_memlimits_locked` (kern_memorystatus.c:3135–3169) sets them from
  /// what a profile gives: a limit left out is the task limit (`taskLimitKB`; nil: none), and fatal
  /// (:3152–3169); a limit given is fatal only if its flag says so
  /// (`memorystatus_set_memlimit_properties`, :8785: without `MEMORYSTATUS_MEMLIMIT_ATTR_FATAL` it
  /// is not), except that a limit equal to the task limit is always fatal (:3159, :3168). Nil when
  /// neither limit is given: the process keeps its one fatal limit.
  public static func resolved(
    activeKB: Int?, activeFatal: Bool?, inactiveKB: Int?, inactiveFatal: Bool?,
    taskLimitKB: Int?
  ) -> MemoryLimits? {
    guard activeKB != nil || inactiveKB != nil else { return nil }
    func limit(_ given: Int?, _ fatal: Bool?) -> Limit {
      guard let given else { return Limit(kilobytes: taskLimitKB ?? Int.max, isFatal: true) }
      return Limit(kilobytes: given, isFatal: (fatal ?? false) || given == taskLimitKB)
    }
    return MemoryLimits(
      active: limit(activeKB, activeFatal), inactive: limit(inactiveKB, inactiveFatal))
  }

  /// The limits `active` and `inactive`.
  public init(active: Limit, inactive: Limit) {
    self.active = active
    self.inactive = inactive
  }

  /// The limit in force: the active one while the process `isActive`, else the inactive one
  /// (`memstat_update_memlimit_locked`, kern_memorystatus.c:193).
  @inlinable public func inForce(isActive: Bool) -> Limit { isActive ? active : inactive }

  /// Whether an app in `state` holds its active limit by its state alone. An app runs code only
  /// while RunningBoard holds an assertion for it (on screen, or background work, a task or a
  /// mode), and a managed process is active exactly while it has one
  /// (`memstat_proc_is_active_locked`, kern_memorystatus.c:5034–5090). jetsam's full rule, with
  /// explicit assertions, dirty tracking and bands, is `PriorityRequest.isActive`.
  @inlinable public static func isActive(_ state: AppState) -> Bool { state.isRunning }
}
