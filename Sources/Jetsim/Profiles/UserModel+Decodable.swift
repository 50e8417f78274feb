/// The JSON form of a scenario's `userModel` (docs/user-model.md).
struct UserModelFile: Decodable {
  static let keys = [
    "apps", "popularity", "dwell", "gap", "switches", "interruptions", "wakes", "audio",
    "growthPerMinute",
  ]

  var apps: [String]?
  var popularity: PopularityFile?
  var dwell: UserModel.Duration?
  var gap: UserModel.Duration?
  var homeShare: Double?
  var lockShare: Double?
  var interruptionShare: Double?
  var interruption: UserModel.Duration?
  var wakes: [UserModel.Wakes]
  var audio: [UserModel.AudioSessions]
  var growthPerMinuteKB: Int

  /// `{"zipf": 1.1}` or `{"weights": {"com.example.maps": 3, ...}}`.
  struct PopularityFile: Decodable {
    var zipf: Double?
    var weights: [String: Double]?

    init(from decoder: any Decoder) throws {
      let fields = try ProfileFields(decoder, allowed: ["zipf", "weights"])
      zipf = try fields.number("zipf", in: 0...10)
      weights = try fields.decode(
        [String: Double].self, "weights", expected: "an object of app id: weight")
      guard (zipf == nil) != (weights == nil) else {
        throw fields.invalid("zipf", "both or neither of zipf and weights", "exactly one of them")
      }
      if let weights,
        weights.values.contains(where: { $0 < 0 || !$0.isFinite })
          || weights.values.reduce(0, +) <= 0
      {
        throw fields.invalid("weights", "\(weights)", "weights of at least 0, not all 0")
      }
    }
  }

  init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(decoder, allowed: Self.keys)
    apps = try fields.decode([String].self, "apps", expected: "a list of app ids")
    popularity = try fields.decode(
      PopularityFile.self, "popularity", expected: "{\"zipf\": 1} or {\"weights\": {...}}")
    dwell = try fields.decode(
      UserModel.Duration.self, "dwell", expected: "a duration or a distribution")
    gap = try fields.decode(
      UserModel.Duration.self, "gap", expected: "a duration or a distribution")
    if let switches = try fields.decode(
      Switches.self, "switches", expected: "{\"home\": 0.5, \"lock\": 0.25, \"direct\": 0.25}")
    {
      homeShare = switches.home
      lockShare = switches.lock
    }
    if let interruptions = try fields.decode(
      Interruptions.self, "interruptions", expected: "{\"share\": 0.05, \"duration\": \"1m\"}")
    {
      interruptionShare = interruptions.share
      interruption = interruptions.duration
    }
    wakes =
      try fields.decode(
        [UserModel.Wakes].self, "wakes", expected: "a list of {\"app\", \"perHour\", \"duration\"}")
      ?? []
    audio =
      try fields.decode(
        [UserModel.AudioSessions].self, "audio",
        expected: "a list of {\"app\", \"perHour\", \"duration\"}") ?? []
    growthPerMinuteKB = try fields.size("growthPerMinute") ?? 0
  }

  struct Switches: Decodable {
    var home: Double
    var lock: Double

    init(from decoder: any Decoder) throws {
      let fields = try ProfileFields(decoder, allowed: ["home", "lock", "direct"])
      home = try fields.number("home", in: 0...1) ?? 0
      lock = try fields.number("lock", in: 0...1) ?? 0
      let direct = try fields.number("direct", in: 0...1) ?? 0
      guard abs(home + lock + direct - 1) < 1e-9 else {
        throw fields.invalid(
          "home", "home \(home) + lock \(lock) + direct \(direct)", "shares that add up to 1")
      }
    }
  }

  struct Interruptions: Decodable {
    var share: Double
    var duration: UserModel.Duration

    init(from decoder: any Decoder) throws {
      let fields = try ProfileFields(decoder, allowed: ["share", "duration"])
      share = try fields.required(fields.number("share", in: 0...1), "share")
      duration = try fields.required(
        fields.decode(
          UserModel.Duration.self, "duration", expected: "a duration or a distribution"), "duration"
      )
    }
  }

  /// The model for a scenario whose apps are `appIDs`, checked against them.
  func model(appIDs: [String], apps profiles: [AppProfile], path: String) throws(JetsimError)
    -> UserModel
  {
    let ids = apps ?? appIDs
    guard !ids.isEmpty else {
      throw .invalidValue(
        path: path, keyPath: "userModel.apps", value: "empty", expected: "at least one app id")
    }
    func check(_ id: String, _ location: String) throws(JetsimError) {
      guard appIDs.contains(id) else {
        throw .unknownApp(
          path: path, location: location, id: id, suggestion: Suggestion.closest(to: id, in: appIDs)
        )
      }
    }
    for (index, id) in ids.enumerated() { try check(id, "userModel.apps[\(index)]") }
    for (index, wake) in wakes.enumerated() { try check(wake.app, "userModel.wakes[\(index)]") }
    for (index, session) in audio.enumerated() {
      try check(session.app, "userModel.audio[\(index)]")
      if profiles.first(where: { $0.id == session.app })?.declares(.audio) != true {
        throw .invalidValue(
          path: path, keyPath: "userModel.audio[\(index)].app", value: "'\(session.app)'",
          expected: "an app that declares the audio background mode")
      }
    }
    var popularity = UserModel.Popularity.zipf(exponent: 1)
    if let file = self.popularity {
      if let exponent = file.zipf { popularity = .zipf(exponent: exponent) }
      if let weights = file.weights {
        for id in weights.keys.sorted() { try check(id, "userModel.popularity.weights") }
        popularity = .weights(ids.map { weights[$0] ?? 0 })
      }
    }
    var model = UserModel(apps: ids, popularity: popularity)
    if let dwell { model.dwell = dwell }
    if let gap { model.gap = gap }
    if let homeShare { model.homeShare = homeShare }
    if let lockShare { model.lockShare = lockShare }
    if let interruptionShare { model.interruptionShare = interruptionShare }
    if let interruption { model.interruption = interruption }
    model.wakes = wakes
    model.audio = audio
    model.growthPerMinuteKB = growthPerMinuteKB
    return model
  }
}

extension UserModel.Duration: Decodable {
  /// `"2m"` (always 2 minutes), `{"exponential": "2m"}` (mean 2 minutes) or
  /// `{"lognormal": {"median": "90s", "sigma": 0.8}}`.
  public init(from decoder: any Decoder) throws {
    if let text = try? decoder.singleValueContainer().decode(String.self) {
      guard let value = Units.milliseconds(text), value > 0 else {
        throw FieldError(
          keyPath: keyPathString(decoder.codingPath),
          kind: .invalid(value: "\"\(text)\"", expected: Units.durationForm))
      }
      self = .fixed(value)
      return
    }
    let fields = try ProfileFields(decoder, allowed: ["exponential", "lognormal"])
    if let mean = try fields.duration("exponential") {
      guard mean > 0 else { throw fields.invalid("exponential", "0", "a positive mean") }
      self = .exponential(meanMs: mean)
    } else if let shape = try fields.decode(
      LogNormal.self, "lognormal", expected: "{\"median\": \"90s\", \"sigma\": 0.8}")
    {
      self = .logNormal(medianMs: shape.median, sigma: shape.sigma)
    } else {
      throw fields.invalid(
        "exponential", "missing", "a duration, {\"exponential\": mean} or {\"lognormal\": {...}}")
    }
  }

  private struct LogNormal: Decodable {
    var median: Int
    var sigma: Double

    init(from decoder: any Decoder) throws {
      let fields = try ProfileFields(decoder, allowed: ["median", "sigma"])
      median = try fields.required(fields.duration("median"), "median")
      sigma = try fields.required(fields.number("sigma", in: 0...5), "sigma")
      guard median > 0 else { throw fields.invalid("median", "0", "a positive duration") }
    }
  }
}

extension UserModel.Wakes: Decodable {
  public init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(decoder, allowed: ["app", "perHour", "duration"])
    self.init(
      app: try fields.required(fields.string("app"), "app"),
      perHour: try fields.required(fields.number("perHour", in: 0...3600), "perHour"),
      durationMs: try fields.required(fields.duration("duration"), "duration"))
  }
}

extension UserModel.AudioSessions: Decodable {
  public init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(decoder, allowed: ["app", "perHour", "duration"])
    self.init(
      app: try fields.required(fields.string("app"), "app"),
      perHour: try fields.required(fields.number("perHour", in: 0...60), "perHour"),
      duration: try fields.required(
        fields.decode(
          UserModel.Duration.self, "duration", expected: "a duration or a distribution"), "duration"
      ))
  }
}
