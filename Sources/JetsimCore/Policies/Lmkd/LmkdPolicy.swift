/// `lmkd`: Android's low memory killer daemon as Android 15/16 ships it (AOSP
/// platform/system/memory/lmkd at 767ae23, lmkd.cpp), with ActivityManager's adj
/// (`AndroidImportance`, `.activityManager` ranking); docs/policies.md, "lmkd".
///
/// - **PSI mode** (the default, `use_minfree_levels` false): lmkd wakes on PSI memory events and
///   polls after them (`LmkdPressure`); each evaluation goes down `__mp_event_psi`'s cascade to a
///   kill reason and its minimum adj (LOW_MEM: `lowmem_min_oom_score`, 701), and kills at most one
///   process, then evaluates again once it is dead.
/// - **Legacy minfree mode** (`useMinfreeLevels`): `mp_event_common`: the first minfree level that
///   both free memory (less the reserve) and the file cache are below gives the minimum adj.
///
/// The victim (`find_and_kill_process`, line 2539): the highest adj at or above the minimum, never
/// a negative one; inside one adj the process that got it longest ago (the tail of lmkd's adj list;
/// a cached process gets its slot's adj again each time the ladder moves it), or at adj 200 and below
/// (and with `killHeaviest` everywhere) the largest RSS, counting no swapped or compressed page.
///
/// - Complexity: O(*n* log *n*) per evaluation for *n* processes in memory; no allocation once
///   warmed up.
public struct LmkdPolicy: EvictionPolicy {
  /// The adj of each minfree level (legacy mode).
  public static let adjLevels = [0, 100, 200, 250, 900, 950]
  /// Android's minfree levels for low-RAM devices, in KB.
  public static let lowRAMMinfreeKB = [12_288, 18_432, 24_576, 36_864, 43_008, 49_152]
  /// Android's minfree levels for high-RAM devices, in KB.
  public static let highRAMMinfreeKB = [73_728, 92_160, 110_592, 129_024, 147_456, 184_320]

  public var name: String { Self.registration.name }
  /// The settings in use.
  public let parameters: Parameters
  private var minfree: [Int] = []
  private var watermarks = ZoneWatermarks(minKB: 0, lowKB: 0, highKB: 0)
  private var actsBelowKB = Int.max
  var importance = AndroidImportance(ranking: .activityManager)
  var resident = AppSet(capacity: 0)
  /// The candidates in kill order, and each process's latest status.
  var candidates = LmkdCandidates(count: 0)
  var statuses: [AppStatus] = []
  var appCount = 0
  /// The time of the last change seen.
  private var lastChangeMs = Int.min
  private var pressure: LmkdPressure
  /// Whether PSI events that can only repeat the last evaluation, killing nothing, are left out of
  /// the schedule and accounted for at the next wake-up (`LmkdPressure.catchUp`).
  package var leavesOutQuietEvents = true

  /// The lmkd policy with `parameters` (by default, AOSP's).
  public init(parameters: Parameters = Parameters()) {
    self.parameters = parameters
    pressure = LmkdPressure(parameters: parameters, watermarks: watermarks)
  }

  /// Android's minfree levels for a device with `memoryKB`: the low-RAM and high-RAM levels
  /// interpolated by `scale = clamp((memoryMB − 350) / 350, 0, 1)`, in integer arithmetic.
  public static func minfreeKB(memoryKB: Int, is64Bit: Bool) -> [Int] {
    var high = highRAMMinfreeKB
    if is64Bit {
      high[4] = high[4] * 3 / 2
      high[5] = high[5] * 7 / 4
    }
    let numerator = min(max(memoryKB / 1024 - 350, 0), 350)
    return zip(lowRAMMinfreeKB, high).map { low, high in low + (high - low) * numerator / 350 }
  }

  /// The zone watermarks on `device` with `parameters`: given, or Linux's rule.
  public static func watermarks(_ device: DeviceProfile, _ parameters: Parameters) -> ZoneWatermarks
  {
    parameters.watermarks
      ?? ZoneWatermarks(memoryKB: device.memoryKB, scaleFactor: parameters.watermarkScaleFactor)
  }

  public mutating func start(_ device: DeviceView) {
    minfree =
      parameters.minfreeKB
      ?? Self.minfreeKB(memoryKB: device.device.memoryKB, is64Bit: parameters.is64Bit)
    watermarks = Self.watermarks(device.device, parameters)
    actsBelowKB = actsBelowFreeKB(device.device)
    importance.start(device)
    resident = AppSet(capacity: device.apps.count)
    candidates = LmkdCandidates(count: device.apps.count)
    statuses = device.apps
    appCount = device.appCount
    lastChangeMs = Int.min
    pressure = LmkdPressure(
      parameters: parameters, watermarks: watermarks,
      fileKB: LmkdMeminfo(device.memory, watermarks: watermarks).fileKB, nowMs: device.nowMs)
    pressure.fileKBOutOfRange = device.memory.fileWorkingSetKB + 1
    pressure.leavesOutQuietEvents = leavesOutQuietEvents
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    // ActivityManager's update of the instant before, or of this instant's changes before a death:
    // lmkd registers anew the processes it moved to another slot (`LmkdCandidates.registerMoves`).
    let died = statuses[app].state.isResident && !status.state.isResident
    if nowMs > lastChangeMs || died { candidates.registerMoves() }
    lastChangeMs = nowMs
    let previous = importance.previousApp
    importance.appDidChange(app, status, nowMs: nowMs)
    resident.update(app, isMember: status.state.isResident)
    statuses[app] = status
    refile(app, nowMs: nowMs)
    // The previous app's adj changes with another's change: refile the one that lost the role.
    if let previous, previous != app, importance.previousApp != previous {
      refile(previous, nowMs: nowMs)
    }
    // So do the started services it moved between 500 and 800 (service B).
    for other in importance.servicesMoved { refile(other, nowMs: nowMs) }
    refreshPrevious(nowMs: nowMs)
    // And its update after a death, before lmkd's next kill.
    if died { candidates.registerMoves() }
    // The PSI events left out while nothing changed end here: memory may now read otherwise.
    pressure.catchUp(beforeMs: nowMs)
    // Memory reads otherwise from now: until lmkd is next asked, out of its range (no refaults).
    pressure.refaults.advance(to: nowMs, kbPerSecond: 0)
    pressure.processesChanged = true
    pressure.changedSinceEvaluation = true
  }

  /// The available memory below which lmkd can act: in PSI mode, where the page cache falls short
  /// of the file working set (refaults, the stall of PSI events) or free memory reaches the high
  /// watermark; in legacy mode, where the file cache is below the highest minfree level.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int {
    let marks = Self.watermarks(device, parameters)
    let freeTarget = max(device.fileCache.freeTargetKB, marks.highKB)
    if parameters.useMinfreeLevels {
      let levels =
        parameters.minfreeKB
        ?? Self.minfreeKB(memoryKB: device.memoryKB, is64Bit: parameters.is64Bit)
      return freeTarget + (levels.max() ?? 0)
    }
    return freeTarget + (device.fileCache.workingSetKB ?? device.memoryKB / 10) + 1
  }

  /// ActivityManager's trim first, whatever the memory; then lmkd, below `actsBelowFreeKB`.
  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    if mayTrim, let trim = trimVictim(nowMs: device.nowMs) { return trim }
    guard device.memory.availableAfterPendingKB < actsBelowKB else { return nil }
    return evict(device, LmkdMeminfo(device.memory, watermarks: watermarks))
  }

  /// Whether ActivityManager has processes over its limits to trim (`trimVictim`): the simulation
  /// asks whatever the memory.
  @inline(__always)
  public var isActing: Bool { mayTrim }

  /// The eviction lmkd makes at `device` reading `info`: `nextEviction`, with the reading given.
  package mutating func evict(_ device: DeviceView, _ info: LmkdMeminfo) -> Eviction? {
    if parameters.useMinfreeLevels { return minfreeEviction(device, info) }
    guard let event = pressure.wakeUp(info, nowMs: device.nowMs) else { return nil }
    let limitBefore = pressure.thrashingLimit
    let decision = pressure.evaluate(info, event: event, nowMs: device.nowMs)
    let chosen = decision.flatMap { victim(device, minAdj: $0.minAdj) }
    guard let decision, let chosen else {
      pressure.noteFruitless(info, event: event, decision: decision, limitBefore: limitBefore)
      return nil
    }
    pressure.noteKill(decision, nowMs: device.nowMs)
    return Self.eviction(chosen, decision.reason, decision.minAdj, decision.thrashingPercent, info)
  }

  /// The thrashing limit in force (`thrashing_limit`), in percent.
  package var thrashingLimit: Int { pressure.thrashingLimit }
  /// How long direct reclaim has lasted at `nowMs` as lmkd times it (`LmkdPressure.directReclaimMs`).
  package func directReclaimMs(nowMs: Int) -> Int? { pressure.directReclaimMs(nowMs: nowMs) }
  /// The zone watermarks in use.
  package var zoneWatermarks: ZoneWatermarks { watermarks }

  /// Asked again when the previous app expires, and at lmkd's next PSI event while memory stalls.
  @inline(__always)
  public func reconsiderAtMs(_ device: DeviceView) -> Int? {
    // Called after nextEviction answered nil in this instant: the stalls were observed.
    let expiry = importance.previousExpiryMs(device.apps, nowMs: device.nowMs)
    guard !parameters.useMinfreeLevels else { return expiry }
    let info = LmkdMeminfo(device.memory, watermarks: watermarks)
    let event = pressure.nextWakeMs(info, nowMs: device.nowMs)
    switch (expiry, event) {
    case (let a?, let b?): return min(a, b)
    case (let a?, nil): return a
    case (nil, let b): return b
    }
  }

  /// `mp_event_common` with `use_minfree_levels` (line 3229): the first level whose minfree both
  /// `other_free` (free less the reserve, the high watermark) and `other_file` are below.
  private mutating func minfreeEviction(_ device: DeviceView, _ info: LmkdMeminfo) -> Eviction? {
    let otherFree = info.freeKB - watermarks.highKB
    guard
      let level = minfree.firstIndex(where: { otherFree < $0 && info.fileKB < $0 }),
      let victim = victim(device, minAdj: Self.adjLevels[level])
    else { return nil }
    return Self.eviction(
      victim, .lmkNone, Self.adjLevels[level], info.thrashingPercent, info)
  }

  /// The kill of `app` for `reason` at `minAdj`, with what lmkd logs: `thrashing` and `info`'s
  /// free swap.
  static func eviction(
    _ app: Int, _ reason: KillReason, _ minAdj: Int, _ thrashing: Int, _ info: LmkdMeminfo
  ) -> Eviction {
    var eviction = Eviction(app: app, reason: reason)
    eviction.lmkd = LmkdKillInfo(
      minScoreAdj: minAdj, thrashingPercent: thrashing, swapFreeKB: info.swapFreeKB)
    return eviction
  }
}
