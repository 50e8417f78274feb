import JetsimCore

/// A process's jetsam band predicted from what a JetsamEvent report says of it besides its
/// priority: its states and its kind, by the meaning XNU gives its bands (bsd/sys/
/// kern_memorystatus.h, `JETSAM_PRIORITY_*`, current numbering). It never reads the priority, nor
/// the process's place in the list (which is in band order, so reading it would hand the kernel's
/// order back to a replay); `jetsim replay` scores it against the real bands of reports that give
/// them (`bands.csv`), and `import-jetsam` uses it for reports that do not.
public enum BandPredictor {
  /// `JETSAM_PRIORITY_IDLE`: idle daemons and suspended apps and extensions.
  public static let idle = 0
  /// `JETSAM_PRIORITY_BACKGROUND`: a process running in the background.
  public static let background = 30
  /// `JETSAM_PRIORITY_FOREGROUND`: the app on screen.
  public static let foreground = 100
  /// `JETSAM_PRIORITY_HOME`: SpringBoard, the home screen.
  public static let home = 160
  /// `JETSAM_PRIORITY_DEFAULT`: a launchd job that names no band of its own.
  public static let daemonDefault = 180

  /// The processes that are the home screen, whatever their states.
  static let homeProcesses: Set<String> = ["SpringBoard"]

  /// The band `process` is predicted to be in.
  public static func band(of process: JetsamReport.Process) -> Int {
    if homeProcesses.contains(process.name) { return home }
    if process.isFrontmost { return foreground }
    if process.isIdle || process.isSuspended { return idle }
    if process.isDaemon { return daemonDefault }
    return background
  }

  /// The class a band belongs to, for a coarser score: `idle` (below BACKGROUND: IDLE and the
  /// aging bands), `background` (up to FOREGROUND), `foreground` (FOREGROUND up to HOME) and
  /// `system` (HOME and above).
  public static func bandClass(_ band: Int) -> String {
    switch band {
    case ..<background: "idle"
    case ..<foreground: "background"
    case ..<home: "foreground"
    default: "system"
    }
  }
}
