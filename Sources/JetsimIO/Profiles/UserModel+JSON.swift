import JetsimCore

/// The JSON form of a scenario's `userModel` (docs/user-model.md), before its app ids are checked
/// against the scenario's apps.
package struct UserModelFile {
  static let keys = [
    "apps", "popularity", "dwell", "gap", "switches", "interruptions", "wakes", "audio",
    "growthPerMinute",
  ]
  /// The keys only a user model has (not a scenario or a profile): a file at whose top level one
  /// of them is, and no key only a scenario has, is a user model of its own.
  package static let ownKeys: Set<String> = [
    "popularity", "dwell", "gap", "switches", "interruptions", "wakes", "audio",
  ]

  var apps: [String]?
  var zipf: Double?
  var weights: [(id: String, weight: Double)]?
  var dwell: UserModel.Duration?
  var gap: UserModel.Duration?
  var homeShare: Double?
  var lockShare: Double?
  var interruptionShare: Double?
  var interruption: UserModel.Duration?
  var wakes: [UserModel.Wakes] = []
  var audio: [UserModel.AudioSessions] = []
  var growthPerMinuteKB = 0

  init(json node: JSONNode, at keyPath: String) throws(FieldError) {
    let fields = try ProfileFields(node, at: keyPath, allowed: Self.keys)
    apps = try fields.strings("apps", expected: "a list of app ids")
    if let popularity = try fields.object("popularity", allowed: ["zipf", "weights"]) {
      zipf = try popularity.number("zipf", in: 0...10)
      weights = try Self.weights(popularity)
      guard (zipf == nil) != (weights == nil) else {
        throw popularity.invalid(
          "zipf", "both or neither of zipf and weights", "exactly one of them")
      }
    }
    dwell = try Self.duration(fields, "dwell")
    gap = try Self.duration(fields, "gap")
    if let switches = try fields.object("switches", allowed: ["home", "lock", "direct"]) {
      (homeShare, lockShare) = try Self.switchShares(switches)
    }
    if let interruptions = try fields.object("interruptions", allowed: ["share", "duration"]) {
      interruptionShare = try interruptions.required(
        interruptions.number("share", in: 0...1), "share")
      interruption = try interruptions.required(
        Self.duration(interruptions, "duration"), "duration")
    }
    wakes = try Self.processes(fields, "wakes", maxPerHour: 3600) {
      app, perHour, entry throws(FieldError) in
      UserModel.Wakes(
        app: app, perHour: perHour,
        duration: try entry.required(entry.duration("duration"), "duration"))
    }
    audio = try Self.processes(fields, "audio", maxPerHour: 60) {
      app, perHour, entry throws(FieldError) in
      UserModel.AudioSessions(
        app: app, perHour: perHour,
        duration: try entry.required(Self.duration(entry, "duration"), "duration"))
    }
    growthPerMinuteKB = try fields.size("growthPerMinute") ?? 0
  }

  /// `popularity.weights`: an object of app id: weight, not all 0.
  static func weights(_ popularity: ProfileFields) throws(FieldError) -> [(
    id: String, weight: Double
  )]? {
    guard let node = popularity.node("weights") else { return nil }
    guard let members = node.members else {
      throw popularity.invalid("weights", node.summary, "an object of app id: weight")
    }
    var weights: [(id: String, weight: Double)] = []
    for member in members {
      guard let weight = member.node.double, weight >= 0, weight <= 1e12 else {
        throw FieldError(
          keyPath: popularity.path("weights.\(member.key.excerpt(limit: 40))"),
          kind: .invalid(value: member.node.summary, expected: "a weight from 0 to 1e12"))
      }
      weights.append((member.key, weight))
    }
    guard weights.contains(where: { $0.weight > 0 }) else {
      throw popularity.invalid("weights", "all 0", "weights of at least 0, not all 0")
    }
    return weights
  }

  /// `switches`: the shares of home and lock (direct is the rest); the three add up to 1.
  static func switchShares(_ switches: ProfileFields) throws(FieldError) -> (Double, Double) {
    let home = try switches.number("home", in: 0...1) ?? 0
    let lock = try switches.number("lock", in: 0...1) ?? 0
    let direct = try switches.number("direct", in: 0...1) ?? 0
    guard abs(home + lock + direct - 1) < 1e-9 else {
      throw switches.invalid(
        "home", "home \(home) + lock \(lock) + direct \(direct)", "shares that add up to 1")
    }
    return (home, lock)
  }

  /// A list of Poisson processes (`wakes`, `audio`): `{"app", "perHour", "duration"}` each, made
  /// by `make` from the app, the rate and the entry (for its duration).
  static func processes<Process>(
    _ fields: ProfileFields, _ key: String, maxPerHour: Double,
    _ make: (String, Double, ProfileFields) throws(FieldError) -> Process
  ) throws(FieldError) -> [Process] {
    var processes: [Process] = []
    for (keyPath, node) in try fields.list(
      key, expected: "a list of {\"app\", \"perHour\", \"duration\"}") ?? []
    {
      let entry = try ProfileFields(node, at: keyPath, allowed: ["app", "perHour", "duration"])
      processes.append(
        try make(
          try entry.required(entry.string("app"), "app"),
          try entry.required(entry.number("perHour", in: 0...maxPerHour), "perHour"), entry))
    }
    return processes
  }

  /// `"2m"` (always 2 minutes), `{"exponential": "2m"}` (mean 2 minutes) or
  /// `{"lognormal": {"median": "90s", "sigma": 0.8}}`.
  static func duration(_ fields: ProfileFields, _ key: String) throws(FieldError)
    -> UserModel.Duration?
  {
    guard let node = fields.node(key) else { return nil }
    return try duration(node, at: fields.path(key))
  }

  package static func duration(_ node: JSONNode, at keyPath: String) throws(FieldError)
    -> UserModel.Duration
  {
    if let text = node.string {
      guard let value = Units.milliseconds(text), value > 0 else {
        throw FieldError(
          keyPath: keyPath, kind: .invalid(value: node.summary, expected: Units.durationForm))
      }
      return .fixed(value)
    }
    let fields = try ProfileFields(node, at: keyPath, allowed: ["exponential", "lognormal"])
    if let mean = try fields.duration("exponential") {
      guard mean > 0 else { throw fields.invalid("exponential", "0", "a positive mean") }
      return .exponential(meanMs: mean)
    }
    if let shape = try fields.object("lognormal", allowed: ["median", "sigma"]) {
      let median = try shape.required(shape.duration("median"), "median")
      let sigma = try shape.required(shape.number("sigma", in: 0...5), "sigma")
      guard median > 0 else { throw shape.invalid("median", "0", "a positive duration") }
      return .logNormal(medianMs: median, sigma: sigma)
    }
    throw fields.invalid(
      "exponential", "missing", "a duration, {\"exponential\": mean} or {\"lognormal\": {...}}")
  }

  /// The model for a scenario whose apps are `profiles`, its app ids checked against them.
  func model(apps profiles: [AppProfile], path: String) throws(JetsimError) -> UserModel {
    let appIDs = profiles.map(\.id)
    let ids = apps ?? appIDs
    guard !ids.isEmpty else {
      throw .invalidValue(
        path: path, keyPath: "userModel.apps", value: "empty", expected: "at least one app id")
    }
    var model = UserModel(apps: ids, wakes: wakes, audio: audio)
    try model.check(apps: profiles, path: path)
    if let zipf { model.popularity = .zipf(exponent: zipf) }
    if let weights {
      let known = Set(appIDs)
      for (id, _) in weights where !known.contains(id) {
        throw .unknownApp(
          path: path, location: "userModel.popularity.weights", id: id,
          suggestion: Suggestion.closest(to: id, in: appIDs))
      }
      var weightByID: [String: Double] = [:]
      for (id, weight) in weights where weightByID[id] == nil { weightByID[id] = weight }
      model.popularity = .weights(ids.map { weightByID[$0] ?? 0 })
    }
    if let dwell { model.dwell = dwell }
    if let gap { model.gap = gap }
    if let homeShare { model.homeShare = homeShare }
    if let lockShare { model.lockShare = lockShare }
    if let interruptionShare { model.interruptionShare = interruptionShare }
    if let interruption { model.interruption = interruption }
    model.growthPerMinuteKB = growthPerMinuteKB
    return model
  }
}
