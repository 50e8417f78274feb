import JetsimCore

/// A scenario's trace checked by the one run that reads it (`ProfileLoader.scenarioForOneRun`):
/// the run's own reading checks every line and fingerprints the file, so the trace is read once,
/// not once to check and again to run.
package final class TraceCheck: @unchecked Sendable {
  /// The trace file.
  package let path: String
  /// The feed the run reads: it keeps the cursor, whose reader hashes the file as it goes.
  package private(set) var feed: ActionFeed?
  private var cursor: TraceCursor?
  /// The scenario as loaded, without its trace: to check the rest of the trace when the run stops
  /// before its end.
  private let scenario: Scenario

  init(path: String, scenario: Scenario) {
    self.path = path
    self.scenario = scenario
    feed = ActionFeed(path: path) { [weak self] () throws(JetsimError) -> any ActionCursor in
      let cursor = try TraceCursor(path: path, hashing: true)
      self?.cursor = cursor
      return cursor
    }
  }

  /// The trace's entry for `run.json`, once the run is over: its SHA-256 as the run read it to the
  /// end, or, when the run stopped earlier (`--duration`), after checking the whole file the way
  /// loading does, so that a bad line after the run's end is still an error.
  package func finish() throws(JetsimError) -> RunInput {
    if let digest = cursor?.digest { return RunInput(role: "trace", path: path, sha256: digest) }
    var whole = scenario
    try ProfileLoader.checkAndAttach(trace: path, to: &whole)
    guard let input = whole.inputs.last(where: { $0.role == "trace" }) else {
      throw .unreadable(path: path, reason: "the trace could not be read to its end")
    }
    return input
  }
}
