extension JetsamPolicy {
  /// XNU's reaper between two decisions (xnu-11417 `memstat_reaper_*`, kern_memorystatus.c).
  ///
  /// A sweep starts whenever memory is checked (`memstat_evaluate_page_shortage`, lines
  /// 4213–4251) below the reaper level, once the period since the last sweep ended has passed,
  /// unless the last walk of the process list found no process reapable and is still fresh. It
  /// then goes on, whatever the memory, while the system is healthy
  /// (`memorystatus_pick_action`, kern_memorystatus_policy.c:219), until a search finds no
  /// process reapable; that ends it and starts the period (`_memstat_reaper_end_sweep`, line
  /// 4146), whether it killed anyone or not. So a sweep that finds nobody costs a period too:
  /// below the level, attempts come a period apart, and a process that becomes reapable between
  /// two waits for the next. The walk (`_memstat_refresh_oldest_reapable_proc_info`, lines
  /// 6622–6675) is made at the start of every top-process kill (`memorystatus_kill_top_process`,
  /// line 6447: the reaper's, idle-exit's, the top process's, low swap's and sustained
  /// pressure's), whatever it then kills, and kept for a period.
  ///
  /// XNU compares its clock strictly ("after"); jetsim's clock counts whole milliseconds and
  /// takes the moment itself.
  struct Reaper: Sendable, Equatable {
    /// What the last walk found (`memstat_oldest_reapable_proc_prio_start`).
    enum Oldest: Sendable, Equatable {
      /// No walk yet, or its finding has expired.
      case unknown
      /// No process was reapable.
      case none
      /// The oldest reapable process entered IDLE then.
      case enteredAtMs(Int)
    }

    /// Whether a sweep is under way (`memstat_reaper_is_currently_sweeping`).
    var sweeping = false
    /// The earliest a sweep may start (`memstat_reaper_can_run_after_ts_matu`).
    var canRunAfterMs = 0
    var oldest = Oldest.unknown
    /// When the oldest process found becomes reapable
    /// (`memstat_oldest_reapable_proc_will_be_reapable_at_ts_matu`).
    var reapableAtMs = 0
    /// When the walk's finding expires (`memstat_oldest_reapable_proc_info_expiration_ts_matu`).
    var walkExpiresMs = 0
  }

  /// Starts a sweep if one is due with `availableKB` at `nowMs` (`memstat_evaluate_page_shortage`,
  /// lines 4225–4250), healthy or not.
  mutating func startSweepIfDue(availableKB: Int, nowMs: Int) {
    guard let level = levels.reaperKB, !reaper.sweeping, nowMs >= reaper.canRunAfterMs,
      availableKB < level
    else { return }
    // `_memstat_reaper_check_oldest_reapable_proc_info_timeout`, lines 4096–4106.
    if reaper.oldest != .unknown, nowMs >= reaper.walkExpiresMs {
      (reaper.oldest, reaper.reapableAtMs) = (.unknown, 0)
    }
    guard reaper.oldest != .none, nowMs >= reaper.reapableAtMs else { return }
    reaper.sweeping = true
  }

  /// The walk of the process list a top-process kill begins with, unless the last is fresh: the
  /// oldest entrant of IDLE the reaper may take (the head of its list: IDLE is in order of entry).
  mutating func walkForReapable(nowMs: Int) {
    guard levels.reaperKB != nil, nowMs >= reaper.walkExpiresMs else { return }
    if let head = reapable.first, hasReaperAge(head, nowMs: nowMs) {
      reaper.oldest = .enteredAtMs(members[head].entryMs)
      reaper.reapableAtMs = members[head].entryMs + levels.reaperMinAgeMs
    } else {
      reaper.oldest = .none
    }
    reaper.walkExpiresMs = nowMs + levels.reaperPeriodMs
  }

  /// Whether process `app` has been in IDLE the reaper's minimum age by `nowMs`
  /// (`_memstat_proc_is_reapable`: the age is the time in the band).
  @inline(__always)
  private func hasReaperAge(_ app: Int, nowMs: Int) -> Bool {
    members[app].entryMs + levels.reaperMinAgeMs <= nowMs
  }

  /// The sweep's next kill (`MEMORYSTATUS_KILL_LONG_IDLE`): the head of IDLE's reapable
  /// processes if it has been in IDLE the reaper's age; with none, the sweep ends and the period
  /// starts (`memorystatus_kill_top_process`, lines 6601–6605).
  mutating func sweepEviction(nowMs: Int, excluded: Int) -> Eviction? {
    guard reaper.sweeping else { return nil }
    walkForReapable(nowMs: nowMs)
    if let victim = reapable.first(excluding: excluded), hasReaperAge(victim, nowMs: nowMs) {
      return Eviction(app: victim, reason: .longIdleExit)
    }
    reaper.sweeping = false
    reaper.canRunAfterMs = nowMs + levels.reaperPeriodMs
    return nil
  }

  /// The earliest moment the reaper may act below its level: now while a sweep is under way,
  /// else once its period has passed and any walk that found no one has expired. Nil when the
  /// device's reaper is off.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  func nextReaperMs(nowMs: Int) -> Int? {
    guard levels.reaperKB != nil else { return nil }
    if reaper.sweeping { return nowMs }
    let fresh = reaper.oldest == .none ? reaper.walkExpiresMs : nowMs
    return max(reaper.canRunAfterMs, fresh, nowMs)
  }
}
