/// `jetsam`: Apple XNU's memorystatus (bsd/kern/kern_memorystatus.c, kern_memorystatus_policy.c), as
/// docs/policies.md states it.
///
/// Every process in memory is in a priority band; each band is a list in order of entry (XNU's
/// `memorystatus_update_priority_locked` appends a process to the tail of its new band's list on
/// every change of band, the drop from an aging band to IDLE included, and kills take the head). A
/// process lowered to IDLE first spends its aging time in an aging band (apps: 2 s in band 20;
/// idle daemons: their own time in band 10). The action follows `memorystatus_pick_action`:
///
/// 1. below the pressure (warning) level, kill a process over its soft limit, in ascending band
///    order, any process off screen (`highwater`);
/// 2. then, below the critical level, kill the head of the lowest non-empty band, climbing the
///    bands; the FOREGROUND band is sorted by footprint, largest first (`vm-pageshortage`). The
///    critical level is the idle one (10 %, 9 % or 8 % of memory) while the IDLE band holds anyone
///    (`memorystatus_update_levels_locked`), else the device's.
///
/// Before a kill, the victim's purgeable memory is purged; if that is enough, nobody dies.
///
/// - Complexity: O(*r*) per decision for *r* processes in memory.
public struct JetsamPolicy: EvictionPolicy {
  /// Priority bands (XNU's JETSAM_PRIORITY_*, revision 2 numbering): the lower, the sooner killed.
  public struct Bands: Sendable, Equatable {
    /// Suspended apps, idle daemons and extensions, after their aging time.
    public var idle = 0
    /// An idle daemon during its aging time (JETSAM_PRIORITY_AGING_BAND1).
    public var daemonAging = 10
    /// An app during its aging time after it went idle (JETSAM_PRIORITY_AGING_BAND2).
    public var aging = 20
    /// An app doing background work (background time, a task, a wake); an active daemon with no
    /// band of its own.
    public var background = 30
    /// An app using location or VoIP in the background.
    public var elevatedInactive = 40
    /// The app on screen.
    public var foreground = 100
    /// An app playing audio.
    public var audioAndAccessory = 120

    /// The bands of xnu's `kern_memorystatus.h`.
    public init() {}
  }

  /// The policy's settings; the defaults are XNU's.
  public struct Parameters: Sendable, Equatable {
    /// How long an app that went idle stays in the aging band (`memorystatus_apps_idle_time`).
    public var agingTimeMs = 2_000
    /// The critical level while the IDLE band holds anyone, as a share of memory in percent; nil
    /// for XNU's (10 % up to 3 GB, 9 % up to 6 GB, 8 % above).
    public var idleThresholdPercent: Int?
    /// An app's soft limit off screen, as a share of its per-app limit in percent.
    public var softLimitPercent = 50
    /// Whether to purge a victim's purgeable memory before killing it.
    public var purgeBeforeKill = true
    /// The bands.
    public var bands = Bands()

    /// The defaults: xnu's bands, aging and limits (docs/policies.md).
    public init() {}
  }

  /// Where a process is in the bands.
  struct Member: Sendable {
    /// The band it asks for; when it is IDLE, the process first ages in `agingBand`.
    var requested = 0
    /// When it entered that band (or, for IDLE, its aging band), and the order of entry.
    var entryMs = 0
    var entrySeq = 0
    var agingBand = 0
    var agingMs = 0
    /// The highest band it may be killed in by `highwater` (its soft limit; -1: none).
    var softLimitKB = -1
    var resident = false
  }

  public let name = "jetsam"
  /// The settings in use.
  public let parameters: Parameters
  private var members: [Member] = []
  private var resident = AppSet(capacity: 0)
  /// The processes off screen over their soft limit: while there are none and free memory is at or
  /// above every critical level, a decision needs no scan.
  private var overSoftLimit = AppSet(capacity: 0)
  private var nextSeq = 0
  /// Per system process (by index from the first one): its kind, band and aging time.
  private var systemProcesses: [SystemProcess] = []
  private var appCount = 0
  /// Changes seen (`appDidChange` calls), and the next aging end the latest decision found, at what
  /// time and after how many changes: `reconsiderAtMs` right after a decision needs no second scan.
  private var changes = 0
  private var wake: (nowMs: Int, changes: Int, atMs: Int?) = (-1, -1, nil)

  /// The jetsam policy with `parameters` (by default, xnu's).
  public init(parameters: Parameters = Parameters()) { self.parameters = parameters }

  /// The critical level while the IDLE band holds anyone.
  public func idleCriticalKB(_ device: DeviceProfile) -> Int {
    let percent =
      parameters.idleThresholdPercent ?? Defaults.idleCriticalPercent(memoryKB: device.memoryKB)
    // The critical level never exceeds the pressure level (memorystatus_update_levels_locked).
    return min(device.memoryKB / 100 * percent, device.warningThresholdKB)
  }

  public mutating func start(_ device: DeviceView) {
    members = Array(repeating: Member(), count: device.apps.count)
    resident = AppSet(capacity: device.apps.count)
    overSoftLimit = AppSet(capacity: device.apps.count)
    systemProcesses = device.device.systemProcesses
    appCount = device.appCount
    for app in device.apps.indices {
      if app < appCount {
        let limit = device.profiles[app].memoryLimitKB ?? device.device.foregroundLimitKB
        members[app].softLimitKB = limit / 100 * parameters.softLimitPercent
      } else {
        members[app].softLimitKB = systemProcesses[app - appCount].softLimitKB ?? -1
      }
    }
  }

  /// The band process `app` asks for in `status`, before any aging.
  func requestedBand(_ app: Int, _ status: AppStatus) -> Int {
    let bands = parameters.bands
    if let band = status.snapshotBand { return band }
    if app >= appCount {
      let process = systemProcesses[app - appCount]
      return process.band ?? (process.kind == .activeDaemon ? bands.background : bands.idle)
    }
    var band = bands.idle
    if status.state == .background, status.hasBackgroundWork { band = max(band, bands.background) }
    if status.isUsing(.location) || status.isUsing(.voip) {
      band = max(band, bands.elevatedInactive)
    }
    if status.state.isForeground { band = max(band, bands.foreground) }
    if status.isUsing(.audio) { band = max(band, bands.audioAndAccessory) }
    return band
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    changes &+= 1
    let isResident = status.state.isResident
    resident.update(app, isMember: isResident)
    let soft = members[app].softLimitKB
    overSoftLimit.update(
      app,
      isMember: isResident && soft >= 0 && status.footprintKB > soft && !status.state.isForeground)
    guard isResident else {
      members[app].resident = false
      return
    }
    let band = requestedBand(app, status)
    guard !members[app].resident || band != members[app].requested else { return }
    // A change of band: the tail of the new band's list.
    members[app].resident = true
    members[app].requested = band
    members[app].entryMs = nowMs
    members[app].entrySeq = nextSeq
    nextSeq += 1
    if band == parameters.bands.idle, status.snapshotBand == nil {
      if app >= appCount, systemProcesses[app - appCount].kind == .idleDaemon {
        members[app].agingBand = parameters.bands.daemonAging
        members[app].agingMs = systemProcesses[app - appCount].agingTimeMs
      } else {
        members[app].agingBand = parameters.bands.aging
        members[app].agingMs = parameters.agingTimeMs
      }
    } else {
      members[app].agingMs = 0
    }
  }

  /// Process `app`'s band at `nowMs`, and its place in that band's list (when it entered it, and in
  /// what order).
  func position(_ app: Int, nowMs: Int) -> (band: Int, entryMs: Int, entrySeq: Int) {
    let member = members[app]
    if member.requested == parameters.bands.idle, member.agingMs > 0 {
      let agingEnd = member.entryMs + member.agingMs
      // The demotion from the aging band is an entry into IDLE at the end of the aging time.
      return nowMs < agingEnd
        ? (member.agingBand, member.entryMs, member.entrySeq)
        : (member.requested, agingEnd, member.entrySeq)
    }
    return (member.requested, member.entryMs, member.entrySeq)
  }

  /// The band of process `app` at `nowMs` (for tests and reports).
  public func band(of app: Int, nowMs: Int) -> Int { position(app, nowMs: nowMs).band }

  /// It acts below the pressure level: the critical levels never exceed it.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int {
    max(device.warningThresholdKB, device.criticalThresholdKB)
  }

  /// The highest level kill-top may act below: the idle level, or the device's critical level.
  func highestCriticalKB(_ device: DeviceProfile) -> Int {
    max(idleCriticalKB(device), min(device.criticalThresholdKB, device.warningThresholdKB))
  }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    let now = device.nowMs
    let free = device.freeKB
    guard free < device.device.warningThresholdKB else { return nil }
    // Nobody over a soft limit and free memory above every critical level: nothing to do, and no
    // aging end can change that.
    if overSoftLimit.isEmpty, free >= highestCriticalKB(device.device) {
      wake = (now, changes, nil)
      return nil
    }
    let foregroundBand = parameters.bands.foreground
    var top: (app: Int, band: Int, key: Int, seq: Int)?
    var highwater: (app: Int, band: Int, key: Int, seq: Int)?
    var idleCount = 0
    var agingEnd: Int?
    for app in resident.members {
      let (band, entryMs, entrySeq) = position(app, nowMs: now)
      if let end = self.agingEnd(app), end > now, end < (agingEnd ?? .max) { agingEnd = end }
      if band == parameters.bands.idle { idleCount += 1 }
      guard app != device.allocatingApp else { continue }
      // Inside the FOREGROUND band, the largest footprint first; in the others, the oldest entry.
      let key = band == foregroundBand ? -device.apps[app].footprintKB : entryMs
      let seq = band == foregroundBand ? device.apps[app].idRank : entrySeq
      if Self.precedes((band, key, seq), top.map { ($0.band, $0.key, $0.seq) }) {
        top = (app, band, key, seq)
      }
      let soft = members[app].softLimitKB
      if soft >= 0, device.apps[app].footprintKB > soft, !device.apps[app].state.isForeground,
        Self.precedes((band, key, seq), highwater.map { ($0.band, $0.key, $0.seq) })
      {
        highwater = (app, band, key, seq)
      }
    }
    wake = (now, changes, agingEnd)
    // 1. High-watermark kills below the pressure level.
    if let victim = highwater {
      return Eviction(app: victim.app, reason: .highwater)
    }
    // 2. Kill the top process below the critical level.
    let critical =
      idleCount > 0
      ? idleCriticalKB(device.device)
      : min(device.device.criticalThresholdKB, device.device.warningThresholdKB)
    guard free < critical, let victim = top?.app else { return nil }
    if parameters.purgeBeforeKill, device.apps[victim].purgeableKB > 0 { return .purge(victim) }
    return Eviction(app: victim, reason: .vmPageshortage)
  }

  /// The end of the next aging time: a process entering IDLE may lower the critical level or become
  /// the head of the lowest band.
  public func reconsiderAtMs(_ device: DeviceView) -> Int? {
    if wake.nowMs == device.nowMs, wake.changes == changes { return wake.atMs }
    guard device.freeKB < highestCriticalKB(device.device) else { return nil }
    var earliest: Int?
    for app in resident.members {
      if let end = agingEnd(app), end > device.nowMs, end < (earliest ?? .max) { earliest = end }
    }
    return earliest
  }

  /// When process `app`'s aging time ends, if it is aging towards IDLE.
  private func agingEnd(_ app: Int) -> Int? {
    let member = members[app]
    guard member.agingMs > 0, member.requested == parameters.bands.idle else { return nil }
    return member.entryMs + member.agingMs
  }

  private static func precedes(_ a: (Int, Int, Int), _ b: (Int, Int, Int)?) -> Bool {
    guard let b else { return true }
    return a < b
  }
}

extension JetsamPolicy {
  /// The settings it takes under `policyParameters.jetsam`.
  public static let settings: [PolicySetting<Parameters>] =
    [
      PolicySetting(
        "agingTime", .duration, "how long an app that went idle stays in the aging band"
      ) { $0.agingTimeMs = $1.number },
      PolicySetting(
        "idleThreshold", .percent,
        "the critical level while the IDLE band holds anyone, as a share of memory"
      ) { $0.idleThresholdPercent = $1.number },
      PolicySetting(
        "softLimit", .percent, "an app's soft limit off screen, as a share of its per-app limit"
      ) { $0.softLimitPercent = $1.number },
      PolicySetting("purgeBeforeKill", .flag, "purge a victim's caches before killing it") {
        $0.purgeBeforeKill = $1.flag
      },
    ]
    + [
      ("idle", \Bands.idle), ("daemonAging", \Bands.daemonAging), ("aging", \Bands.aging),
      ("background", \Bands.background), ("elevatedInactive", \Bands.elevatedInactive),
      ("foreground", \Bands.foreground), ("audioAndAccessory", \Bands.audioAndAccessory),
    ].map { key, band in
      PolicySetting("bands.\(key)", .integer(0...1000), "the priority of the \(key) band") {
        $0.bands[keyPath: band] = $1.number
      }
    }

  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "jetsam",
    summary:
      "Apple XNU memorystatus: bands in order of entry, aging, high-watermark kills, then the lowest band's head",
    defaults: Parameters(), settings: settings, make: { JetsamPolicy(parameters: $0) })
}
