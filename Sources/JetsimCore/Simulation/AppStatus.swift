/// What the simulation knows of one process at one instant (an app, or a system process: see
/// `isSystemProcess`): what policies and observers read.
public struct AppStatus: Sendable, Equatable {
  /// Its lifecycle state. A system process is `suspended` while idle and `background` while it
  /// runs (an active daemon).
  public internal(set) var state: AppState = .notRunning
  /// Its footprint: what policies and reports see (0 when not running).
  public internal(set) var footprintKB = 0
  /// The physical memory it occupies: its footprint, or less while suspended on a device that
  /// compresses memory.
  public internal(set) var physicalKB = 0
  /// The last time it entered the `background` state (left the screen, was launched or resumed into
  /// the background): its recency for least-recently-used rules.
  public internal(set) var lastUsedMs = 0
  /// When it last left the screen, if it has since it was launched.
  public internal(set) var leftForegroundMs: Int?
  /// When it entered its current state.
  public internal(set) var enteredStateMs = 0
  /// The background modes in use now, as `BackgroundMode.bit`s.
  public internal(set) var activeModes: UInt8 = 0
  /// Whether it is in the background with work still to do (background time, a task or a wake).
  public internal(set) var hasBackgroundWork = false
  /// The jetsam band a snapshot gave it, until its state next changes.
  public internal(set) var snapshotBand: Int?
  /// Its position when names are sorted: the final tie-break of every policy.
  public let idRank: Int
  /// Whether it is one of the device's system processes rather than an app.
  public let isSystemProcess: Bool

  // Footprint parts (docs/model.md §3).
  /// Resident dirty memory: the profile's, or a snapshot's.
  var baseKB = 0
  var cachesKB = 0
  var grownKB = 0
  var extraKB = 0
  var peakKB = 0
  /// Memory of a ramped cold launch that has not arrived yet.
  var rampKB = 0
  var holdsScreenMemory = false
  // Timers scheduled for an earlier generation are stale and ignored.
  var timerGeneration: UInt32 = 0
  var lifeGeneration: UInt32 = 0
  var workEndMs = 0
  var interruptionEndMs = 0
  var everLaunched = false

  init(idRank: Int, isSystemProcess: Bool) {
    self.idRank = idRank
    self.isSystemProcess = isSystemProcess
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
