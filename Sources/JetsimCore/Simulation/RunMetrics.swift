/// The run-wide counters behind `summary.csv` (docs/model.md §9), kept as the run goes.
public struct RunMetrics: Sendable, Equatable {
  /// The simulated time covered, in milliseconds.
  public internal(set) var durationMs = 0
  /// Events recorded.
  public internal(set) var events = 0
  /// Apps opened by the user (including unlocks that bring an app back).
  public internal(set) var opens = 0
  /// Opens of an app that had been launched before in the run.
  public internal(set) var opensOfLaunchedApps = 0
  /// Opens that started the app from scratch.
  public internal(set) var coldLaunches = 0
  /// Opens that found the app in memory (suspended or running in the background).
  public internal(set) var warmResumes = 0
  /// Cold launches of apps whose last life ended in a memory-pressure kill: the warm resumes that
  /// memory pressure took away.
  public internal(set) var pressureColdLaunches = 0
  /// User-visible launch time: cold launches plus warm resumes, in milliseconds.
  public internal(set) var launchTimeMs = 0
  /// didReceiveMemoryWarning callbacks delivered.
  public internal(set) var memoryWarnings = 0
  /// App kills by reason (`KillReason.rawValue` index); system processes are counted apart.
  public internal(set) var killsByReason = [Int](repeating: 0, count: KillReason.allCases.count)
  /// Kills of system processes (daemons, extensions), whatever the reason.
  public internal(set) var systemProcessKills = 0
  /// Kills of system processes by reason (`KillReason.rawValue` index).
  public internal(set) var systemProcessKillsByReason = [Int](
    repeating: 0, count: KillReason.allCases.count)
  /// System processes launchd relaunched after a kill.
  public internal(set) var relaunches = 0
  /// Opens (cold launches and warm resumes) whose memory waited for the policy to kill first. The
  /// wait itself takes no simulated time: kills are instantaneous in the model.
  public internal(set) var launchesWaited = 0
  /// Times free memory fell below critical with nothing left to kill (counted once each time).
  public internal(set) var shortfalls = 0
  /// The largest amount by which free memory stayed below critical with nothing left to kill.
  public internal(set) var maxShortfallKB = 0
  /// The most apps in memory (any state but notRunning) at once.
  public internal(set) var peakAppsResident = 0
  /// Time-weighted sum of apps in memory, in app·milliseconds.
  public internal(set) var residentAppMs = 0
  /// The most device memory in use (reserved, system processes and apps; not the page cache):
  /// never more than memory.
  public internal(set) var peakUsedKB = 0
  /// The least free memory seen (pages nobody holds, not even the page cache).
  public internal(set) var minFreeKB = Int.max
  /// The least available memory seen (`DeviceMemory.availableKB`: free pages and the page cache).
  public internal(set) var minAvailableKB = Int.max
  /// File pages read again because the cache was smaller than the working set, in KB·ms per
  /// second (`refaultKB` is this ÷ 1000): kept exact, as an integer, until the end.
  var refaultKBMsPerSecond = 0
  /// Time some task stalled on refaults, in permille·ms (`stallMs` is this ÷ 1000).
  var stallPermilleMs = 0
  /// File pages read again because the page cache was smaller than the working set.
  public var refaultKB: Int { refaultKBMsPerSecond / 1000 }
  /// Time during which some task waited for refaults (as Linux's PSI counts memory "some").
  public var stallMs: Int { stallPermilleMs / 1000 }
  /// Time spent at the warning level or worse.
  public internal(set) var timeWarningMs = 0
  /// Time spent at the critical level.
  public internal(set) var timeCriticalMs = 0
  /// Under a policy with bands (jetsam), the kills of apps and system processes for memorystatus's
  /// own causes (memory pressure and `per-process-limit`), by the victim's band: one count for each
  /// of `countedBands`, then one for every other band, as the kernel counts kills per band and
  /// cause (`_memstat_record_kill`, kern_memorystatus.c:2269); nil under a policy without bands.
  public internal(set) var killsByBand: [Int]?

  /// The bands summary.csv counts kills in: those jetsam gives by default (IDLE 0, the daemons'
  /// aging band 10, the apps' aging band 20, BACKGROUND 30, ELEVATED_INACTIVE 40, FOREGROUND 100,
  /// AUDIO_AND_ACCESSORY 120).
  /// The freezer's band (75) is not one of them: it is counted with the other bands, so that
  /// summary.csv has the same columns on every device.
  public static let countedBands = JetsamPolicy.Bands().numbers.filter {
    $0 != JetsamPolicy.Bands().freezer
  }

  /// Kills in `band` (nil: every band not in `countedBands`), or nil under a policy without bands.
  public func kills(inBand band: Int?) -> Int? { killsByBand?[Self.slot(of: band)] }

  /// Counts a kill in `band` for `reason`, if it is one of memorystatus's causes.
  mutating func countKill(band: Int?, reason: KillReason) {
    guard killsByBand != nil, let band, reason.isMemoryPressure || reason == .perProcessLimit
    else { return }
    killsByBand?[Self.slot(of: band)] += 1
  }

  /// Where `killsByBand` counts `band`: its place in `countedBands`, else (or for nil) the last.
  static func slot(of band: Int?) -> Int {
    band.flatMap { countedBands.firstIndex(of: $0) } ?? countedBands.count
  }

  /// Kills for `reason`.
  public func kills(_ reason: KillReason) -> Int { killsByReason[Int(reason.rawValue)] }
  /// All app kills, whatever the reason.
  public var totalKills: Int { killsByReason.reduce(0, +) }
  /// Every kill, of apps and of system processes: the rows of `kills.csv`.
  public var allKills: Int { totalKills + systemProcessKills }
  /// Kills of apps and of system processes for `reason`.
  public func allKills(_ reason: KillReason) -> Int {
    kills(reason) + systemProcessKillsByReason[Int(reason.rawValue)]
  }
  /// Kills of apps and of system processes made for memory pressure: the rows of `kills.csv`
  /// whose reason is one (`KillReason.isMemoryPressure`).
  public var allPressureKills: Int {
    KillReason.allCases.filter(\.isMemoryPressure).reduce(0) { $0 + allKills($1) }
  }
  /// App kills the system chose (not force-quits or reboots).
  public var systemKills: Int {
    KillReason.allCases.filter(\.isSystemKill).reduce(0) { $0 + kills($1) }
  }
  /// Opens that were neither cold launches nor warm resumes: the app died before it reached the
  /// screen (its launch or resume found no room even after kills, or crossed a fatal limit).
  public var failedOpens: Int { max(0, opens - coldLaunches - warmResumes) }
  /// Warm resumes ÷ opens of apps launched before (nil when there were none).
  public var warmResumeRatio: Double? {
    opensOfLaunchedApps == 0 ? nil : Double(warmResumes) / Double(opensOfLaunchedApps)
  }
  /// App kills made for memory pressure (`KillReason.isMemoryPressure`).
  public var pressureKills: Int {
    KillReason.allCases.filter(\.isMemoryPressure).reduce(0) { $0 + kills($1) }
  }
  /// Memory-pressure app kills per simulated hour (nil for a run of no length).
  public var pressureKillsPerHour: Double? {
    durationMs == 0 ? nil : Double(pressureKills) * 3_600_000 / Double(durationMs)
  }
  /// Warm resumes ÷ (warm resumes + cold launches after memory-pressure kills): of the opens that
  /// would have been warm with more memory, the share that were (nil when there were none). Apps
  /// that exit on suspend, force-quits and reboots do not count against it.
  public var pressureWarmResumeRatio: Double? {
    let reopenings = warmResumes + pressureColdLaunches
    return reopenings == 0 ? nil : Double(warmResumes) / Double(reopenings)
  }
  /// App kills the system chose, per simulated hour (nil for a run of no length).
  public var killsPerHour: Double? {
    durationMs == 0 ? nil : Double(systemKills) * 3_600_000 / Double(durationMs)
  }
  /// The time-weighted mean number of apps in memory.
  public var meanAppsResident: Double? {
    durationMs == 0 ? nil : Double(residentAppMs) / Double(durationMs)
  }
}

/// The counters of `AppStats` a simulation keeps for each process as it runs, as plain data.
struct ProcessCounters {
  var launches = 0
  var coldLaunches = 0
  var warmResumes = 0
  var suspendedKBMs = 0.0
  var suspensions = 0
  var memoryWarnings = 0
  /// Its rows of the simulation's `killCounts` and `foregroundKillCounts`, once it has been killed
  /// (on screen, for the second); -1 before.
  var killRow: Int32 = -1
  var foregroundKillRow: Int32 = -1
}

/// One app's counters, behind a row of `apps.csv`.
public struct AppStats: Sendable, Equatable {
  /// Launches of any kind (user or background).
  public internal(set) var launches = 0
  /// Cold launches by the user.
  public internal(set) var coldLaunches = 0
  /// Warm resumes by the user.
  public internal(set) var warmResumes = 0
  /// Kills by reason (`KillReason.rawValue` index).
  public var killsByReason: [Int] { killRow.values }
  /// Of those, the kills while it was in the foreground (active or inactive); the rest were in the
  /// background or suspended. MetricKit counts the two apart.
  public var foregroundKillsByReason: [Int] { foregroundKillRow.values }
  /// The two above, as rows of the run's kill tables.
  var killRow = TableRow<UInt32>(zeros: KillReason.allCases.count)
  var foregroundKillRow = TableRow<UInt32>(zeros: KillReason.allCases.count)
  /// Its footprint integrated over the time it spent suspended, in KB·ms: with
  /// `time(in: .suspended)`, its average suspended memory. A `Double`, since sizes up to 2⁴⁰ KB
  /// times durations up to 2⁴² ms overflow an `Int` (docs/hardening.md, "Totals"); each term is
  /// exact below 2⁵³ and the sum is added in event order, so it is the same on every platform.
  public internal(set) var suspendedKBMs = 0.0
  /// The times it entered the suspended state.
  public internal(set) var suspensions = 0
  /// didReceiveMemoryWarning callbacks received.
  public internal(set) var memoryWarnings = 0
  /// Its largest footprint.
  public internal(set) var peakFootprintKB = 0
  /// Time in each state (`AppState.rawValue` index), in milliseconds.
  public var timeInStateMs: [Int] { stateTimeRow.values }
  /// The same, as a row of the run's table of times.
  private let stateTimeRow: TableRow<Int>

  /// The counters of a process that ran: `counters` as the simulation kept them, and the two it
  /// keeps apart; its kills are the simulation's to set.
  init(_ counters: ProcessCounters, peakFootprintKB: Int, timeInState: TableRow<Int>) {
    (launches, coldLaunches, warmResumes) = (
      counters.launches, counters.coldLaunches, counters.warmResumes
    )
    (suspendedKBMs, suspensions, memoryWarnings) = (
      counters.suspendedKBMs, counters.suspensions, counters.memoryWarnings
    )
    self.peakFootprintKB = peakFootprintKB
    stateTimeRow = timeInState
  }

  /// Kills for `reason`.
  public func kills(_ reason: KillReason) -> Int { killRow[Int(reason.rawValue)] }
  /// Time spent in `state`.
  public func time(in state: AppState) -> Int { stateTimeRow[Int(state.rawValue)] }
  /// Kills for `reason` while in the foreground.
  public func foregroundKills(_ reason: KillReason) -> Int {
    foregroundKillRow[Int(reason.rawValue)]
  }
  /// Its time-weighted mean footprint while suspended (nil if it never was).
  public var averageSuspendedKB: Int? {
    let time = time(in: .suspended)
    return time == 0 ? nil : Int((suspendedKBMs / Double(time)).rounded())
  }
}
