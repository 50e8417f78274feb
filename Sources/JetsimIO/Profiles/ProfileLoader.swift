import JetsimCore

/// Loads profiles, scenarios and traces from files, turning every problem into a `JetsimError` that
/// names the file, the key path or line, and the fix.
public enum ProfileLoader {
  /// The scenario in the JSON file at `path`, with its device, apps and trace loaded (paths inside
  /// it are relative to the scenario file) and its workload checked. With `replacementTrace`, the
  /// scenario's whole workload (script, trace and user model) is replaced by that trace file.
  public static func scenario(at path: String, trace replacementTrace: String? = nil)
    throws(JetsimError) -> Scenario
  {
    try scenario(from: InputFile.bytes(at: path), path: path, trace: replacementTrace)
  }

  /// The scenario at `path` for one run that checks its trace as it reads it: the trace is not read
  /// beforehand (one pass instead of two), and `TraceCheck.finish(_:)` after the run gives its
  /// SHA-256 for `run.json` (reading the rest of the trace, checked, if the run stopped before its
  /// end). A line the run cannot read fails the run with the error loading would have given.
  package static func scenarioForOneRun(at path: String, trace replacementTrace: String? = nil)
    throws(JetsimError) -> (Scenario, TraceCheck?)
  {
    var (scenario, tracePath) = try scenarioWithoutTrace(
      from: InputFile.bytes(at: path), path: path, trace: replacementTrace)
    guard let tracePath else { return (scenario, nil) }
    let check = TraceCheck(path: tracePath, scenario: scenario)
    scenario.trace = check.feed
    return (scenario, check)
  }

  /// The scenario in `bytes`, read as if from the file at `path`.
  ///
  /// - Complexity: O(*n*) in the size of the scenario, its profiles and its trace.
  package static func scenario(
    from bytes: [UInt8], path: String, trace replacementTrace: String? = nil
  ) throws(JetsimError) -> Scenario {
    var (scenario, tracePath) = try scenarioWithoutTrace(
      from: bytes, path: path, trace: replacementTrace)
    if let tracePath { try checkAndAttach(trace: tracePath, to: &scenario) }
    return scenario
  }

  /// The scenario in `bytes`, everything but its trace checked, and the path of its trace file if
  /// it has one (not yet attached: the caller reads it, checked, once or as the run goes).
  private static func scenarioWithoutTrace(
    from bytes: [UInt8], path: String, trace replacementTrace: String?
  ) throws(JetsimError) -> (Scenario, tracePath: String?) {
    var file = try decode(bytes, path: path) { node throws(FieldError) in
      try ScenarioFile(json: node)
    }
    var inputs = [RunInput(role: "scenario", path: path, data: bytes)]
    if let replacementTrace {
      // The trace replaces the whole workload: the script and the user model too.
      file.script = []
      file.userModel = nil
      file.trace = replacementTrace
    }
    let folder = directory(of: path)
    let device = try Self.device(file.device, of: path, inputs: &inputs)
    let apps = try Self.apps(file.apps, of: path, inputs: &inputs)
    // Before the user model is read, so that a scenario without apps is told so first.
    try checkProcessCount(apps: apps.count, device: device, path: path)
    var scenario = Scenario(
      name: file.name, summary: file.summary, device: device, apps: apps, actions: file.script,
      policy: file.policy, seed: file.seed, durationMs: file.durationMs, origin: path)
    scenario.actionOrigins = file.script.indices.map { (path, "script[\($0)]") }
    scenario.policySettings = file.policySettings
    scenario.userModel = try file.userModel?.model(apps: apps, path: path)
    scenario.inputs = inputs
    scenario.snapshot = file.snapshot
    try checkParts(of: scenario, path: path)
    guard let trace = file.trace else {
      try scenario.checkWorkload()
      return (scenario, nil)
    }
    if let replacementTrace { return (scenario, replacementTrace) }
    let tracePath = resolve(trace, from: folder)
    // A trace the file names is read later; a missing one is named with the key that names it.
    if FileSystem.entry(at: tracePath) == .none { throw notThere(tracePath, at: "trace", of: path) }
    return (scenario, tracePath)
  }

  /// The scenario's device: inline, or read from the file it names (recorded in `inputs`).
  private static func device(
    _ reference: ScenarioFile.Reference<DeviceProfile>, of scenarioPath: String,
    inputs: inout [RunInput]
  ) throws(JetsimError) -> DeviceProfile {
    switch reference {
    case .inline(let profile): return profile
    case .path(let reference, _):
      let (devicePath, deviceData) = try referenced(reference, at: "device", of: scenarioPath)
      inputs.append(RunInput(role: "device", path: devicePath, data: deviceData))
      return try decode(deviceData, path: devicePath) { node throws(FieldError) in
        try DeviceProfile(json: node)
      }
    }
  }

  /// The scenario's apps: inline, or read from the files they name (recorded in `inputs`).
  private static func apps(
    _ references: [ScenarioFile.Reference<AppProfile>], of scenarioPath: String,
    inputs: inout [RunInput]
  ) throws(JetsimError) -> [AppProfile] {
    var apps: [AppProfile] = []
    // Where each id was defined, for the error that names both places of a duplicate.
    var places: [String: String] = [:]
    for (index, reference) in references.enumerated() {
      let app: AppProfile
      var place = "apps[\(index)]"
      switch reference {
      case .inline(let profile): app = profile
      case .path(let reference, _):
        let (appPath, appData) = try referenced(reference, at: place, of: scenarioPath)
        app = try decode(appData, path: appPath) { node throws(FieldError) in
          try AppProfile(json: node)
        }
        inputs.append(RunInput(role: "app \(app.id)", path: appPath, data: appData))
        place += " (\(reference))"
      }
      if let first = places.updateValue(place, forKey: app.id) {
        throw .duplicateApp(path: scenarioPath, id: app.id, places: [first, place])
      }
      apps.append(app)
    }
    return apps
  }

  /// The path and bytes of the file a scenario (or a sweep) names at `key`. The error for a file
  /// that does not exist names the referring file and the key too, where the path to mend is
  /// written.
  package static func referenced(_ reference: String, at key: String, of scenarioPath: String)
    throws(JetsimError) -> (path: String, bytes: [UInt8])
  {
    let path = resolve(reference, from: directory(of: scenarioPath))
    do {
      return (path, try InputFile.bytes(at: path))
    } catch .fileNotFound {
      throw notThere(path, at: key, of: scenarioPath)
    } catch {
      throw error
    }
  }

  /// The error for the file at `path`, which `referringPath` names at `key` (relative to its own
  /// folder), when there is no such file.
  package static func notThere(_ path: String, at key: String, of referringPath: String)
    -> JetsimError
  {
    .unreadable(
      path: path,
      reason: "it does not exist; \(referringPath) names it at '\(key)', from its own folder")
  }

  /// Checks a scenario's parts against each other, as loading does once they are read: the number
  /// of processes, the coalitions, the user model's apps, the snapshot, and the scenario's policy
  /// settings against the device (`path` names the scenario file in errors). The device's own
  /// problems and its own policy settings are checked as it is read; the script and the trace
  /// are read by `Scenario.readWorkload`. A sweep checks a point whose device or apps are not the
  /// base scenario's with this and those.
  ///
  /// - Complexity: O(*a* + *s* + *u*) for *a* processes, *s* snapshot entries and *u* user-model
  ///   entries.
  package static func checkParts(of scenario: Scenario, path: String) throws(JetsimError) {
    let (device, apps) = (scenario.device, scenario.apps)
    try checkProcessCount(apps: apps.count, device: device, path: path)
    try checkCoalitions(apps: apps, device: device, path: path)
    try scenario.userModel?.check(apps: apps, path: path)
    try scenario.checkSnapshot(path: path)
    if let (policy, problem) = scenario.policySettings.problem(on: device) {
      throw .invalidValue(
        path: path, keyPath: "policyParameters.\(policy).\(problem.key)", value: problem.value,
        expected: problem.expected)
    }
  }

  /// At least one app, and at most `Units.maxProcesses` processes with the device's own.
  private static func checkProcessCount(apps: Int, device: DeviceProfile, path: String)
    throws(JetsimError)
  {
    if apps == 0 {
      throw .invalidValue(
        path: path, keyPath: "apps", value: "empty", expected: "at least one app profile")
    }
    if apps + device.systemProcesses.count > Units.maxProcesses {
      throw .invalidValue(
        path: path, keyPath: "apps",
        value: "\(apps) apps beside \(device.systemProcesses.count) system processes",
        expected: "at most \(Units.maxProcesses) processes in all")
    }
  }

  /// An app leads the coalition named after it: no system process may lead it too.
  private static func checkCoalitions(apps: [AppProfile], device: DeviceProfile, path: String)
    throws(JetsimError)
  {
    let ids = Set(apps.map(\.id))
    for (index, process) in device.systemProcesses.enumerated()
    where process.coalitionRole == .leader {
      guard let coalition = process.coalition, ids.contains(coalition) else { continue }
      throw .invalidValue(
        path: path, keyPath: "device.systemProcesses[\(index)].role",
        value: "\"leader\" of '\(coalition.excerpt())', which the app of that id leads",
        expected: "\"xpc\", \"extension\" or \"undefined\" in an app's coalition")
    }
  }

  /// One pass over the script and the trace checks every action, and fingerprints the trace on the
  /// way; runs then read the trace afresh, a line at a time, and fail if it no longer has that
  /// digest.
  static func checkAndAttach(trace tracePath: String, to scenario: inout Scenario)
    throws(JetsimError)
  {
    var check = scenario
    check.trace = TraceReader.feed(path: tracePath, hashing: true)
    if let digest = try check.readWorkload().traceDigest {
      scenario.inputs.append(RunInput(role: "trace", path: tracePath, sha256: digest))
      scenario.trace = TraceReader.feed(path: tracePath, sha256: digest)
    }
  }

  /// The device profile in the JSON file at `path`.
  public static func device(at path: String) throws(JetsimError) -> DeviceProfile {
    try decode(InputFile.bytes(at: path), path: path) { node throws(FieldError) in
      try DeviceProfile(json: node)
    }
  }

  /// The app profile in the JSON file at `path`.
  public static func app(at path: String) throws(JetsimError) -> AppProfile {
    try decode(InputFile.bytes(at: path), path: path) { node throws(FieldError) in
      try AppProfile(json: node)
    }
  }

  /// The actions of the trace CSV file at `path`, in memory (a scenario's trace is streamed).
  public static func trace(at path: String) throws(JetsimError) -> [TimedAction] {
    try TraceReader.actions(at: path)
  }

  /// The JSON document in `bytes` (read from `path`), read by `read`; syntax errors say the line and
  /// column, and field errors the key path.
  package static func decode<T>(
    _ bytes: [UInt8], path: String, _ read: (JSONNode) throws(FieldError) -> T
  ) throws(JetsimError) -> T {
    let root = try json(bytes, path: path)
    do {
      return try read(root)
    } catch {
      throw error.located(in: path)
    }
  }

  /// The JSON document in `bytes`, read from `path`.
  package static func json(_ bytes: [UInt8], path: String) throws(JetsimError) -> JSONNode {
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw .malformedJSON(path: path, detail: "\(error)")
    }
  }

  // MARK: - Paths

  package static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `reference` relative to `folder`, with `.` and `..` folded lexically.
  package static func resolve(_ reference: String, from folder: String) -> String {
    reference.hasPrefix("/") ? reference : FileSystem.folded(folder + "/" + reference)
  }
}
