import JetsimCore

extension DeviceProfile {
  /// The keys a device profile may have (docs/profiles.md).
  static let keys = [
    "version", "name", "memory", "reserved", "foregroundLimit", "warningThreshold",
    "criticalThreshold", "idleThreshold", "reaperThreshold", "reaper", "appSwap",
    "compressionRatio", "enterBackgroundTimeout", "backgroundTaskLimit", "source",
    "policyParameters", "systemProcesses",
  ]

  /// The device profile in `node`, found at `keyPath`. A profile in a file of its own must give
  /// `version`; one inline in a scenario may leave it out.
  package init(json node: JSONNode, at keyPath: String = "", inline: Bool = false)
    throws(FieldError)
  {
    let fields = try ProfileFields(node, at: keyPath, allowed: Self.keys)
    if fields.has("version") || !inline { try fields.checkVersion() }
    self.init(
      name: try fields.required(fields.name("name"), "name"),
      memoryKB: try fields.required(fields.size("memory"), "memory"),
      reservedKB: try fields.required(fields.size("reserved"), "reserved"),
      foregroundLimitKB: try fields.size("foregroundLimit"),
      warningThresholdKB: try fields.size("warningThreshold"),
      criticalThresholdKB: try fields.size("criticalThreshold"),
      idleThresholdKB: try fields.size("idleThreshold"),
      reaperThresholdKB: try fields.size("reaperThreshold"),
      compressionRatio: try fields.number("compressionRatio", in: 1...16) ?? 1,
      enterBackgroundTimeoutMs: try fields.duration("enterBackgroundTimeout")
        ?? Defaults.enterBackgroundTimeoutMs,
      backgroundTaskLimitMs: try fields.duration("backgroundTaskLimit")
        ?? Defaults.backgroundTaskLimitMs,
      source: try fields.string("source"))
    policySettings = try PolicySettings(json: fields, key: "policyParameters") ?? PolicySettings()
    if let reaper = try fields.object("reaper", allowed: ["enabled", "minAge", "period"]) {
      self.reaper = Reaper(
        enabled: try reaper.bool("enabled") ?? true,
        minAgeMs: try reaper.duration("minAge") ?? Defaults.reaperMinAgeMs,
        periodMs: try reaper.duration("period") ?? Defaults.reaperPeriodMs)
    }
    if let swap = try fields.object("appSwap", allowed: ["budget", "killsOnLowSwap"]) {
      appSwap = AppSwap(
        budgetKB: try swap.required(swap.size("budget"), "budget"),
        killsOnLowSwap: try swap.bool("killsOnLowSwap") ?? true)
    }
    var names = Set<String>()
    for (keyPath, node) in try fields.list(
      "systemProcesses", expected: "a list of system processes", maxCount: Units.maxProcesses) ?? []
    {
      let process = try SystemProcess(json: node, at: keyPath)
      if !names.insert(process.name).inserted {
        throw FieldError(
          keyPath: keyPath + ".name",
          kind: .invalid(
            value: "\"\(process.name.excerpt())\", already used", expected: "a name of its own"))
      }
      systemProcesses.append(process)
    }
    if let problem = problems().first {
      throw fields.invalid(problem.key, problem.value, problem.expected)
    }
  }
}
