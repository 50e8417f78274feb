import JetsimCore

/// The four keys of a process's separate active and inactive limits (docs/profiles.md), read the
/// same way in an app profile and a system process.
struct LimitKeys {
  /// The keys, in the order docs/profiles.md lists them.
  static let names = ["activeLimit", "activeLimitFatal", "inactiveLimit", "inactiveLimitFatal"]

  var activeKB: Int?
  var activeFatal: Bool?
  var inactiveKB: Int?
  var inactiveFatal: Bool?

  /// The keys in `fields`: each limit more than 0KB, and each fatal flag a boolean given only with
  /// its limit.
  init(_ fields: ProfileFields) throws(FieldError) {
    activeKB = try Self.limit(fields, "activeLimit")
    inactiveKB = try Self.limit(fields, "inactiveLimit")
    activeFatal = try Self.flag(fields, "activeLimitFatal", limit: activeKB, of: "activeLimit")
    inactiveFatal = try Self.flag(
      fields, "inactiveLimitFatal", limit: inactiveKB, of: "inactiveLimit")
  }

  private static func limit(_ fields: ProfileFields, _ key: String) throws(FieldError) -> Int? {
    guard let limit = try fields.size(key) else { return nil }
    if limit <= 0 { throw fields.invalid(key, Units.formatSize(limit), "more than 0KB") }
    return limit
  }

  private static func flag(
    _ fields: ProfileFields, _ key: String, limit: Int?, of limitKey: String
  ) throws(FieldError) -> Bool? {
    guard let flag = try fields.bool(key) else { return nil }
    if limit == nil {
      throw fields.invalid(key, "\(flag)", "given only with `\(limitKey)`")
    }
    return flag
  }

  /// The fields ProfileWriter writes for these limits: only those given.
  static func fields(
    activeKB: Int?, activeFatal: Bool?, inactiveKB: Int?, inactiveFatal: Bool?
  ) -> [(String, String)] {
    var fields: [(String, String)] = []
    if let activeKB { fields.append(("activeLimit", ProfileWriter.size(activeKB))) }
    if let activeFatal { fields.append(("activeLimitFatal", activeFatal ? "true" : "false")) }
    if let inactiveKB { fields.append(("inactiveLimit", ProfileWriter.size(inactiveKB))) }
    if let inactiveFatal {
      fields.append(("inactiveLimitFatal", inactiveFatal ? "true" : "false"))
    }
    return fields
  }
}
