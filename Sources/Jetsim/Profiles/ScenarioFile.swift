/// The JSON form of a scenario (docs/profiles.md): references to profile files, or inline profiles,
/// plus a script and/or a trace. `ProfileLoader` turns it into a `Scenario`.
struct ScenarioFile: Decodable {
  /// A profile given by path (relative to the scenario file) or written inline.
  enum Reference<Profile: Decodable>: Decodable {
    case path(String)
    case inline(Profile)

    init(from decoder: any Decoder) throws {
      if let path = try? decoder.singleValueContainer().decode(String.self) {
        self = .path(path)
      } else {
        self = .inline(try Profile(from: decoder))
      }
    }
  }

  /// One scripted action: `{"at": "60s", "action": "open", "app": "com.example.maps"}`.
  struct ScriptEntry: Decodable {
    var timeMs: Int
    var action: Action

    static let keys = ["at", "action", "app", "for", "size", "mode"]

    init(from decoder: any Decoder) throws {
      let fields = try ProfileFields(decoder, allowed: Self.keys)
      timeMs = try fields.required(fields.duration("at"), "at")
      let name = try fields.required(fields.string("action"), "action")
      // A script names its argument by meaning: "for" (duration), "size", "mode".
      let value = try fields.string("for") ?? fields.string("size") ?? fields.string("mode") ?? ""
      let app = try fields.string("app") ?? ""
      do {
        action = try ActionParser.action(name: name, app: app, value: value)
      } catch {
        let key =
          error.field == "value"
          ? (fields.has("size") ? "size" : fields.has("mode") ? "mode" : "for") : error.field
        throw FieldError(keyPath: fields.keyPath(key), kind: .entry(message: error.message))
      }
    }
  }

  static let keys = [
    "version", "name", "description", "device", "apps", "policy", "policyParameters", "seed",
    "duration", "script",
    "trace", "userModel",
  ]

  var name: String
  var summary: String
  var device: Reference<DeviceProfile>
  var apps: [Reference<AppProfile>]
  var policy: String
  var policyParameters: PolicyParameters
  var seed: UInt64
  var durationMs: Int?
  var script: [ScriptEntry]
  var trace: String?
  var userModel: UserModelFile?

  init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(decoder, allowed: Self.keys)
    try fields.checkVersion()
    name = try fields.required(fields.string("name"), "name")
    guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
      !name.contains(where: \.isNewline)
    else {
      throw fields.invalid(
        "name", "\"\(name)\"", "a name usable as a folder name (no '/', not starting with '.')")
    }
    summary = try fields.string("description") ?? ""
    device = try fields.required(
      fields.decode(
        Reference<DeviceProfile>.self, "device", expected: "a path or a device profile"), "device")
    apps = try fields.required(
      fields.decode(
        [Reference<AppProfile>].self, "apps", expected: "a list of paths or app profiles"), "apps")
    policy = try fields.string("policy") ?? Defaults.policy
    policyParameters =
      try fields.decode(
        PolicyParameters.self, "policyParameters", expected: "an object keyed by policy name")
      ?? PolicyParameters()
    seed = UInt64(try fields.integer("seed", in: 0...Int.max) ?? Int(Defaults.seed))
    durationMs = try fields.duration("duration")
    script = try fields.decode([ScriptEntry].self, "script", expected: "a list of actions") ?? []
    trace = try fields.string("trace")
    userModel = try fields.decode(UserModelFile.self, "userModel", expected: "a user model object")
    if userModel != nil, durationMs == nil {
      throw FieldError(
        keyPath: fields.keyPath("duration"),
        kind: .invalid(value: "missing", expected: "a duration: how long the user model runs"))
    }
    if script.isEmpty, trace == nil, userModel == nil {
      throw FieldError(
        keyPath: fields.keyPath("script"),
        kind: .invalid(value: "missing or empty", expected: "a script, a trace or a user model"))
    }
  }
}
