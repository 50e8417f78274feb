/// Aggressive jetsam as xnu-11417.101.15 (commit e3723e1f) does it: jetsam loop detection decides
/// when (`memorystatus_check_aggressive_jetsam_needed` and
/// `memorystatus_aggressive_jetsam_needed_sysproc_aging`, kern_memorystatus_policy.c lines 326–425),
/// `memorystatus_act_aggressive` (kern_memorystatus.c line 4465) what:
/// `memorystatus_kill_processes_aggressive` (line 6729) marches from the head of IDLE through every
/// band up to the action's top band, in the kill order, within a kill budget.
///
/// The action visits the ELEVATED_INACTIVE band first, but `memorystatus_kill_elevated_process`
/// (line 7120) takes only a process pinned there (`P_MEMSTAT_USE_ELEVATED_INACTIVE_BAND`, line
/// 7159: set by the elevated-inactive control, `memstat_update_inactive_priority`, line 2428, for
/// a docked app, and by the freezer). jetsim models no docked app, and pins frozen apps in the
/// freezer band (75, `bands.freezer`), not in band 40, whose apps are there because they run off
/// screen: so the visit finds no one and the march begins. (With `bands.freezer` set to 40, XNU
/// would visit the frozen apps pinned there first; jetsim does not.)
extension JetsamPolicy {
  /// One aggressive action under way: the instant it runs in, its top band and the kills its
  /// march may still make.
  struct AggressiveMarch: Sendable, Equatable {
    var instantMs: Int
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
      instantMs: device.nowMs, topBand: top, killsLeft: parameters.aggressiveKillLoops * below)
    march?.sortsForeground = top >= parameters.bands.foreground
    return continueMarch(device, excluded: excluded)
  }

  /// The next victim of the action under way in this instant, if any: the head of the kill
  /// order while it is at or below the top band and the budget lasts. Nil ends the action.
  mutating func continueMarch(_ device: DeviceView, excluded: Int) -> Int? {
    guard var current = march, current.instantMs == device.nowMs else {
      march = nil
      return nil
    }
    defer { march = current.killsLeft > 0 ? current : nil }
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

  /// Whether an aggressive action or a reaper sweep is under way, each going on whatever the
  /// memory, or a purge was just made, whose victim may die all the same.
  @inline(__always) public var isActing: Bool { march != nil || reaper.sweeping || purged != nil }
}
