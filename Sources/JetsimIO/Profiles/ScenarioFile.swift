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
    let deviceNode = try fields.required(fields.node("device"), "device")
    if let path = deviceNode.string {
      device = .path(path, keyPath: "device")
    } else {
      device = .inline(try DeviceProfile(json: deviceNode, at: "device", inline: true))
    }
    apps = []
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
    let policyName = try fields.string("policy") ?? PolicyName.default.rawValue
    do {
      policy = try PolicyName(policyName)
    } catch {
      let hint =
        Suggestion.closest(to: policyName, in: PolicyRegistry.names).map {
          " (did you mean '\($0)'?)"
        } ?? ""
      throw fields.invalid(
        "policy", "\"\(policyName.excerpt())\"\(hint)",
        "one of \(PolicyRegistry.names.joined(separator: ", "))")
    }
    policySettings = try PolicySettings(json: fields, key: "policyParameters") ?? PolicySettings()
    if let node = fields.node("seed") {
      guard let value = node.unsigned else {
        throw fields.invalid("seed", node.summary, "a whole number from 0 to \(UInt64.max)")
      }
      seed = value
    } else {
      seed = Defaults.seed
    }
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
    if let entries = try fields.list(
      "snapshot", expected: "a list of processes with their states", maxCount: Units.maxProcesses)
    {
      var snapshot = Snapshot([])
      for (keyPath, node) in entries {
        snapshot.entries.append(try Self.snapshotEntry(node, at: keyPath))
      }
      self.snapshot = snapshot
    }
    if script.isEmpty, trace == nil, userModel == nil, snapshot == nil {
      throw fields.invalid(
        "script", "missing or empty", "a script, a trace, a user model or a snapshot")
    }
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
  /// argument is named by its meaning: `for` (a duration), `size` or `mode`.
  static func scriptEntry(_ node: JSONNode, at keyPath: String) throws(FieldError) -> TimedAction {
    let fields = try ProfileFields(
      node, at: keyPath, allowed: ["at", "action", "app", "for", "size", "mode"])
    let time = try fields.required(fields.duration("at"), "at")
    let name = try fields.required(fields.string("action"), "action")
    let argumentKey = ["for", "size", "mode"].first(where: fields.has) ?? "for"
    let value = try fields.string(argumentKey) ?? ""
    let app = try fields.string("app") ?? ""
    do {
      return TimedAction(time, try ActionParser.action(name: name, app: app, value: value))
    } catch {
      let key = error.field == "value" ? argumentKey : error.field
      throw FieldError(keyPath: fields.path(key), kind: .entry(message: error.message))
    }
  }
}
