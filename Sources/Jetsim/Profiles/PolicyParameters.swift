/// Settings of the built-in policies, as a device or scenario profile gives them under
/// `policyParameters`, keyed by policy name (docs/profiles.md). A policy left out uses the real
/// system's values; a scenario's setting for a policy replaces the device's whole.
public struct PolicyParameters: Sendable, Equatable {
  /// `jetsam`'s settings, if given.
  public var jetsam: JetsamPolicy.Parameters?
  /// `lmkd`'s settings, if given.
  public var lmkd: LmkdPolicy.Parameters?

  public init(jetsam: JetsamPolicy.Parameters? = nil, lmkd: LmkdPolicy.Parameters? = nil) {
    self.jetsam = jetsam
    self.lmkd = lmkd
  }

  /// These settings where given, otherwise `fallback`'s.
  public func overriding(_ fallback: PolicyParameters) -> PolicyParameters {
    PolicyParameters(jetsam: jetsam ?? fallback.jetsam, lmkd: lmkd ?? fallback.lmkd)
  }
}

extension PolicyParameters: Decodable {
  /// A policy with nothing to set: only `{}` is accepted.
  private struct NoParameters: Decodable {
    init(from decoder: any Decoder) throws { _ = try ProfileFields(decoder, allowed: []) }
  }

  public init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(decoder, allowed: PolicyRegistry.names)
    jetsam = try fields.decode(
      JetsamPolicy.Parameters.self, "jetsam", expected: "an object of jetsam settings")
    lmkd = try fields.decode(
      LmkdPolicy.Parameters.self, "lmkd", expected: "an object of lmkd settings")
    for name in PolicyRegistry.names where name != "jetsam" && name != "lmkd" {
      _ = try fields.decode(NoParameters.self, name, expected: "{} (\(name) has no settings)")
    }
  }
}

extension JetsamPolicy.Parameters: Decodable {
  static let keys = ["agingTime", "idleThreshold", "softLimit", "purgeBeforeKill", "bands"]

  public init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(decoder, allowed: Self.keys)
    self.init()
    agingTimeMs = try fields.duration("agingTime") ?? agingTimeMs
    idleThresholdPercent = try fields.percent("idleThreshold")
    softLimitPercent = try fields.percent("softLimit") ?? softLimitPercent
    purgeBeforeKill = try fields.bool("purgeBeforeKill") ?? purgeBeforeKill
    bands =
      try fields.decode(JetsamPolicy.Bands.self, "bands", expected: "an object of band priorities")
      ?? bands
  }
}

extension JetsamPolicy.Bands: Decodable {
  static let keys = [
    "idle", "aging", "background", "elevatedInactive", "foreground", "audioAndAccessory",
  ]

  public init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(decoder, allowed: Self.keys)
    self.init()
    idle = try fields.integer("idle", in: 0...1000) ?? idle
    aging = try fields.integer("aging", in: 0...1000) ?? aging
    background = try fields.integer("background", in: 0...1000) ?? background
    elevatedInactive = try fields.integer("elevatedInactive", in: 0...1000) ?? elevatedInactive
    foreground = try fields.integer("foreground", in: 0...1000) ?? foreground
    audioAndAccessory = try fields.integer("audioAndAccessory", in: 0...1000) ?? audioAndAccessory
  }
}

extension LmkdPolicy.Parameters: Decodable {
  static let keys = ["killHeaviest", "minfree", "is64Bit"]

  public init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(decoder, allowed: Self.keys)
    self.init()
    killHeaviest = try fields.bool("killHeaviest") ?? killHeaviest
    is64Bit = try fields.bool("is64Bit") ?? is64Bit
    let form = "six sizes in ascending order, one per adj level \(LmkdPolicy.adjLevels)"
    if let texts = try fields.decode([String].self, "minfree", expected: form) {
      let sizes = texts.compactMap(Units.kilobytes)
      guard texts.count == LmkdPolicy.adjLevels.count, sizes.count == texts.count,
        sizes == sizes.sorted()
      else {
        throw fields.invalid("minfree", "\(texts)", form)
      }
      minfreeKB = sizes
    }
  }
}
