import JetsimCore

/// `run.json`: which jetsim, scenario, inputs, policy and seed produced a report folder.
public struct Provenance: Sendable, Equatable {
  /// The jetsim version that wrote it.
  public var jetsimVersion: String
  /// The scenario's name.
  public var scenario: String
  /// The device's name.
  public var device: String
  /// The policy's name.
  public var policy: String
  /// The seed.
  public var seed: UInt64
  /// Where the run was told to end, in milliseconds, in place of its scenario's own end
  /// (`--duration`); nil for a run of the scenario as it is.
  public var durationMs: Int?
  /// The files the scenario was loaded from, with their digests.
  public var inputs: [RunInput]
  /// The script actions and trace lines after the run's end, which it did not play.
  public var unplayed = UnplayedActions()
  /// When the run ended, in milliseconds (0 when `run.json` does not say: it says only with
  /// actions left unplayed).
  public var endMs = 0

  /// The provenance of a run of `scenario` that produced `summary`.
  public init(scenario: Scenario, summary: RunSummary) {
    jetsimVersion = JetsimVersion.current
    self.scenario = scenario.name
    device = scenario.device.name
    policy = summary.policy
    seed = summary.seed
    inputs = scenario.inputs
    unplayed = summary.unplayed
    endMs = unplayed.total > 0 ? summary.metrics.durationMs : 0
  }

  /// `run.json`'s text: fixed key order, one input a line, `\n` line ends.
  public var json: String {
    let inputLines = inputs.map {
      "    {\"role\": \(JSONText.quote($0.role)), \"file\": \(JSONText.quote($0.file)), \"sha256\": \(JSONText.quote($0.sha256))}"
    }
    let duration = durationMs.map { "\n  \"duration_ms\": \($0)," } ?? ""
    return """
      {
        "jetsim": \(JSONText.quote(jetsimVersion)),
        "scenario": \(JSONText.quote(scenario)),
        "device": \(JSONText.quote(device)),
        "policy": \(JSONText.quote(policy)),
        "seed": \(seed),\(duration)
        "inputs": [
      \(inputLines.joined(separator: ",\n"))
        ]\(notPlayedJSON)
      }

      """
  }

  /// `,\n  "not_played": {…}` when actions were left unplayed; empty otherwise.
  var notPlayedJSON: String {
    guard unplayed.total > 0 else { return "" }
    let first = unplayed.firstMs.map(String.init) ?? "null"
    return
      ",\n  \"not_played\": {\"script\": \(unplayed.script), \"trace\": \(unplayed.trace), \"first_ms\": \(first), \"end_ms\": \(endMs)}"
  }

  /// Reads `run.json`'s text; nil if it is not one.
  public init?(json bytes: some Collection<UInt8>) {
    guard let root = try? JSONParser.parse(bytes), let version = root["jetsim"]?.string,
      let scenario = root["scenario"]?.string, let device = root["device"]?.string,
      let policy = root["policy"]?.string, let seed = root["seed"]?.unsigned,
      let entries = root["inputs"]?.elements
    else { return nil }
    jetsimVersion = version
    self.scenario = scenario
    self.device = device
    self.policy = policy
    self.seed = seed
    durationMs = root["duration_ms"]?.unsigned.map { Int($0) }
    inputs = entries.compactMap { entry in
      guard let role = entry["role"]?.string, let file = entry["file"]?.string,
        let digest = entry["sha256"]?.string
      else { return nil }
      return RunInput(role: role, file: file, sha256: digest)
    }
    if let left = root["not_played"] {
      unplayed = UnplayedActions(
        script: Int(left["script"]?.unsigned ?? 0), trace: Int(left["trace"]?.unsigned ?? 0),
        firstMs: left["first_ms"]?.unsigned.map { Int($0) })
      endMs = Int(left["end_ms"]?.unsigned ?? 0)
    }
  }

  /// What differs between `self` (the golden's) and `current` inputs, in words: `app com.x (maps.json)`.
  public func changedInputs(comparedTo current: [RunInput]) -> [String] {
    var changes: [String] = []
    for input in current {
      let recorded = inputs.first { $0.role == input.role }
      if recorded?.sha256 != input.sha256 {
        changes.append("\(input.role) (\(input.file))\(recorded == nil ? ", new" : "")")
      }
    }
    for input in inputs where !current.contains(where: { $0.role == input.role }) {
      changes.append("\(input.role) (\(input.file)), removed")
    }
    return changes
  }
}

extension RunInput {
  /// The input `data`, read from `path`, in the role `role`.
  package init(role: String, path: String, data: some Collection<UInt8>) {
    self.init(role: role, path: path, sha256: SHA256.hex(data))
  }

  /// The file at `path` (named without its folder) with its digest `sha256`.
  package init(role: String, path: String, sha256: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    self.init(role: role, file: name, sha256: sha256)
  }
}
