import JetsimCore

/// A scenario's trace checked by the one run that reads it (`ProfileLoader.scenarioForOneRun`):
/// the run's own reading checks every line and fingerprints the file (its summary's
/// `traceDigest`, from the cursor that read it), so the trace is read once, not once to check and
/// again to run.
package struct TraceCheck: Sendable {
  /// The trace file.
  package let path: String
  /// The feed the run reads: its cursor hashes the file as it goes.
  package var feed: ActionFeed { TraceReader.feed(path: path, hashing: true) }
  /// The scenario as loaded, without its trace: to check the rest of the trace when the run stops
  /// before its end.
  private let scenario: Scenario

  init(path: String, scenario: Scenario) {
    self.path = path
    self.scenario = scenario
  }

  /// The trace's entry for `run.json`, once the run is over: its SHA-256 as the run read it to the
  /// end (`summary.traceDigest`; a run stopped by its duration reads the rest to count it), or,
  /// for a summary without one, after checking the whole file the way loading does.
  package func finish(_ summary: RunSummary) throws(JetsimError) -> RunInput {
    if let digest = summary.traceDigest {
      return RunInput(role: "trace", path: path, sha256: digest)
    }
    var whole = scenario
    try ProfileLoader.checkAndAttach(trace: path, to: &whole)
    guard let input = whole.inputs.last(where: { $0.role == "trace" }) else {
      throw .unreadable(path: path, reason: "the trace could not be read to its end")
    }
    return input
  }
}
