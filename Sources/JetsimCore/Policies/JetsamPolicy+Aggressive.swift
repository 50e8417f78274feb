/// Aggressive jetsam as xnu-11417.101.15 (commit e3723e1f) does it: jetsam loop detection decides
/// when (`memorystatus_check_aggressive_jetsam_needed` and
/// `memorystatus_aggressive_jetsam_needed_sysproc_aging`, kern_memorystatus_policy.c lines 326–425),
/// `memorystatus_act_aggressive` (kern_memorystatus.c line 4465) what: the ELEVATED_INACTIVE band
/// first, then `memorystatus_kill_processes_aggressive` (line 6729) marches from the head of IDLE
/// through every band up to the action's top band, in the kill order, within a kill budget.
extension JetsamPolicy {
  /// One aggressive action under way: the instant it runs in, the elevated processes it may still
  /// visit, its top band and the kills its march may still make.
  struct AggressiveMarch: Sendable, Equatable {
    var instantMs: Int
    var elevatedLeft: Int
    /// Whether the last kill was of an elevated process: memory is checked before the next.
    var afterElevatedKill = false
    var topBand: Int
    var killsLeft: Int
    /// Whether its march reaches FOREGROUND, which it sorts first (kern_memorystatus.c:6752–6759).
    var sortsForeground = false
  }

  /// How long jetsam loop detection's evaluation window lasts: 8 s on devices of 512 MB or less,
  /// 6 s above (`memorystatus_jld_eval_period_msecs`, kern_memorystatus.c lines 2130–2136).
  static func loopWindowMs(memoryKB: Int) -> Int { memoryKB <= 512 * 1024 ? 8_000 : 6_000 }

  /// `memorystatus_check_aggressive_jetsam_needed`: the IDLE and daemon aging bands hold at least
  /// the minimum of candidates, every one a daemon launchd relaunches at once
  /// (`kJetsamHighRelaunchCandidatesThreshold`, 100 %), and available memory is at most the
  /// aggressive share of memory. Each check restarts the evaluation window (and its count of
  /// actions) when it has run out or no candidate is left.
  mutating func aggressiveActionIsNeeded(_ device: DeviceView) -> Bool {
    let total = lowBands
    let needed =
      total >= parameters.aggressiveMinCandidates && lowBandsRelaunching == total
      && device.availableKB <= device.device.memoryKB * parameters.aggressivePercent / 100
    let now = device.nowMs
    if total == 0 || now > loopWindowStartMs + Self.loopWindowMs(memoryKB: device.device.memoryKB) {
      loopWindowStartMs = now
      loopCount = 0
    }
    return needed
  }

  /// Starts an aggressive action if one is needed, and returns its first victim: its top band is
  /// the window's next (`jld_max_priority_arr`), its budget the kill loops times the processes
  /// below that band.
  ///
  /// - Complexity: O(*r*) for *r* processes in memory, once per action.
  mutating func startAggressiveAction(_ device: DeviceView, excluded: Int) -> Int? {
    guard aggressiveActionIsNeeded(device) else { return nil }
    let tops = parameters.aggressiveTopBands
    let top = tops.isEmpty ? parameters.bands.background : tops[min(loopCount, tops.count - 1)]
    loopCount += 1
    let below = order.count { members[$0].band < top }
    march = AggressiveMarch(
      instantMs: device.nowMs, elevatedLeft: elevated.count, topBand: top,
      killsLeft: parameters.aggressiveKillLoops * below)
    march?.sortsForeground = top >= parameters.bands.foreground
    return continueMarch(device, excluded: excluded)
  }

  /// The next victim of the action under way in this instant, if any: an elevated process while
  /// memory still calls for action (`memorystatus_kill_elevated_process`, and
  /// `memstat_evaluate_page_shortage` after each), then the head of the kill order while it is at
  /// or below the top band and the budget lasts. Nil ends the action.
  mutating func continueMarch(_ device: DeviceView, excluded: Int) -> Int? {
    guard var current = march, current.instantMs == device.nowMs else {
      march = nil
      return nil
    }
    defer {
      let goesOn = current.killsLeft > 0 || current.elevatedLeft > 0 || current.afterElevatedKill
      march = goesOn ? current : nil
    }
    // After an elevated kill, the action ends once memory no longer calls for action.
    if current.afterElevatedKill, !memoryIsShort(device) {
      current.elevatedLeft = 0
      current.killsLeft = 0
      return nil
    }
    current.afterElevatedKill = false
    if current.elevatedLeft > 0 {
      current.elevatedLeft -= 1
      if let victim = elevated.first(excluding: excluded) {
        current.afterElevatedKill = true
        return victim
      }
      current.elevatedLeft = 0
    }
    if current.sortsForeground, current.killsLeft > 0 {
      current.sortsForeground = false
      sortForeground()
    }
    guard current.killsLeft > 0, let victim = order.first(excluding: excluded),
      members[victim].band <= current.topBand
    else {
      current.killsLeft = 0
      return nil
    }
    current.killsLeft -= 1
    return victim
  }

  /// Whether an aggressive action is under way: its march goes on whatever the memory.
  @inline(__always) public var isActing: Bool { march != nil }

  /// `memstat_evaluate_page_shortage`: below the critical level, below the idle level with anyone
  /// in IDLE, or below the pressure level with anyone over a soft limit.
  func memoryIsShort(_ device: DeviceView) -> Bool {
    let available = device.availableKB
    let profile = device.device
    return available < profile.criticalThresholdKB
      || (available < idleCriticalKB(profile) && idleCount > 0)
      || (available < profile.warningThresholdKB && !highwater.isEmpty)
  }
}
