import JetsimCore

extension AppProfile {
  /// The keys an app profile may have (docs/profiles.md).
  static let keys =
    [
      "version", "id", "name", "category", "resident", "caches", "backingStores", "launchPeak",
      "growthPerMinute", "maxGrowth", "memoryLimit", "memoryWarningFrees", "backgroundModes",
      "backgroundWork", "backgroundTask", "exitsOnSuspend", "coldLaunch", "warmResume",
      "launchSteps",
    ] + LimitKeys.names

  /// The app profile in `node`, found at `keyPath`. A profile in a file of its own must give
  /// `version`; one inline in a scenario may leave it out.
  package init(json node: JSONNode, at keyPath: String = "", inline: Bool = false)
    throws(FieldError)
  {
    let fields = try ProfileFields(node, at: keyPath, allowed: Self.keys)
    if fields.has("version") || !inline { try fields.checkVersion() }
    let id = try fields.required(fields.name("id"), "id")
    let modeNames =
      try fields.strings("backgroundModes", expected: "a list of mode names") ?? []
    var modes: [BackgroundMode] = []
    for (index, name) in modeNames.enumerated() {
      guard let mode = BackgroundMode(rawValue: name) else {
        throw fields.notACase(BackgroundMode.self, name, at: "backgroundModes[\(index)]")
      }
      if !modes.contains(mode) { modes.append(mode) }
    }
    self.init(
      id: id,
      name: try fields.name("name"),
      category: try fields.name("category") ?? "app",
      residentKB: try fields.required(fields.size("resident"), "resident"),
      cachesKB: try fields.size("caches") ?? 0,
      backingStoresKB: try fields.size("backingStores") ?? 0,
      launchPeakKB: try fields.size("launchPeak") ?? 0,
      growthPerMinuteKB: try fields.size("growthPerMinute") ?? 0,
      maxGrowthKB: try fields.size("maxGrowth"),
      memoryLimitKB: try fields.size("memoryLimit"),
      memoryWarningFreesPercent: try fields.percent("memoryWarningFrees") ?? 0,
      backgroundModes: modes,
      backgroundWorkMs: try fields.duration("backgroundWork") ?? Defaults.backgroundWorkMs,
      backgroundTaskMs: try fields.duration("backgroundTask") ?? 0,
      exitsOnSuspend: try fields.bool("exitsOnSuspend") ?? false,
      coldLaunchMs: try fields.duration("coldLaunch") ?? Defaults.coldLaunchMs,
      warmResumeMs: try fields.duration("warmResume") ?? Defaults.warmResumeMs)
    launchSteps = try fields.integer("launchSteps", in: 1...100) ?? 1
    if let limit = memoryLimitKB, limit <= 0 {
      throw fields.invalid("memoryLimit", Units.formatSize(limit), "more than 0KB")
    }
    let limits = try LimitKeys(fields)
    (activeLimitKB, activeLimitFatal) = (limits.activeKB, limits.activeFatal)
    (inactiveLimitKB, inactiveLimitFatal) = (limits.inactiveKB, limits.inactiveFatal)
  }
}
