/// What kind of process a system process is (docs/model.md §11).
public enum SystemProcessKind: String, CaseIterable, Sendable {
  /// A daemon launchd starts on demand: idle (in the IDLE band, after its aging band) between the
  /// moments it works.
  case idleDaemon = "idle-daemon"
  /// A daemon that keeps running, in a band above IDLE (SpringBoard, backboardd, mediaserverd).
  case activeDaemon = "active-daemon"
  /// An app extension or widget: suspended, in the IDLE band like a suspended app.
  case `extension`
}

/// How likely launchd is to relaunch a daemon at once after a kill (its jetsam relaunch flags,
/// `P_MEMSTAT_RELAUNCH_*`): the more likely, the longer it ages before IDLE
/// (`memorystatus_sysprocs_idle_time`: 10 s ÷ 1, 2 or 5), and a band of only high-likelihood daemons
/// is full of false idle ones (aggressive jetsam).
public enum RelaunchLikelihood: String, CaseIterable, Sendable {
  /// launchd relaunches it at once after a kill (`P_MEMSTAT_RELAUNCH_HIGH`).
  case high
  /// `P_MEMSTAT_RELAUNCH_MED`.
  case medium
  /// launchd seldom relaunches it at once (`P_MEMSTAT_RELAUNCH_LOW`), or nothing is known.
  case low

  /// Its time in the aging band: 10 s, 5 s or 2 s (xnu-11417 kern_memorystatus.c,
  /// `memorystatus_sysprocs_idle_time`: `memstat_idle_deferral_time_s` 10 s divided by
  /// `kJetsamSysProcsIdleDelayTime{High,Med,Low}Ratio` 1, 2, 5).
  public var agingTimeMs: Int {
    switch self {
    case .high: 10_000
    case .medium: 5_000
    case .low: 2_000
    }
  }

  /// The likelihood launchd gives a process whose recent relaunches came `timesMs` after its kills
  /// (`posix_spawnattr_set_jetsam_ttr_np`, xnu-11417 libsyscall/wrappers/spawn/posix_spawn.c:2847):
  /// each time falls in the first bucket it fits, up to 5 s high, up to 10 s medium, low above;
  /// the bucket counted most often wins, and of buckets counted as often, the one that got there
  /// first. Nil for no times (launchd passes none: `EINVAL`).
  public init?(timesToRelaunchMs timesMs: [Int]) {
    let buckets: [(limitMs: Int, likelihood: RelaunchLikelihood)] = [
      (5_000, .high), (10_000, .medium), (Int.max, .low),
    ]
    var counts = [0, 0, 0]
    var most = 0
    var winner: RelaunchLikelihood?
    for time in timesMs {
      guard let bucket = buckets.firstIndex(where: { time <= $0.limitMs }) else { continue }
      counts[bucket] += 1
      if counts[bucket] > most {
        most = counts[bucket]
        winner = buckets[bucket].likelihood
      }
    }
    guard let winner else { return nil }
    self = winner
  }
}

/// A process of the system on a device (a daemon, an app extension, a widget): memory it holds, its
/// band, its limits, and whether launchd relaunches it after a kill. System processes get no
/// UIApplication callbacks and no memory warnings.
public struct SystemProcess: Sendable, Equatable {
  /// Its name, unique among the device's processes and apps (`mediaserverd`).
  public var name: String
  /// What kind of process it is: an idle daemon, an active daemon or an extension.
  public var kind: SystemProcessKind
  /// The memory it holds while it runs.
  public var footprintKB: Int
  /// Its jetsam priority band, if its kind's default does not fit (an active daemon's band).
  public var band: Int?
  /// Its soft memory limit: over it, jetsam kills it below the pressure level (`highwater`).
  public var softLimitKB: Int?
  /// Its hard memory limit: over it, it is killed at once (`per-process-limit`).
  public var hardLimitKB: Int?
  /// How long after a kill launchd relaunches it (its memory comes back); nil: not relaunched.
  public var relaunchDelayMs: Int?
  /// How likely launchd is to relaunch it at once: where a profile does not say, what launchd
  /// derives from its relaunch delay (`RelaunchLikelihood(timesToRelaunchMs:)`), or low when it is
  /// not relaunched.
  public var relaunchLikelihood: RelaunchLikelihood
  /// How long it stays in the aging band when it goes idle: by its relaunch likelihood unless the
  /// profile gives it (`memorystatus_sysprocs_idle_time`).
  public var agingTimeMs: Int
  /// Its limit while active (an active daemon), if it has separate active and inactive limits
  /// (`MemoryLimits`); nil: its hard limit.
  public var activeLimitKB: Int?
  /// Its limit while inactive (an idle daemon or an extension); nil: its hard limit.
  public var inactiveLimitKB: Int?
  /// Whether crossing `activeLimitKB` kills (nil: as the kernel defaults, not fatal).
  public var activeLimitFatal: Bool?
  /// Whether crossing `inactiveLimitKB` kills (nil: as the kernel defaults, not fatal).
  public var inactiveLimitFatal: Bool?
  /// How it takes part in dirty tracking: an idle daemon is tracked and may idle exit unless its
  /// profile says otherwise; an active daemon or an extension is untracked.
  public var dirtyTracking: DirtyTracking
  /// Whether RunningBoard manages it (`P_MEMSTAT_MANAGED`), so that it may take priority
  /// assertions: an extension is managed unless its profile says otherwise; a daemon is not.
  public var isManaged: Bool
  /// The jetsam coalition it belongs to, named after its leader (an app's id, or a system
  /// process's name); nil: a coalition of its own, which it leads.
  public var coalition: String?
  /// Its role in `coalition`: as its profile says; else the leader of a coalition of its own, an
  /// XPC service of another's if it is a daemon, an extension if it is one.
  public var coalitionRole: CoalitionRole

  /// Whether the band it asks for itself is above IDLE: its profile's band, or an active daemon's
  /// default (BACKGROUND). A dirty-tracked process allowed to idle exit needs one to be dirty in.
  public var asksAboveIdle: Bool { band.map { $0 > 0 } ?? (kind == .activeDaemon) }

  /// Whether it starts dirty: tracked, allowed to idle exit and asking for a band above IDLE (it
  /// is working, or it would be in IDLE).
  public var startsDirty: Bool { dirtyTracking == .idleExit && asksAboveIdle }

  /// The band it asks for itself (`p_memstat_requestedpriority`): its profile's, or its kind's
  /// (an active daemon's the BACKGROUND band, `backgroundBand`; the others IDLE).
  public func requestedBand(backgroundBand: Int) -> Int {
    band ?? (kind == .activeDaemon ? backgroundBand : 0)
  }

  /// Its active and inactive limits when it gives either (the task limit being its hard limit);
  /// nil when it gives neither.
  public var memoryLimits: MemoryLimits? {
    MemoryLimits.resolved(
      activeKB: activeLimitKB, activeFatal: activeLimitFatal, inactiveKB: inactiveLimitKB,
      inactiveFatal: inactiveLimitFatal, taskLimitKB: hardLimitKB)
  }

  /// A system process; the limits, relaunch delay, relaunch likelihood, aging time, dirty tracking,
  /// management and coalition are optional (docs/profiles.md).
  public init(
    name: String, kind: SystemProcessKind, footprintKB: Int, band: Int? = nil,
    softLimitKB: Int? = nil, hardLimitKB: Int? = nil, relaunchDelayMs: Int? = nil,
    relaunchLikelihood: RelaunchLikelihood? = nil, agingTimeMs: Int? = nil,
    dirtyTracking: DirtyTracking? = nil, isManaged: Bool? = nil, coalition: String? = nil,
    coalitionRole: CoalitionRole? = nil
  ) {
    let own = coalition == nil || coalition == name
    self.coalition = own ? nil : coalition
    self.coalitionRole =
      coalitionRole ?? (own ? .leader : kind == .extension ? .extension : .xpc)
    self.dirtyTracking = dirtyTracking ?? (kind == .idleDaemon ? .idleExit : .none)
    self.isManaged = isManaged ?? (kind == .extension)
    let relaunchLikelihood =
      relaunchLikelihood
      ?? relaunchDelayMs.flatMap { RelaunchLikelihood(timesToRelaunchMs: [$0]) } ?? .low
    self.relaunchLikelihood = relaunchLikelihood
    self.name = name
    self.kind = kind
    self.footprintKB = footprintKB
    self.band = band
    self.softLimitKB = softLimitKB
    self.hardLimitKB = hardLimitKB
    self.relaunchDelayMs = relaunchDelayMs
    self.agingTimeMs = agingTimeMs ?? relaunchLikelihood.agingTimeMs
  }

  /// The state it runs in: an active daemon runs code (`background`); an idle daemon or an
  /// extension sits idle (`suspended`).
  public var runningState: AppState { kind == .activeDaemon ? .background : .suspended }

  /// A copy whose strings share no storage with this one (for runs on other threads).
  package var unshared: SystemProcess {
    var copy = self
    copy.name = name.unshared
    copy.coalition = coalition?.unshared
    return copy
  }
}
