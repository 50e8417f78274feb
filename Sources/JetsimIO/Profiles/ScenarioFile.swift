import JetsimCore

/// The JSON form of a scenario (docs/profiles.md): references to profile files, or inline profiles,
/// plus a script and/or a trace and/or a user model. `ProfileLoader` turns it into a `Scenario`.
struct ScenarioFile {
  /// A profile given by path (relative to the scenario file) or written inline.
  enum Reference<Profile> {
    case path(String, keyPath: String)
    case inline(Profile)
  }

  static let keys = [
    "version", "name", "description", "device", "apps", "policy", "policyParameters", "seed",
    "duration", "script", "trace", "userModel", "snapshot",
  ]

  var name: String
  var summary: String
  var device: Reference<DeviceProfile>
  var apps: [Reference<AppProfile>]
  var policy: PolicyName
  var policySettings: PolicySettings
  var seed: UInt64
  var durationMs: Int?
  var script: [TimedAction]
  var trace: String?
  var userModel: UserModelFile?
  var snapshot: Snapshot?

  init(json node: JSONNode) throws(FieldError) {
    let fields = try ProfileFields(node, allowed: Self.keys)
    try fields.checkVersion()
    name = try fields.required(fields.name("name"), "name")
    guard !name.contains("/"), !name.hasPrefix(".") else {
      throw fields.invalid(
        "name", "\"\(name.excerpt())\"",
        "a name usable as a folder name (no '/', not starting with '.')")
    }
    summary = try fields.string("description") ?? ""
    device = try Self.device(fields)
    apps = try Self.apps(fields)
    policy = try Self.policy(fields)
    policySettings = try PolicySettings(json: fields, key: "policyParameters") ?? PolicySettings()
    seed = try Self.seed(fields)
    durationMs = try fields.duration("duration")
    script = []
    for (keyPath, node) in try fields.list("script", expected: "a list of actions") ?? [] {
      script.append(try Self.scriptEntry(node, at: keyPath))
    }
    trace = try fields.string("trace")
    userModel = try fields.node("userModel").map { node throws(FieldError) in
      try UserModelFile(json: node, at: "userModel")
    }
    if userModel != nil, durationMs == nil {
      throw fields.invalid("duration", "missing", "a duration: how long the user model runs")
    }
    snapshot = try Self.snapshot(fields)
    if script.isEmpty, trace == nil, userModel == nil, snapshot == nil {
      throw fields.invalid(
        "script", "missing or empty", "a script, a trace, a user model or a snapshot")
    }
  }

  /// `device`: a path, or a profile inline.
  static func device(_ fields: ProfileFields) throws(FieldError) -> Reference<DeviceProfile> {
    let node = try fields.required(fields.node("device"), "device")
    if let path = node.string { return .path(path, keyPath: "device") }
    return .inline(try DeviceProfile(json: node, at: "device", inline: true))
  }

  /// `apps`: paths, or profiles inline.
  static func apps(_ fields: ProfileFields) throws(FieldError) -> [Reference<AppProfile>] {
    var apps: [Reference<AppProfile>] = []
    for (keyPath, node) in try fields.required(
      fields.list(
        "apps", expected: "a list of paths or app profiles", maxCount: Units.maxProcesses), "apps")
    {
      if let path = node.string {
        apps.append(.path(path, keyPath: keyPath))
      } else {
        apps.append(.inline(try AppProfile(json: node, at: keyPath, inline: true)))
      }
    }
    return apps
  }

  /// `policy`: a built-in policy's name (the default if left out); a near miss is suggested.
  static func policy(_ fields: ProfileFields) throws(FieldError) -> PolicyName {
    guard let name = try fields.string("policy") else { return .default }
    do {
      return try PolicyName(name)
    } catch {
      let hint =
        Suggestion.closest(to: name, in: PolicyRegistry.names).map { " (did you mean '\($0)'?)" }
        ?? ""
      throw fields.invalid(
        "policy", "\"\(name.excerpt())\"\(hint)",
        "one of \(PolicyRegistry.names.joined(separator: ", "))")
    }
  }

  /// `seed`: a whole number from 0 to `UInt64.max` (the default if left out).
  static func seed(_ fields: ProfileFields) throws(FieldError) -> UInt64 {
    guard let node = fields.node("seed") else { return Defaults.seed }
    guard let value = node.unsigned else {
      throw fields.invalid("seed", node.summary, "a whole number from 0 to \(UInt64.max)")
    }
    return value
  }

  /// `snapshot`: each process's state, footprint and band at time 0.
  static func snapshot(_ fields: ProfileFields) throws(FieldError) -> Snapshot? {
    guard
      let entries = try fields.list(
        "snapshot", expected: "a list of processes with their states", maxCount: Units.maxProcesses)
    else { return nil }
    var snapshot = Snapshot([])
    for (keyPath, node) in entries {
      snapshot.entries.append(try Self.snapshotEntry(node, at: keyPath))
    }
    return snapshot
  }

  /// One process of a snapshot: `{"process": "com.example.maps", "state": "suspended", "footprint":
  /// "180MB", "band": 0}`.
  static func snapshotEntry(_ node: JSONNode, at keyPath: String) throws(FieldError)
    -> Snapshot.Entry
  {
    let fields = try ProfileFields(
      node, at: keyPath, allowed: ["process", "state", "footprint", "band"])
    let name = try fields.required(fields.string("state"), "state")
    let states: [AppState] = [.active, .inactive, .background, .suspended]
    guard let state = states.first(where: { $0.description == name }) else {
      throw fields.invalid(
        "state", "\"\(name.excerpt(limit: 40))\"",
        "one of active, inactive, background, suspended")
    }
    return Snapshot.Entry(
      process: try fields.required(fields.name("process"), "process"), state: state,
      footprintKB: try fields.size("footprint"), band: try fields.integer("band", in: 0...1000))
  }

  /// One scripted action: `{"at": "60s", "action": "open", "app": "com.example.maps"}`. The action's
  /// argument is named by its meaning: `for` (a duration), `size`, `mode` or `band` (a number).
  static func scriptEntry(_ node: JSONNode, at keyPath: String) throws(FieldError) -> TimedAction {
    let fields = try ProfileFields(
      node, at: keyPath, allowed: ["at", "action", "app", "for", "size", "mode", "band"])
    let time = try fields.required(fields.duration("at"), "at")
    let name = try fields.required(fields.string("action"), "action")
    let argumentKey =
      ["for", "size", "mode", "band"].first(where: fields.has)
      ?? (ActionKind(name: name)?.argument == .band ? "band" : "for")
    let value =
      argumentKey == "band"
      ? try fields.integer("band", in: 0...JetsamPriority.max).map(String.init) ?? ""
      : try fields.string(argumentKey) ?? ""
    let app = try fields.string("app") ?? ""
    do {
      return TimedAction(time, try ActionParser.action(name: name, app: app, value: value))
    } catch {
      let key = error.field == "value" ? argumentKey : error.field
      throw FieldError(keyPath: fields.path(key), kind: .entry(message: error.message))
    }
  }
}
