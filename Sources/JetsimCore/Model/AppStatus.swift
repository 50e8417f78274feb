/// What the simulation knows of one process at one instant (an app, or a system process: see
/// `isSystemProcess`): what policies and observers read.
public struct AppStatus: Sendable, Equatable {
  // The stored fields are laid out widest first, so that the struct (copied on every change to
  // a process) has no padding: 15 words, then the narrow fields.

  /// Its footprint: what policies and reports see (0 when not running).
  public internal(set) var footprintKB = 0
  /// The physical memory it occupies: its footprint, or less while suspended on a device that
  /// compresses memory.
  public internal(set) var physicalKB = 0
  /// The last time it entered the `background` state (left the screen, was launched or resumed into
  /// the background): its recency for least-recently-used rules.
  public internal(set) var lastUsedMs = 0
  /// When it entered its current state.
  public internal(set) var enteredStateMs = 0
  /// When it last left the screen (-1: not since it was launched).
  private var leftForegroundStorage = -1
  /// The part of its memory XNU's freezer wrote to swap (`DeviceProfile.Freezer`): it occupies no
  /// physical memory until the app runs again; its footprint still counts it.
  public internal(set) var frozenKB = 0
  private let idRankStorage: Int

  // Footprint parts (docs/model.md §3).
  /// Resident dirty memory: the profile's, or a snapshot's.
  var baseKB = 0
  var cachesKB = 0
  var grownKB = 0
  var extraKB = 0
  var peakKB = 0
  /// Memory of a ramped cold launch that has not arrived yet.
  var rampKB = 0
  var workEndMs = 0
  var interruptionEndMs = 0
  // Timers scheduled for an earlier generation are stale and ignored.
  var timerGeneration: UInt32 = 0
  var lifeGeneration: UInt32 = 0
  /// The band a snapshot gave it (-1: none).
  private var snapshotBandStorage: Int16 = -1
  /// Its priority assertion and dirty state (workload actions `assert`, `release`, `dirty`,
  /// `clean`), from its launch to its end.
  public internal(set) var priority = PriorityRequest()

  /// Its lifecycle state. A system process is `suspended` while idle and `background` while it
  /// runs (an active daemon).
  public internal(set) var state: AppState = .notRunning
  /// The background modes in use now, as `BackgroundMode.bit`s.
  public internal(set) var activeModes: UInt8 = 0
  /// Whether it is in the background with work still to do (background time, a task or a wake).
  public internal(set) var hasBackgroundWork = false
  /// Whether it is one of the device's system processes rather than an app.
  public let isSystemProcess: Bool
  var holdsScreenMemory = false
  var everLaunched = false
  /// Whether its last life ended in a memory-pressure kill (`KillReason.isMemoryPressure`) and it
  /// has not been launched since: the user's next open of it is a warm resume lost to pressure.
  var lostToPressure = false
  /// Whether its crossing of a non-fatal active limit has been recorded (`limit-exceeded`), until
  /// it is back under the limit or its limit changes (the ledger's `LF_CALLED_BACK`).
  var overLimitNoted = false
  /// Whether its memory is in swap (a suspended app on a device with app swap): it occupies no
  /// physical memory until it resumes.
  public internal(set) var isSwapped = false
  /// Whether the compressor holds its memory (suspended on a device that compresses).
  public internal(set) var isCompressed = false
  /// Whether it was on screen when the device last locked, until an app comes on screen (or an
  /// open that unlocked the device fails on the way) or it dies: it has left the screen as an app
  /// does on iOS, but Android keeps its activity the top one (ActivityManager's "top-sleeping").
  public internal(set) var isBehindLock = false
  /// Whether XNU's freezer has frozen it in this life (`P_MEMSTAT_FROZEN`: kept when it thaws and
  /// when it is demoted, until it exits).
  public internal(set) var isFrozen = false
  /// Whether, frozen, it is pinned to the freezer's band when it asks for a lower one
  /// (`P_MEMSTAT_USE_ELEVATED_INACTIVE_BAND`, set by a freeze, cleared by a demotion).
  public internal(set) var isFreezerElevated = false
  /// Whether its change of band now goes straight to IDLE without aging (a freezer demotion,
  /// `MEMSTAT_PRIORITY_NO_AGING`); true only while the policy hears of that change.
  public internal(set) var skipsAging = false

  init(idRank: Int, isSystemProcess: Bool) {
    self.idRankStorage = idRank
    self.isSystemProcess = isSystemProcess
  }

  /// Its position when names are sorted: the final tie-break of every policy.
  public var idRank: Int { idRankStorage }

  /// When it last left the screen, if it has since it was launched.
  public internal(set) var leftForegroundMs: Int? {
    get { leftForegroundStorage >= 0 ? leftForegroundStorage : nil }
    set { leftForegroundStorage = newValue ?? -1 }
  }

  /// The jetsam band a snapshot gave it, until its state next changes.
  public internal(set) var snapshotBand: Int? {
    get { snapshotBandStorage >= 0 ? Int(snapshotBandStorage) : nil }
    set { snapshotBandStorage = Int16(clamping: newValue ?? -1) }
  }

  /// Whether it is in the state a snapshot placed it in (with or without a band), until its state
  /// next changes: it was in that state before time 0, so no aging starts then.
  public var isFromSnapshot: Bool { snapshotBandStorage != -1 }

  /// Marks it as placed by a snapshot that gives `band` (or none).
  mutating func placeBySnapshot(band: Int?) {
    snapshotBandStorage = band.map { Int16(clamping: $0) } ?? -2
  }

  /// Enters `state` at `now`: its time in the state starts and its timers go stale. Unless a
  /// snapshot places it there, it leaves any band a snapshot gave it, and entering the background
  /// makes it the most recently used. One change of the status, so that the simulation's array of
  /// them is checked once for uniqueness and bounds, not once a field.
  @inline(__always)
  mutating func enter(_ state: AppState, atMs now: Int, bySnapshot: Bool) {
    enteredStateMs = now
    self.state = state
    timerGeneration &+= 1
    guard !bySnapshot else { return }
    snapshotBand = nil
    if state == .background { lastUsedMs = now }
  }

  /// Its footprint from its parts, on screen (with `cachesKB` of caches, or its own, and
  /// `backingStoresKB`) or off.
  func footprint(onScreen: Bool, cachesKB: Int?, backingStoresKB: Int) -> Int {
    let dirty = baseKB + grownKB + extraKB + peakKB - rampKB
    return onScreen ? dirty + (cachesKB ?? self.cachesKB) + backingStoresKB : dirty
  }

  /// Memory the system can take back without killing the app: its caches while it holds them.
  public var purgeableKB: Int { holdsScreenMemory ? cachesKB : 0 }

  /// Whether any mode that keeps the app running in the background is in use.
  public var keepsRunning: Bool {
    activeModes & (BackgroundMode.audio.bit | BackgroundMode.location.bit | BackgroundMode.voip.bit)
      != 0
  }

  /// Whether `mode` is in use.
  public func isUsing(_ mode: BackgroundMode) -> Bool { activeModes & mode.bit != 0 }
}
