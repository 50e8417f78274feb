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
/// 2. below the device's critical level, when the IDLE band (with the daemons' aging band) holds
///    only daemons launchd relaunches at once, at least five, and free memory is at most 7 % of
///    memory: aggressive jetsam, the head of the lowest band above them (`proc-thrashing`);
/// 3. otherwise, below the critical level, kill the head of the lowest non-empty band, climbing the
///    bands; the FOREGROUND band is sorted by footprint, largest first (`vm-pageshortage`). The
///    critical level is the device's idle level while the IDLE band holds anyone, else its
///    critical level;
/// 4. above those, below the reaper level: a reaper sweep, at most one every `reaper.periodMs`,
///    kills the IDLE band's processes alive at least `reaper.minAgeMs`, oldest entrant first
///    (`long-idle-exit`).
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
    /// for the device's idle level (`DeviceProfile.idleThresholdKB`).
    public var idleThresholdPercent: Int?
    /// The highest band aggressive jetsam kills in: BACKGROUND. XNU raises its own bound with each
    /// aggressive loop (`jld_eval_aggressive_count`); jetsim keeps one bound.
    public var aggressiveBandMax = 30
    /// Free memory, in percent of memory, at or below which aggressive jetsam may start
    /// (`MEMORYSTATUS_AGGR_SYSPROC_AGING_PERCENTAGE`).
    public var aggressivePercent = 7
    /// The fewest processes in the IDLE and daemon aging bands for aggressive jetsam
    /// (`kJetsamMinCandidatesThreshold`).
    public var aggressiveMinCandidates = 5
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
    /// When it was launched (for the reaper's age).
    var launchMs = 0
    /// Whether launchd relaunches it at once (a daemon of high relaunch likelihood).
    var relaunchesAtOnce = false
  }

  public var name: String { Self.registration.name }
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
  /// The reaper: when the current sweep started, and the earliest the next may start; the
  /// processes that ask for the IDLE band, by launch time (the oldest decides whether any can be
  /// reapable, without a scan).
  private var sweepStartMs = -1
  private var nextSweepMs = 0
  private var idleByLaunch = IndexedHeap<Int>(capacity: 0)

  /// The jetsam policy with `parameters` (by default, xnu's).
  public init(parameters: Parameters = Parameters()) { self.parameters = parameters }

  /// The critical level while the IDLE band holds anyone: the device's idle level, or the share of
  /// memory the settings give; never below the critical level, and not capped by the pressure level
  /// (xnu-11417 `memstat_idle_threshold`).
  public func idleCriticalKB(_ device: DeviceProfile) -> Int {
    let idle = parameters.idleThresholdPercent.map { device.memoryKB * $0 / 100 }
    return max(idle ?? device.idleThresholdKB, device.criticalThresholdKB)
  }

  /// The reaper level, or nil when the device's reaper is off.
  func reaperKB(_ device: DeviceProfile) -> Int? {
    device.reaper.enabled ? device.reaperThresholdKB : nil
  }

  public mutating func start(_ device: DeviceView) {
    members = Array(repeating: Member(), count: device.apps.count)
    resident = AppSet(capacity: device.apps.count)
    idleByLaunch = IndexedHeap(capacity: device.apps.count)
    overSoftLimit = AppSet(capacity: device.apps.count)
    systemProcesses = device.device.systemProcesses
    appCount = device.appCount
    for app in device.apps.indices {
      if app < appCount {
        let limit = device.profiles[app].memoryLimitKB ?? device.device.foregroundLimitKB
        // Exact: 50 % of 733,184 KB is 366,592 KB, not 366,550 (limit / 100 * 50).
        members[app].softLimitKB = limit * parameters.softLimitPercent / 100
      } else {
        let process = systemProcesses[app - appCount]
        members[app].softLimitKB = process.softLimitKB ?? -1
        members[app].relaunchesAtOnce =
          process.kind == .idleDaemon && process.relaunchLikelihood == .high
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
      idleByLaunch.remove(app)
      return
    }
    if !members[app].resident { members[app].launchMs = nowMs }
    let band = requestedBand(app, status)
    guard !members[app].resident || band != members[app].requested else { return }
    // A change of band: the tail of the new band's list.
    members[app].resident = true
    members[app].requested = band
    if band == parameters.bands.idle {
      idleByLaunch.set(app, key: members[app].launchMs)
    } else {
      idleByLaunch.remove(app)
    }
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

  /// It acts below the highest of its levels: pressure, critical, idle and (when on) reaper.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int {
    max(device.warningThresholdKB, idleCriticalKB(device), reaperKB(device) ?? 0)
  }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    let now = device.nowMs
    let free = device.freeKB
    let profile = device.device
    let reaper = reaperKB(profile).map { free < $0 } ?? false
    guard free < profile.warningThresholdKB || free < idleCriticalKB(profile) || reaper else {
      return nil
    }
    // Nobody over a soft limit, free memory above every critical level and no reaper sweep due:
    // nothing to do, and no aging end can change that.
    let swapShort = profile.appSwap?.killsOnLowSwap == true && free < profile.warningThresholdKB
    let reaperAt = reaper ? nextReaperMs(profile, nowMs: now) : nil
    if overSoftLimit.isEmpty, free >= idleCriticalKB(profile),
      reaperAt.map({ $0 > now }) ?? true,
      !swapShort
    {
      wake = (now, changes, reaperAt)
      return nil
    }
    let scan = scanBands(device)
    wake = (now, changes, Self.earliest(scan.agingEnd, reaperAt.map { $0 > now ? $0 : nil } ?? nil))
    // 0. App swap running short below the pressure level: a swapped app, so that those waiting in
    //    memory can go to swap (`MEMORYSTATUS_KILL_SUSPENDED_SWAPPABLE`).
    if free < profile.warningThresholdKB, profile.appSwap?.killsOnLowSwap == true,
      scan.waitingForSwap, let victim = scan.swapped
    {
      return Eviction(app: victim, reason: .lowSwap)
    }
    // 1. High-watermark kills below the pressure level.
    if free < profile.warningThresholdKB, let victim = scan.highwater {
      return Eviction(app: victim, reason: .highwater)
    }
    // 2. Aggressive jetsam, below the critical level, when the IDLE band is all false idle.
    if free < profile.criticalThresholdKB, isAggressive(scan, device), let victim = scan.aboveIdle {
      return Eviction(app: victim, reason: .procThrashing)
    }
    // 3. Kill the top process below the critical level (the idle level while IDLE holds anyone).
    let critical = scan.idleCount > 0 ? idleCriticalKB(profile) : profile.criticalThresholdKB
    if free < critical, let victim = scan.top {
      if parameters.purgeBeforeKill, device.apps[victim].purgeableKB > 0 { return .purge(victim) }
      return Eviction(app: victim, reason: .vmPageshortage)
    }
    // 4. The long-idle reaper, below its level: a sweep at most once a period.
    if reaper, let victim = scan.reapable, sweepStartMs == now || now >= nextSweepMs {
      if sweepStartMs != now {
        sweepStartMs = now
        nextSweepMs = now + profile.reaper.periodMs
      }
      return Eviction(app: victim, reason: .longIdleExit)
    }
    return nil
  }

  /// What one pass over the processes in memory finds.
  struct Scan {
    /// The head of the lowest band, and the first process over its soft limit off screen.
    var top: Int?
    var highwater: Int?
    /// The head of the lowest band above the IDLE and aging bands, for aggressive jetsam.
    var aboveIdle: Int?
    /// The oldest entrant of the IDLE band alive past the reaper's age.
    var reapable: Int?
    /// App swap: the first swapped app in kill order, and whether a suspended app waits in memory
    /// for swap.
    var swapped: Int?
    var waitingForSwap = false
    /// Processes in the IDLE band; and in it or the daemons' aging band, all and those launchd
    /// relaunches at once.
    var idleCount = 0
    var lowBands = 0
    var lowBandsRelaunching = 0
    /// The next end of an aging time.
    var agingEnd: Int?
  }

  /// One pass over the processes in memory, in band order.
  ///
  /// - Complexity: O(*r*) for *r* processes in memory.
  func scanBands(_ device: DeviceView) -> Scan {
    let now = device.nowMs
    let bands = parameters.bands
    let minAge = device.device.reaper.minAgeMs
    let swap = device.device.appSwap != nil
    var scan = Scan()
    var keys: (top: Key?, highwater: Key?, aboveIdle: Key?, reapable: Key?, swapped: Key?) = (
      nil, nil, nil, nil, nil
    )
    for app in resident.members {
      let (band, entryMs, entrySeq) = position(app, nowMs: now)
      if let end = agingEnd(app), end > now, end < (scan.agingEnd ?? .max) { scan.agingEnd = end }
      if band == bands.idle { scan.idleCount += 1 }
      let lowBand = band == bands.idle || band == bands.daemonAging
      if lowBand {
        scan.lowBands += 1
        if members[app].relaunchesAtOnce { scan.lowBandsRelaunching += 1 }
      }
      // Fields read one at a time: a copy of the whole status costs more than the scan.
      let swapped = swap && device.apps[app].isSwapped
      if swap, !swapped, device.apps[app].state == .suspended, !device.apps[app].isSystemProcess {
        scan.waitingForSwap = true
      }
      guard app != device.allocatingApp else { continue }
      // Inside the FOREGROUND band, the largest footprint first; in the others, the oldest entry.
      let foreground = band == bands.foreground
      let key = Key(
        band: band, order: foreground ? -device.apps[app].footprintKB : entryMs,
        seq: foreground ? device.apps[app].idRank : entrySeq, app: app)
      if key < keys.top { keys.top = key }
      let soft = members[app].softLimitKB
      if soft >= 0, device.apps[app].footprintKB > soft, !device.apps[app].state.isForeground,
        key < keys.highwater
      {
        keys.highwater = key
      }
      if !lowBand, band != bands.aging, band <= parameters.aggressiveBandMax, key < keys.aboveIdle {
        keys.aboveIdle = key
      }
      if swapped, key < keys.swapped { keys.swapped = key }
      if band == bands.idle, now >= members[app].launchMs + minAge, key < keys.reapable {
        keys.reapable = key
      }
    }
    scan.top = keys.top?.app
    scan.highwater = keys.highwater?.app
    scan.aboveIdle = keys.aboveIdle?.app
    scan.reapable = keys.reapable?.app
    scan.swapped = keys.swapped?.app
    return scan
  }

  /// A process's place in the kill order: band, then its order in the band, then ties.
  struct Key: Comparable {
    var band: Int
    var order: Int
    var seq: Int
    var app: Int

    static func < (a: Key, b: Key) -> Bool { (a.band, a.order, a.seq) < (b.band, b.order, b.seq) }

    /// Whether this key precedes `other`, or there is none.
    static func < (a: Key, b: Key?) -> Bool { b.map { a < $0 } ?? true }
  }

  /// Aggressive jetsam is due (xnu-11417 kern_memorystatus_policy.c,
  /// `memorystatus_check_aggressive_jetsam_needed` and
  /// `memorystatus_aggressive_jetsam_needed_sysproc_aging`): the IDLE and daemon aging bands hold at
  /// least the minimum of candidates, every one a daemon launchd relaunches at once, and free memory
  /// is at most the aggressive share of memory.
  func isAggressive(_ scan: Scan, _ device: DeviceView) -> Bool {
    scan.lowBands >= parameters.aggressiveMinCandidates
      && scan.lowBandsRelaunching == scan.lowBands
      && device.freeKB <= device.device.memoryKB * parameters.aggressivePercent / 100
  }

  /// The earliest moment the reaper may act, below its level: when a sweep may start and the
  /// oldest process asking for IDLE is old enough (it may still be aging; the scan decides). Nil
  /// when nobody asks for IDLE.
  ///
  /// - Complexity: O(1).
  func nextReaperMs(_ profile: DeviceProfile, nowMs: Int) -> Int? {
    guard let oldest = idleByLaunch.first, let launch = idleByLaunch.key(of: oldest) else {
      return nil
    }
    let sweepAt = sweepStartMs == nowMs ? nowMs : max(nextSweepMs, nowMs)
    return max(sweepAt, launch + profile.reaper.minAgeMs)
  }

  private static func earliest(_ a: Int?, _ b: Int?) -> Int? {
    guard let a else { return b }
    return min(a, b ?? .max)
  }

  /// The end of the next aging time (a process entering IDLE may lower the critical level or become
  /// the head of the lowest band), or the next time the reaper may act.
  public func reconsiderAtMs(_ device: DeviceView) -> Int? {
    if wake.nowMs == device.nowMs, wake.changes == changes { return wake.atMs }
    let now = device.nowMs
    let reaper = reaperKB(device.device).map { device.freeKB < $0 } ?? false
    guard device.freeKB < idleCriticalKB(device.device) || reaper else { return nil }
    var earliest: Int?
    for app in resident.members {
      if let end = agingEnd(app), end > now, end < (earliest ?? .max) { earliest = end }
    }
    let reaperAt =
      reaper ? nextReaperMs(device.device, nowMs: now).flatMap { $0 > now ? $0 : nil } : nil
    return Self.earliest(earliest, reaperAt)
  }

  /// When process `app`'s aging time ends, if it is aging towards IDLE.
  private func agingEnd(_ app: Int) -> Int? {
    let member = members[app]
    guard member.agingMs > 0, member.requested == parameters.bands.idle else { return nil }
    return member.entryMs + member.agingMs
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
