/// Sustained-pressure kills as xnu-11417.101.15 (commit e3723e1f) makes them on a device with jetsam
/// (`CONFIG_JETSAM`), in bsd/kern/kern_memorystatus_notify.c:
///
/// - When the pressure level rises from normal, `memorystatus_update_vm_pressure` (lines
///   1485–1497) schedules `sustained_pressure_handler` to run once,
///   `memorystatus_kill_on_sustained_pressure_window_s` (600 s, line 430) later; when the level
///   returns to normal it cancels it (lines 1480–1484). A rise from warning to critical changes
///   nothing. The level it compares with (`prev_level_snapshot`) becomes normal only once a fall
///   has lasted `VM_PRESSURE_DECREASED_SMOOTHING_PERIOD` (5 s, lines 120 and 1507–1529): a rise
///   after a shorter spell at normal schedules nothing, so the cancel at that spell's start holds.
/// - The handler (lines 1301–1336) may kill twice as many processes as the IDLE band holds when it
///   starts (`memstat_get_proccnt_upto_priority(memorystatus_sustained_pressure_maximum_band)`,
///   which is `JETSAM_PRIORITY_IDLE`, line 1289). While the level is not normal and it has kills
///   left, it kills the head of the kill order if that is in IDLE
///   (`memorystatus_kill_on_sustained_pressure`, kern_memorystatus.c line 7311: the top process
///   with `max_priority` IDLE, line 6421; its purgeable memory purged first, as for any kill, line
///   6280), then pauses 500 ms (`memorystatus_kill_on_sustained_pressure_delay_ms`, line 431) and
///   reads the level again. It stops for good when IDLE holds no one, or when a purge made the kill
///   unnecessary (the kill reports no kill, lines 1328–1331).
///
/// jetsim reads the level it registers for memory warnings (`DeviceView.level`), the one this
/// handler watches; doc/vm/memorystatus.md notes that the kernel derives it apart from the
/// memorystatus thresholds, which jetsim's devices give for both.
extension JetsamPolicy {
  /// The state of the sustained-pressure handler.
  struct SustainedPressure: Sendable, Equatable {
    /// The level the policy last heard of.
    var level = PressureLevel.normal
    /// When the handler scheduled at the latest rise from normal runs (nil: none scheduled).
    var dueMs: Int?
    /// The handler under way: when it next reads the level (nil: none under way).
    var nextMs: Int?
    /// The kills the handler under way may still make.
    var killsLeft = 0
    /// When the level last returned to normal (read while it is normal); at the start, long ago.
    var normalSinceMs = Int.min / 2

    /// The next moment the handler acts, if one is scheduled or under way.
    var actsAtMs: Int? { nextMs ?? dueMs }

    /// Whether the handler acts at or before `nowMs`.
    func acts(byMs nowMs: Int) -> Bool { actsAtMs.map { $0 <= nowMs } ?? false }
  }

  /// Hears of a change of the pressure level at `nowMs`: a rise from normal after at least
  /// `smoothingMs` at normal schedules the handler, a return to normal cancels the one scheduled.
  /// A handler under way that found the level normal when it next read it (the level returned to
  /// normal by then and rose again only after) has stopped.
  public mutating func pressureDidChange(to level: PressureLevel, nowMs: Int) {
    guard parameters.killsOnSustainedPressure else { return }
    let old = sustained.level
    sustained.level = level
    if level == .normal {
      sustained.dueMs = nil
      sustained.normalSinceMs = nowMs
      return
    }
    guard old == .normal else { return }
    let since = sustained.normalSinceMs
    if let next = sustained.nextMs, since <= next, next < nowMs { sustained.nextMs = nil }
    if nowMs - since >= Self.smoothingMs {
      sustained.dueMs = nowMs + parameters.sustainedPressureWindowMs
    }
  }

  /// How long a fall of the level lasts before the notification thread takes it as the level it
  /// compares with (`VM_PRESSURE_DECREASED_SMOOTHING_PERIOD`, kern_memorystatus_notify.c line 120).
  static let smoothingMs = 5_000

  /// The handler's kill at this instant, if it acts now: the head of IDLE, while the level is not
  /// normal and the handler has kills left. A handler scheduled while another is under way runs
  /// once that one stops (the thread call runs one at a time).
  mutating func sustainedPressureEviction(_ device: DeviceView, excluded: Int) -> Eviction? {
    let now = device.nowMs
    while true {
      if sustained.nextMs == nil {
        guard let due = sustained.dueMs, due <= now else { return nil }
        sustained.dueMs = nil
        sustained.nextMs = due
        sustained.killsLeft = 2 * idleCount
      }
      guard let next = sustained.nextMs, next <= now else { return nil }
      if device.level != .normal, sustained.killsLeft > 0,
        let victim = order.first(excluding: excluded),
        members[victim].band <= parameters.bands.idle
      {
        sustained.killsLeft -= 1
        sustained.nextMs = now + parameters.sustainedPressureDelayMs
        if parameters.purgeBeforeKill, device.apps[victim].purgeableKB > 0 {
          return purge(victim, else: .sustainedPressure, nowMs: now)
        }
        return Eviction(app: victim, reason: .sustainedPressure)
      }
      sustained.nextMs = nil
    }
  }
}
