/// The state of a device at time 0, so a run can start from a real device's state (docs/model.md
/// §11): for each process listed, its state, footprint and jetsam band. The list's order is each
/// band's order of entry: inside a band, the process listed first entered it first. Processes not
/// listed start as they would without a snapshot (apps not running, system processes running).
public struct Snapshot: Sendable, Equatable {
  /// One process at time 0.
  public struct Entry: Sendable, Equatable {
    /// An app's id or a system process's name.
    public var process: String
    /// Its state: `active` or `inactive` for the app on screen (at most one), `background`,
    /// `suspended`; a system process is `background` (an active daemon) or `suspended` (idle).
    public var state: AppState
    /// Its footprint, if it differs from what its profile gives.
    public var footprintKB: Int?
    /// Its jetsam priority band, if known (real JetsamEvent reports give it from iOS 14); it holds
    /// until the process changes state.
    public var band: Int?

    /// A process's state at time 0, with its footprint and jetsam band if the snapshot gives them.
    public init(process: String, state: AppState, footprintKB: Int? = nil, band: Int? = nil) {
      self.process = process
      self.state = state
      self.footprintKB = footprintKB
      self.band = band
    }
  }

  /// The processes, in band-entry order.
  public var entries: [Entry]

  /// A snapshot of `entries`, one per process.
  public init(_ entries: [Entry]) { self.entries = entries }
}
