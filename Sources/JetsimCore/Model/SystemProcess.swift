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
  /// How long it stays in the aging band when it goes idle (XNU gives daemons 2, 5 or 10 s by how
  /// quickly they are relaunched; `memorystatus_sysprocs_idle_time`).
  public var agingTimeMs: Int

  /// A system process; the limits, relaunch delay and aging time are optional (docs/profiles.md).
  public init(
    name: String, kind: SystemProcessKind, footprintKB: Int, band: Int? = nil,
    softLimitKB: Int? = nil, hardLimitKB: Int? = nil, relaunchDelayMs: Int? = nil,
    agingTimeMs: Int = Defaults.daemonAgingTimeMs
  ) {
    self.name = name
    self.kind = kind
    self.footprintKB = footprintKB
    self.band = band
    self.softLimitKB = softLimitKB
    self.hardLimitKB = hardLimitKB
    self.relaunchDelayMs = relaunchDelayMs
    self.agingTimeMs = agingTimeMs
  }

  /// The state it runs in: an active daemon runs code (`background`); an idle daemon or an
  /// extension sits idle (`suspended`).
  public var runningState: AppState { kind == .activeDaemon ? .background : .suspended }

  /// A copy whose strings share no storage with this one (for runs on other threads).
  package var unshared: SystemProcess {
    var copy = self
    copy.name = name.unshared
    return copy
  }
}
