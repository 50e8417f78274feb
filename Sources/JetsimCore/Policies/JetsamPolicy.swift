/// `jetsam`: Apple XNU's memorystatus (bsd/kern/kern_memorystatus.c, kern_memorystatus_policy.c), as
/// docs/policies.md states it.
///
/// Every process in memory is in a priority band; each band is a list in order of entry (XNU's
/// `memstat_update_priority_locked` appends a process to the tail of its new band's list on every
/// change of band, the drop from an aging band to IDLE included, and kills take the head). A
/// process lowered to IDLE first spends its aging time in an aging band (apps: 2 s in band 20;
/// idle daemons: their own time in band 10); a snapshot's process was in its band before time 0
/// and does not age. Bands above 210 (`JETSAM_PRIORITY_MAX`) are never killed. The action follows
/// `memorystatus_pick_action`:
///
/// 1. below the pressure (warning) level, kill a process over its soft limit, in ascending band
///    order, any process off screen (`highwater`);
/// 2. healthy (available memory at or above the device's critical level): below the idle level,
///    the head of the IDLE band (`idle-exit`); else, below the reaper level, a reaper sweep, at
///    most one every `reaper.periodMs`, kills the IDLE band's processes that have been in it at
///    least `reaper.minAgeMs` and whose relaunch likelihood is low or unknown, oldest entrant first
///    (`long-idle-exit`);
/// 3. unhealthy, when the IDLE band (with the daemons' aging band) holds only daemons launchd
///    relaunches at once, at least five, and available memory is at most 7 % of memory:
///    aggressive jetsam (`proc-thrashing`): the ELEVATED_INACTIVE band first, then a march from the
///    head of IDLE through every band up to a top band that rises with each aggressive action in
///    the evaluation window, within a kill budget (`JetsamPolicy+Aggressive.swift`);
/// 4. otherwise, unhealthy: the head of the lowest non-empty band, climbing the bands; the
///    FOREGROUND band is sorted by coalition once a pass (`vm-pageshortage`,
///    `JetsamPolicy+Coalitions.swift`).
///
/// Before a kill from the top, the victim's purgeable memory is purged; if that is enough, nobody
/// dies. Apart from these, once the pressure level has stayed above normal for ten minutes, the
/// sustained-pressure handler kills the head of IDLE every 500 ms (`sustained-memory-pressure`,
/// `JetsamPolicy+SustainedPressure.swift`).
///
/// - Complexity: O(log *r*) per change and per decision for *r* processes in memory: each
///   candidate list (kill order, over the soft limit, above IDLE, swappable, reapable) is an indexed
///   heap kept in order as processes change, and so is each aging band's list.
public struct JetsamPolicy: EvictionPolicy {
  /// The band each kind of process is in (XNU's, `JetsamPriority`, unless settings change them): the
  /// lower, the sooner killed.
  public struct Bands: Sendable, Equatable {
    /// Suspended apps, idle daemons and extensions, after their aging time.
    public var idle = JetsamPriority.idle
    /// An idle daemon during its aging time.
    public var daemonAging = JetsamPriority.agingBand1
    /// An app during its aging time after it went idle.
    public var aging = JetsamPriority.agingBand2
    /// An app doing background work (background time, a task, a wake); an active daemon with no
    /// band of its own.
    public var background = JetsamPriority.background
    /// An app using location or VoIP in the background.
    public var elevatedInactive = JetsamPriority.elevatedInactive
    /// A frozen app that asks for a band up to this one, on a device with XNU's freezer
    /// (`memorystatus_freeze_jetsam_band`, kern_memorystatus.c:537).
    public var freezer = JetsamPriority.freezer
    /// The app on screen.
    public var foreground = JetsamPriority.foreground
    /// An app playing audio.
    public var audioAndAccessory = JetsamPriority.audioAndAccessory

    /// The bands of xnu's `kern_memorystatus.h`.
    public init() {}

    /// Each band's name (its key under `bands.` in the settings) and its field, lowest first.
    static let named: [(name: String, field: WritableKeyPath<Bands, Int> & Sendable)] = [
      ("idle", \.idle), ("daemonAging", \.daemonAging), ("aging", \.aging),
      ("background", \.background), ("elevatedInactive", \.elevatedInactive),
      ("freezer", \.freezer), ("foreground", \.foreground),
      ("audioAndAccessory", \.audioAndAccessory),
    ]

    /// The numbers of the bands, in the order of `named`.
    var numbers: [Int] { Self.named.map { self[keyPath: $0.field] } }
  }

  /// The policy's settings; the defaults are XNU's.
  public struct Parameters: Sendable, Equatable {
    /// How long an app that went idle stays in the aging band (`memorystatus_apps_idle_time`).
    public var agingTimeMs = 2_000
    /// The critical level while the IDLE band holds anyone, as a share of memory in percent; nil
    /// for the device's idle level (`DeviceProfile.idleThresholdKB`).
    public var idleThresholdPercent: Int?
    /// The top band of each aggressive action in an evaluation window, the last repeated
    /// (`jld_max_priority_arr`: MAIL, MAIL, UI_SUPPORT, UI_SUPPORT, DRIVER_APPLE).
    public var aggressiveTopBands = [
      JetsamPriority.elevatedInactive, JetsamPriority.elevatedInactive, JetsamPriority.uiSupport,
      JetsamPriority.uiSupport, JetsamPriority.driverApple,
    ]
    /// How many times over the processes below the top band a march may kill
    /// (`memorystatus_jld_max_kill_loops`).
    public var aggressiveKillLoops = 2
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
    /// Whether IDLE processes die once the pressure level has stayed above normal for
    /// `sustainedPressureWindowMs` (`memorystatus_should_kill_on_sustained_pressure`).
    public var killsOnSustainedPressure = true
    /// How long the level stays above normal before those kills
    /// (`memorystatus_kill_on_sustained_pressure_window_s`).
    public var sustainedPressureWindowMs = 600_000
    /// The pause after each of them (`memorystatus_kill_on_sustained_pressure_delay_ms`).
    public var sustainedPressureDelayMs = 500
    /// The bands.
    public var bands = Bands()

    /// The defaults: xnu's bands, aging and limits (docs/policies.md).
    public init() {}
  }

  /// Where a process is in the bands, and what decides which candidate lists hold it.
  struct Member: Sendable {
    /// The band it asks for; when it is IDLE, the process first ages in `agingBand`.
    var requested = 0
    /// The band it is in as of the latest advance of time, when it entered it, and in what order.
    var band = 0
    var entryMs = 0
    var entrySeq = 0
    var agingBand = 0
    var agingMs = 0
    /// Its soft limit (-1: none).
    var softLimitKB = -1
    /// Its separate active and inactive limits, if its profile gives them: over the one in force,
    /// fatal or not, it is a high-watermark candidate (`memorystatus_kill_hiwat_proc`).
    var limits: MemoryLimits?
    var resident = false
    /// Whether launchd relaunches it at once (a daemon of high relaunch likelihood).
    var relaunchesAtOnce = false
    /// Whether the reaper may take it: a relaunch likelihood low or unknown
    /// (`memstat_reaper_reap_relaunch_mask`, xnu-11417 default 0x9).
    var reapable = true
    var footprintKB = 0
    /// Its jetsam coalition (the index of the process it is named after, or past every index for
    /// one named after no process) and its role in it.
    var coalition: Int32 = 0
    var role = CoalitionRole.leader
    /// Its place in FOREGROUND as the band's latest sort left it (`sortForeground`); `Int.max`
    /// until a sort places it: it entered after, at the tail.
    var sortedRank = Int.max
    var overSoftLimit = false
    /// Its assertion and dirty state, how it is tracked and whether RunningBoard manages it, and
    /// whether it is on screen and runs code: what decides which of its limits is in force.
    var priority = PriorityRequest()
    var tracking = DirtyTracking.none
    var managed = true
    var onScreen = false
    var runsCode = false
    /// Frozen and pinned in the freezer's band: its inactive limit is in force whatever else holds.
    var frozenInFreezerBand = false
    /// A suspended app in memory (not swapped): on a device with app swap, one waiting for swap.
    var waitingForSwap = false
    /// What it adds to the counts, as last filed.
    var counted = Counted()

    /// Takes `status` in: its footprint, state and priority; when it enters `band` (a change of
    /// band: the tail of the new band's list, at `entry`), first its aging band for `aging.ms` if
    /// any. One in-place update, so that the member is not copied out and back.
    @inline(__always)
    mutating func update(
      _ status: AppStatus, band entered: Int?, aging: (band: Int, ms: Int),
      entry: (ms: Int, seq: Int), waitsForSwap: Bool, isSystemProcess: Bool,
      frozenInFreezerBand: Bool
    ) {
      footprintKB = status.footprintKB
      priority = status.priority
      self.frozenInFreezerBand = frozenInFreezerBand
      onScreen = status.state.isForeground
      // An app runs code only while RunningBoard holds an assertion for it; a system process's
      // state implies none (an active daemon runs with or without one).
      runsCode = status.state.isRunning && !isSystemProcess
      waitingForSwap = waitsForSwap && status.state == .suspended && !status.isSwapped
      guard status.state.isResident else {
        resident = false
        overSoftLimit = false
        return
      }
      if let entered {
        resident = true
        requested = entered
        (entryMs, entrySeq) = entry
        sortedRank = .max
        (agingBand, agingMs) = aging
        band = aging.ms > 0 ? aging.band : entered
      }
      overSoftLimit = isOverLimit(isSystemProcess: isSystemProcess)
    }

    /// Whether `file` would put it where it put `before`: what it reads that a change can move
    /// (its band, entry, place in the FOREGROUND sort, being over a limit or waiting for swap) is
    /// the same.
    @inline(__always)
    func isFiledAs(_ before: Member) -> Bool {
      (band, requested, entryMs, entrySeq, agingMs, sortedRank)
        == (
          before.band, before.requested, before.entryMs, before.entrySeq, before.agingMs,
          before.sortedRank
        )
        && (resident, overSoftLimit, waitingForSwap)
          == (before.resident, before.overSoftLimit, before.waitingForSwap)
    }

    /// Whether its active limit is in force, in its band now (`PriorityRequest.isActive`).
    @inline(__always)
    var isActive: Bool {
      priority.isActive(
        band: band, tracking: tracking, isManaged: managed, runsCode: runsCode,
        isFrozenInFreezerBand: frozenInFreezerBand)
    }

    /// Whether it is a high-watermark candidate. With separate limits, when over the one in force,
    /// on screen or not (`memorystatus_kill_hiwat_proc`, kern_memorystatus.c:6975, skips only a
    /// process at or under `p_memstat_memlimit`, :7013–7015); a system process also when over its
    /// soft limit. Without, an app off screen over its soft limit, a system process over its soft
    /// limit.
    @inline(__always)
    func isOverLimit(isSystemProcess: Bool) -> Bool {
      let overSoft = softLimitKB >= 0 && footprintKB > softLimitKB
      guard let limits else { return overSoft && !onScreen }
      return footprintKB > limits.inForce(isActive: isActive).kilobytes
        || (isSystemProcess && overSoft)
    }
  }

  /// The device's levels and reaper as the policy reads them at every decision, fixed for a run:
  /// read once at the start rather than copied out of the view's device profile each time.
  struct Levels: Sendable {
    var warningKB = 0
    var criticalKB = 0
    var idleCriticalKB = 0
    /// The reaper's level, or nil when the device's reaper is off.
    var reaperKB: Int?
    var reaperMinAgeMs = 0
    var reaperPeriodMs = 0
    var killsOnLowSwap = false

    init() {}

    init(_ device: DeviceProfile, policy: JetsamPolicy) {
      (warningKB, criticalKB) = (device.warningThresholdKB, device.criticalThresholdKB)
      idleCriticalKB = policy.idleCriticalKB(device)
      reaperKB = policy.reaperKB(device)
      (reaperMinAgeMs, reaperPeriodMs) = (device.reaper.minAgeMs, device.reaper.periodMs)
      killsOnLowSwap = device.appSwap?.killsOnLowSwap == true
    }
  }

  /// One process's share of the policy's counts.
  struct Counted: Sendable, Equatable {
    var idle = false
    var low = false
    var lowRelaunching = false
    var waitingForSwap = false
    var foreground = false
  }

  public var name: String { Self.registration.name }
  /// The settings in use.
  public let parameters: Parameters
  var members: [Member] = []
  private var systemProcesses: [SystemProcess] = []
  var appCount = 0
  var nextSeq = 0
  /// The candidate lists, each in kill order: every process in a killable band, those over their
  /// soft limit off screen, the swappable coalitions' members below BACKGROUND, and the IDLE band's
  /// processes the reaper may take.
  var order = IndexedHeap<Key>(capacity: 0)
  var highwater = IndexedHeap<Key>(capacity: 0)
  private var swappable = IndexedHeap<Key>(capacity: 0)
  var reapable = IndexedHeap<Key>(capacity: 0)
  /// The processes aging towards IDLE (`JetsamPolicy+Aging.swift`).
  var agingLists = AgingLists(capacity: 0)
  /// Processes in IDLE; in IDLE or the daemons' aging band, all and those launchd relaunches at
  /// once; suspended apps waiting in memory for swap.
  var idleCount = 0
  var lowBands = 0
  var lowBandsRelaunching = 0
  private var waitingForSwap = 0
  /// Processes in the FOREGROUND band; whether this pass of the jetsam thread has yet to sort it,
  /// and which pass that is (`DeviceView.pass`; one also ends when the policy finds nothing to do).
  var foregroundCount = 0
  var foregroundSortPending = true
  private var lastPass = 0
  /// How many processes have separate active and inactive limits: for them the end of an aging
  /// time may make a high-watermark candidate (the inactive limit comes into force).
  private var limitedProcesses = 0
  var levels = Levels()
  /// The reaper (`JetsamPolicy+Reaper.swift`).
  var reaper = Reaper()
  /// The victim of a purge just made, the reason it dies for if the purge is not enough, and when.
  var purged: (app: Int, reason: KillReason, atMs: Int)?
  private var swapDevice = false
  /// Jetsam loop detection: when the evaluation window started, the aggressive actions in it, and
  /// the march under way.
  var loopWindowStartMs = Int.min / 4
  var loopCount = 0
  var march: AggressiveMarch?
  /// The sustained-pressure handler (`JetsamPolicy+SustainedPressure.swift`).
  var sustained = SustainedPressure()

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
    let count = device.apps.count
    (reaper, purged, march) = (Reaper(), nil, nil)
    sustained = SustainedPressure()
    members = Array(repeating: Member(), count: count)
    (order, highwater, swappable) = (
      .init(capacity: count), .init(capacity: count), .init(capacity: count)
    )
    (reapable, agingLists) = (.init(capacity: count), AgingLists(capacity: count))
    systemProcesses = device.device.systemProcesses
    appCount = device.appCount
    swapDevice = device.device.appSwap != nil
    levels = Levels(device.device, policy: self)
    limitedProcesses = 0
    (foregroundCount, foregroundSortPending, lastPass) = (0, true, 0)
    placeInCoalitions(device)
    for app in device.apps.indices {
      if app < appCount {
        let limit = device.profiles[app].memoryLimitKB ?? device.device.foregroundLimitKB
        // Exact: 50 % of 733,184 KB is 366,592 KB, not 366,550 (limit / 100 * 50).
        members[app].softLimitKB = limit * parameters.softLimitPercent / 100
        members[app].limits = device.profiles[app].memoryLimits(on: device.device)
      } else {
        let process = systemProcesses[app - appCount]
        members[app].softLimitKB = process.softLimitKB ?? -1
        members[app].limits = process.memoryLimits
        members[app].relaunchesAtOnce =
          process.kind == .idleDaemon && process.relaunchLikelihood == .high
        members[app].tracking = process.dirtyTracking
        members[app].managed = process.isManaged
        members[app].reapable = process.relaunchLikelihood == .low
      }
      if members[app].limits != nil { limitedProcesses += 1 }
    }
  }

  /// Each process's coalition and role: an app leads its own; a system process as its profile says.
  private mutating func placeInCoalitions(_ device: DeviceView) {
    var named: [String: Int32] = [:]
    if systemProcesses.contains(where: { $0.coalition != nil }) {
      let names = device.profiles.map(\.id) + systemProcesses.map(\.name)
      for (index, name) in names.enumerated() where named[name] == nil {
        named[name] = Int32(index)
      }
    }
    for app in members.indices {
      members[app].coalition = Int32(app)
      guard app >= appCount else { continue }
      let process = systemProcesses[app - appCount]
      members[app].role = process.coalitionRole
      if let coalition = process.coalition {
        // A coalition named after no process gets an index past every process's.
        let index = named[coalition] ?? Int32(members.count + named.count)
        named[coalition] = index
        members[app].coalition = index
      }
    }
  }

  /// The band process `app` asks for in `status`, before any aging: a snapshot's, or what its
  /// own request, assertion and dirty state give (`PriorityRequest.band`). An app's own request
  /// follows its state, as RunningBoard's assertions do. Inlined: called from a mutating method, an
  /// outlined call would copy the policy.
  @inline(__always)
  func requestedBand(_ app: Int, _ status: AppStatus) -> Int {
    let bands = parameters.bands
    if let band = status.snapshotBand { return band }
    if app >= appCount {
      let process = systemProcesses[app - appCount]
      let band = status.priority.band(
        requested: process.requestedBand(backgroundBand: bands.background),
        tracking: process.dirtyTracking, isApp: false)
      // A frozen XPC service is pinned as a frozen app is.
      return status.isFreezerElevated && band <= bands.freezer ? bands.freezer : band
    }
    var band = bands.idle
    if status.state == .background, status.hasBackgroundWork { band = max(band, bands.background) }
    if status.isUsing(.location) || status.isUsing(.voip) {
      band = max(band, bands.elevatedInactive)
    }
    if status.state.isForeground { band = max(band, bands.foreground) }
    if status.isUsing(.audio) { band = max(band, bands.audioAndAccessory) }
    band = status.priority.band(requested: band, tracking: .none, isApp: true)
    // A frozen app the freezer pins: any band up to the freezer's is the freezer's, without aging
    // (`memstat_update_priority_locked`, kern_memorystatus.c:2869–2878).
    return status.isFreezerElevated && band <= bands.freezer ? bands.freezer : band
  }

  /// The aging band and time of process `app` on its way to IDLE (`memstat_update_priority_locked`,
  /// kern_memorystatus.c:2867–2906): a dirty-tracked process ages in the daemons' aging band for
  /// its own time; one RunningBoard manages, in the apps' aging band; any other goes straight to
  /// IDLE.
  @inline(__always)
  private func aging(_ app: Int) -> (band: Int, ms: Int) {
    guard app >= appCount else { return (parameters.bands.aging, parameters.agingTimeMs) }
    let process = systemProcesses[app - appCount]
    if process.dirtyTracking != .none {
      return (parameters.bands.daemonAging, process.agingTimeMs)
    }
    return process.isManaged ? (parameters.bands.aging, parameters.agingTimeMs) : (0, 0)
  }

  @inline(__always)
  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    advance(to: nowMs)
    let resident = status.state.isResident
    let band = resident ? requestedBand(app, status) : 0
    let enters = resident && (!members[app].resident || band != members[app].requested)
    // A snapshot's process was in its band before time 0: no aging starts then.
    let aging =
      enters && band == parameters.bands.idle && !status.isFromSnapshot && !status.skipsAging
      ? aging(app) : (0, 0)
    let before = members[app]
    members[app].update(
      status, band: enters ? band : nil, aging: aging, entry: (nowMs, nextSeq),
      waitsForSwap: swapDevice && !status.isSystemProcess, isSystemProcess: app >= appCount,
      frozenInFreezerBand: status.isFreezerElevated && band == parameters.bands.freezer)
    if enters { nextSeq += 1 }
    // Most changes are of footprint, or of a state in the same band: the lists stay as they are.
    if !members[app].isFiledAs(before) { file(app) }
  }

  /// Files process `app` in every candidate list and count its fields call for, and out of the
  /// others.
  ///
  /// - Complexity: O(log *r*).
  mutating func file(_ app: Int) {
    let member = members[app]
    let bands = parameters.bands
    let resident = member.resident
    let killable = resident && member.band <= JetsamPriority.max
    let key = self.key(app)
    order.update(app, key: killable ? key : nil)
    highwater.update(app, key: killable && member.overSoftLimit ? key : nil)
    let low = member.band == bands.idle || member.band == bands.daemonAging
    // On a device with app swap every app's coalition is swappable, each member donating its own
    // pages (`coalition_mark_swappable`, osfmk/kern/coalition.c:2805; who marks them is user
    // space's, which the kernel does not name): apps and their members in bands up to 29.
    let swapsPages = swapDevice && Int(member.coalition) < appCount
    swappable.update(
      app, key: killable && swapsPages && member.band < bands.background ? key : nil)
    reapable.update(
      app, key: resident && member.band == bands.idle && member.reapable ? key : nil)
    let aging = resident && member.requested == bands.idle && member.band != bands.idle
    fileAging(app, key: key, aging: aging)
    let counted = Counted(
      idle: resident && member.band == bands.idle, low: resident && low,
      lowRelaunching: resident && low && member.relaunchesAtOnce,
      waitingForSwap: resident && member.waitingForSwap,
      foreground: resident && member.band == bands.foreground)
    let old = member.counted
    guard counted != old else { return }
    idleCount += Self.delta(old.idle, counted.idle)
    lowBands += Self.delta(old.low, counted.low)
    lowBandsRelaunching += Self.delta(old.lowRelaunching, counted.lowRelaunching)
    waitingForSwap += Self.delta(old.waitingForSwap, counted.waitingForSwap)
    foregroundCount += Self.delta(old.foreground, counted.foreground)
    members[app].counted = counted
  }

  private static func delta(_ old: Bool, _ new: Bool) -> Int { (new ? 1 : 0) - (old ? 1 : 0) }

  /// Process `app`'s place in the kill order: its band, then the oldest entry; in FOREGROUND,
  /// first those the band's latest sort placed, in its order (`sortForeground`).
  func key(_ app: Int) -> Key {
    let member = members[app]
    let sorted = member.band == parameters.bands.foreground && member.sortedRank != .max
    return Key(
      band: member.band, order: sorted ? Int.min / 2 + member.sortedRank : member.entryMs,
      seq: member.entrySeq)
  }

  /// Whether process `app`'s active limit is in force at `nowMs`, in its band then
  /// (`Member.isActive`).
  func isActive(_ app: Int, nowMs: Int) -> Bool {
    var member = members[app]
    member.band = position(app, nowMs: nowMs).band
    return member.isActive
  }

  /// The app whose coalition process `process` serves as an XPC service, if it does: the leader
  /// whose freeze takes it along (kern_memorystatus_freeze.c:1945–1956).
  func xpcLeader(of process: Int) -> Int? {
    let member = members[process]
    guard process >= appCount, member.role == .xpc, Int(member.coalition) < appCount else {
      return nil
    }
    return Int(member.coalition)
  }

  /// The band of process `app` at `nowMs`, written in kills.csv's `band` column.
  public func band(of app: Int, nowMs: Int) -> Int? { position(app, nowMs: nowMs).band }

  /// Every process is in a band.
  public var hasBands: Bool { true }

  /// It acts below the highest of its levels: pressure, critical, idle and (when on) reaper.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int {
    max(device.warningThresholdKB, idleCriticalKB(device), reaperKB(device) ?? 0)
  }

  /// Where it may act now, as its lists stand: below the critical level always; below the
  /// pressure level when a process is over its limit or app swap waits; below the idle level when
  /// the IDLE band holds anyone; below the reaper level when a sweep may run now (`nextReaperMs`).
  /// Everywhere below its watermark when an aging time has ended that no change has yet moved to
  /// IDLE. On a device that sits between its levels with nothing to kill, most changes then ask
  /// `nextEviction` nothing.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  public func actsNowBelowFreeKB(nowMs: Int) -> Int {
    if let demotion = nextDemotionMs(), demotion <= nowMs { return .max }
    var level = levels.criticalKB
    if !highwater.isEmpty || (levels.killsOnLowSwap && waitingForSwap > 0) {
      level = max(level, levels.warningKB)
    }
    if idleCount > 0 { level = max(level, levels.idleCriticalKB) }
    if let reaperKB = levels.reaperKB, let attempt = nextReaperMs(nowMs: nowMs), attempt <= nowMs {
      level = max(level, reaperKB)
    }
    if sustained.acts(byMs: nowMs) { level = max(level, levels.warningKB) }
    return level
  }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    // A new pass of the jetsam thread sorts FOREGROUND again at its first priority kill.
    if device.pass != lastPass { (lastPass, foregroundSortPending) = (device.pass, true) }
    let eviction =
      decide(device) ?? sustainedPressureEviction(device, excluded: device.allocatingApp ?? -1)
    switch eviction?.reason {
    case nil:
      foregroundSortPending = true
    case .vmPageshortage?, .idleExit?, .longIdleExit?, .lowSwap?, .sustainedPressure?:
      // A priority kill (`memorystatus_do_priority_kill`): the first of a pass sorts FOREGROUND;
      // it begins with the reaper's walk (`memorystatus_kill_top_process`, line 6447).
      sortForegroundIfPending()
      walkForReapable(nowMs: device.nowMs)
    default: break
    }
    return eviction
  }

  /// The next victim, if any (`memorystatus_pick_action`, kern_memorystatus_policy.c:149).
  private mutating func decide(_ device: DeviceView) -> Eviction? {
    let now = device.nowMs
    advance(to: now)
    let excluded = device.allocatingApp ?? -1
    // An aggressive action under way goes on in its instant, whatever the memory; a purge that
    // was not enough is followed by its victim's kill.
    if let victim = continueMarch(device, excluded: excluded) {
      return Eviction(app: victim, reason: .procThrashing)
    }
    if let kill = afterPurge(device, excluded: excluded) { return kill }
    let available = device.availableKB
    startSweepIfDue(availableKB: available, nowMs: now)
    let belowPressure = available < levels.warningKB
    // 1. App swap running short below the pressure level: the head of the bands below BACKGROUND
    //    among the swappable coalitions' members, so that those waiting in memory can go to swap
    //    (`MEMORYSTATUS_KILL_SUSPENDED_SWAPPABLE`, kern_memorystatus.c:4681–4683, which skips a
    //    process that does not donate its pages, :6479); then high-watermark kills.
    if belowPressure, levels.killsOnLowSwap, waitingForSwap > 0,
      let victim = swappable.first(excluding: excluded)
    {
      return Eviction(app: victim, reason: .lowSwap)
    }
    if belowPressure, let victim = highwater.first(excluding: excluded) {
      return Eviction(app: victim, reason: .highwater)
    }
    guard available < levels.criticalKB else {
      return healthyEviction(device, excluded: excluded)
    }
    // 3. Aggressive jetsam, when the IDLE band is all false idle.
    if let victim = startAggressiveAction(device, excluded: excluded) {
      return Eviction(app: victim, reason: .procThrashing)
    }
    // 4. The top process: the head of the lowest band, FOREGROUND sorted first in a pass.
    sortForegroundIfPending()
    guard let victim = order.first(excluding: excluded) else {
      walkForReapable(nowMs: now)
      return nil
    }
    if parameters.purgeBeforeKill, device.apps[victim].purgeableKB > 0 {
      return purge(victim, else: .vmPageshortage, nowMs: now)
    }
    return Eviction(app: victim, reason: .vmPageshortage)
  }

  /// Purges `victim`, which dies for `reason` after all unless the purge brings available memory
  /// back to the pressure level (`memorystatus_kill_proc`, kern_memorystatus.c:6311: the purge
  /// succeeds only at or above the soft limit's page-shortage threshold).
  mutating func purge(_ victim: Int, else reason: KillReason, nowMs: Int) -> Eviction {
    purged = (victim, reason, nowMs)
    return .purge(victim)
  }

  /// The victim just purged dies, for the reason it was chosen, while available memory is below the
  /// pressure level (`purge(_:else:nowMs:)`).
  private mutating func afterPurge(_ device: DeviceView, excluded: Int) -> Eviction? {
    guard let (victim, reason, purgedMs) = purged else { return nil }
    purged = nil
    guard purgedMs == device.nowMs, device.availableKB < levels.warningKB, victim != excluded,
      members[victim].resident
    else {
      // The purge was enough: the sustained-pressure handler, which counts kills, stops.
      if reason == .sustainedPressure { sustained.nextMs = nil }
      return nil
    }
    return Eviction(app: victim, reason: reason)
  }

  /// The system is healthy: idle-exit below the idle level, else the reaper below its level.
  private mutating func healthyEviction(_ device: DeviceView, excluded: Int) -> Eviction? {
    let now = device.nowMs
    let available = device.availableKB
    if available < levels.idleCriticalKB, idleCount > 0,
      let victim = order.first(excluding: excluded), members[victim].band == parameters.bands.idle
    {
      if parameters.purgeBeforeKill, device.apps[victim].purgeableKB > 0 {
        return purge(victim, else: .idleExit, nowMs: now)
      }
      return Eviction(app: victim, reason: .idleExit)
    }
    // A sweep under way, started below the reaper level (`startSweepIfDue`), goes on whatever the
    // memory while the system is healthy.
    return sweepEviction(nowMs: now, excluded: excluded)
  }

  /// A process's place in the kill order: band, then its order in the band, then ties.
  struct Key: Comparable, Sendable {
    var band: Int
    var order: Int
    var seq: Int

    static func < (a: Key, b: Key) -> Bool { (a.band, a.order, a.seq) < (b.band, b.order, b.seq) }
  }

  /// The end of the next aging time (a process entering IDLE may lower the critical level, become
  /// the head of the lowest band, or come over its inactive limit), the next time the reaper
  /// may act, or the sustained-pressure handler's next moment while the level is above normal.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  public func reconsiderAtMs(_ device: DeviceView) -> Int? {
    let now = device.nowMs
    let available = device.availableKB
    let sustainedAt = device.level == .normal ? nil : sustained.actsAtMs.map { max($0, now) }
    let belowReaper = levels.reaperKB.map { available < $0 } ?? false
    let highwater = limitedProcesses > 0 && available < levels.warningKB
    guard available < levels.idleCriticalKB || belowReaper || highwater else { return sustainedAt }
    let agingEnd = nextDemotionMs().map { max($0, now) }
    // With no process in IDLE the reaper may take, an attempt can only find no one: it comes at
    // the next check of memory, without a wake-up of its own (a run with no end time would
    // otherwise never end).
    let canReap = belowReaper && reapable.first != nil
    let reaperAt = canReap ? nextReaperMs(nowMs: now).flatMap { $0 > now ? $0 : nil } : nil
    let earliest = min(agingEnd ?? .max, reaperAt ?? .max, sustainedAt ?? .max)
    return earliest == .max ? nil : earliest
  }
}

extension JetsamPolicy {
  /// The settings it takes under `policyParameters.jetsam`.
  public static let settings: [PolicySetting<Parameters>] =
    [
      PolicySetting(
        "agingTime", .duration, \.agingTimeMs,
        "how long an app that went idle stays in the aging band"),
      PolicySetting(
        "idleThreshold", .percent, \.idleThresholdPercent,
        "the critical level while the IDLE band holds anyone, as a share of memory",
        derived: "the device's idle level"),
      PolicySetting(
        "softLimit", .percent, \.softLimitPercent,
        "an app's soft limit off screen, as a share of its per-app limit"),
      PolicySetting(
        "purgeBeforeKill", \.purgeBeforeKill, "purge a victim's caches before killing it"),
      PolicySetting(
        "sustainedPressure", \.killsOnSustainedPressure,
        "kill IDLE processes once the pressure level has stayed above normal for the window"),
      PolicySetting(
        "sustainedPressureWindow", .duration, \.sustainedPressureWindowMs,
        "how long the pressure level stays above normal before sustained-pressure kills"),
      PolicySetting(
        "sustainedPressureDelay", .duration, \.sustainedPressureDelayMs,
        "the pause after each sustained-pressure kill"),
    ]
    + Bands.named.map { key, band in
      PolicySetting(
        "bands.\(key)", .integer(0...1000), "the priority of the \(key) band",
        read: { .number($0.bands[keyPath: band]) }
      ) { $0.bands[keyPath: band] = $1.number }
    }

  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "jetsam",
    summary:
      "Apple XNU memorystatus: bands in order of entry, aging, high-watermark kills, then the lowest band's head",
    defaults: Parameters(), settings: settings,
    check: { parameters, _ in bandsProblem(parameters) },
    make: { JetsamPolicy(parameters: $0) })

  /// Bands out of order: a band below one listed before it in `Bands.named`. Their order is what
  /// the policy rests on: an app's band is the highest its state asks for (`requestedBand`),
  /// kills climb from the lowest band, aging bands lie between IDLE and BACKGROUND (only processes
  /// below BACKGROUND give up pages to swap), and the freezer's band pins the bands up to it.
  /// Equal numbers are one band.
  static func bandsProblem(_ parameters: Parameters) -> PolicySettingProblem? {
    let numbers = parameters.bands.numbers
    guard zip(numbers, numbers.dropFirst()).contains(where: { $0 > $1 }) else { return nil }
    let names = Bands.named.map(\.name).joined(separator: " ≤ ")
    let defaults = Bands().numbers.map(String.init).joined(separator: ", ")
    return PolicySettingProblem(
      key: "bands", value: "[\(numbers.map(String.init).joined(separator: ", "))]",
      expected:
        "bands \(names), each at or above the one before (unset ones are XNU's: \(defaults))"
    )
  }
}
