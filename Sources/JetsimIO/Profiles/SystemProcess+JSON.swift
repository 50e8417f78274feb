import JetsimCore

extension SystemProcess {
  /// The keys a system process may have (docs/profiles.md).
  static let keys =
    [
      "name", "kind", "footprint", "band", "softLimit", "hardLimit", "relaunch",
      "relaunchLikelihood", "agingTime", "dirtyTracking", "managed", "coalition", "role",
    ] + LimitKeys.names

  /// The system process in `node`, found at `keyPath`.
  package init(json node: JSONNode, at keyPath: String) throws(FieldError) {
    let fields = try ProfileFields(node, at: keyPath, allowed: Self.keys)
    let kindName = try fields.required(fields.string("kind"), "kind")
    guard let kind = SystemProcessKind(rawValue: kindName) else {
      let valid = SystemProcessKind.allCases.map(\.rawValue)
      let hint =
        Suggestion.closest(to: kindName, in: valid).map { " (did you mean '\($0)'?)" } ?? ""
      throw fields.invalid(
        "kind", "\"\(kindName.excerpt(limit: 40))\"\(hint)",
        "one of \(valid.joined(separator: ", "))")
    }
    self.init(
      name: try fields.required(fields.name("name"), "name"), kind: kind,
      footprintKB: try fields.required(fields.size("footprint"), "footprint"),
      band: try fields.integer("band", in: 0...1000),
      softLimitKB: try fields.size("softLimit"), hardLimitKB: try fields.size("hardLimit"),
      relaunchDelayMs: try fields.duration("relaunch"),
      relaunchLikelihood: try Self.likelihood(fields),
      agingTimeMs: try fields.duration("agingTime"), dirtyTracking: try Self.tracking(fields),
      isManaged: try fields.bool("managed"), coalition: try fields.name("coalition"),
      coalitionRole: try Self.role(fields))
    if let hard = hardLimitKB, footprintKB > hard {
      throw fields.invalid(
        "hardLimit", Units.formatSize(hard),
        "at least the footprint (\(Units.formatSize(footprintKB)))")
    }
    let limits = try LimitKeys(fields)
    (activeLimitKB, activeLimitFatal) = (limits.activeKB, limits.activeFatal)
    (inactiveLimitKB, inactiveLimitFatal) = (limits.inactiveKB, limits.inactiveFatal)
    // A fatal active limit under its footprint would kill it at every start.
    if let active = memoryLimits?.active, active.isFatal, footprintKB > active.kilobytes {
      throw fields.invalid(
        activeLimitKB == nil ? "hardLimit" : "activeLimit", Units.formatSize(active.kilobytes),
        "at least the footprint (\(Units.formatSize(footprintKB))) while it is fatal")
    }
  }

  /// `dirtyTracking`: none, idle-exit or no-idle-exit (nil if left out: its kind's).
  static func tracking(_ fields: ProfileFields) throws(FieldError) -> DirtyTracking? {
    guard let name = try fields.string("dirtyTracking") else { return nil }
    guard let tracking = DirtyTracking(rawValue: name) else {
      let valid = DirtyTracking.allCases.map(\.rawValue).joined(separator: ", ")
      throw fields.invalid("dirtyTracking", "\"\(name.excerpt(limit: 40))\"", "one of \(valid)")
    }
    return tracking
  }

  /// `role`: its role in its coalition (nil if left out: as `SystemProcess.init` derives it).
  static func role(_ fields: ProfileFields) throws(FieldError) -> CoalitionRole? {
    guard let name = try fields.string("role") else { return nil }
    guard let role = CoalitionRole(rawValue: name) else {
      let valid = CoalitionRole.allCases.map(\.rawValue).joined(separator: ", ")
      throw fields.invalid("role", "\"\(name.excerpt(limit: 40))\"", "one of \(valid)")
    }
    return role
  }

  /// `relaunchLikelihood`: high, medium or low (nil if left out: launchd's, from `relaunch`).
  static func likelihood(_ fields: ProfileFields) throws(FieldError) -> RelaunchLikelihood? {
    guard let name = try fields.string("relaunchLikelihood") else { return nil }
    guard let likelihood = RelaunchLikelihood(rawValue: name) else {
      throw fields.invalid(
        "relaunchLikelihood", "\"\(name.excerpt(limit: 40))\"", "high, medium or low")
    }
    return likelihood
  }
}
