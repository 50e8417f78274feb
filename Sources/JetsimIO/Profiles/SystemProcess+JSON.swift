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
    let kind: SystemProcessKind = try fields.required(fields.oneOf("kind"), "kind")
    self.init(
      name: try fields.required(fields.name("name"), "name"), kind: kind,
      footprintKB: try fields.required(fields.size("footprint"), "footprint"),
      band: try fields.integer("band", in: 0...1000),
      softLimitKB: try fields.size("softLimit"), hardLimitKB: try fields.size("hardLimit"),
      relaunchDelayMs: try fields.duration("relaunch"),
      relaunchLikelihood: try fields.oneOf("relaunchLikelihood"),
      agingTimeMs: try fields.duration("agingTime"),
      dirtyTracking: try fields.oneOf("dirtyTracking"),
      isManaged: try fields.bool("managed"), coalition: try fields.name("coalition"),
      coalitionRole: try fields.oneOf("role"))
    // A member's role is in another's coalition: in its own it leads.
    if coalition == nil, coalitionRole != .leader {
      throw fields.invalid(
        "role", "\"\(coalitionRole.rawValue)\" without a coalition",
        "\"leader\", or a `coalition` naming the process or app whose coalition it belongs to")
    }
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
}
