import JetsimCore

/// Writes profiles and scenarios as JSON in the documented format (docs/profiles.md), with sizes and
/// durations in units; `ProfileLoader` reads back exactly what was written.
public enum ProfileWriter {
  /// The JSON object of `device` (without `policyParameters`): inline in a scenario, or with
  /// `standalone` a device profile file of its own (which carries the format's `version`).
  public static func json(_ device: DeviceProfile, indent: String = "", standalone: Bool = false)
    -> String
  {
    var fields = standalone ? [("version", "\(Defaults.profileVersion)")] : []
    fields += [
      ("name", quote(device.name)), ("memory", size(device.memoryKB)),
      ("reserved", size(device.reservedKB)),
      ("foregroundLimit", size(device.foregroundLimitKB)),
      ("warningThreshold", size(device.warningThresholdKB)),
      ("criticalThreshold", size(device.criticalThresholdKB)),
      ("idleThreshold", size(device.idleThresholdKB)),
      ("reaperThreshold", size(device.reaperThresholdKB)),
    ]
    if device.reaper != DeviceProfile.Reaper() {
      fields.append(
        (
          "reaper",
          "{\"enabled\": \(device.reaper.enabled), \"minAge\": \(duration(device.reaper.minAgeMs)), \"period\": \(duration(device.reaper.periodMs))}"
        ))
    }
    if let swap = device.appSwap {
      fields.append(
        (
          "appSwap",
          "{\"budget\": \(size(swap.budgetKB)), \"killsOnLowSwap\": \(swap.killsOnLowSwap)}"
        ))
    }
    if device.compressionPermille != 1000 {
      fields.append(
        ("compressionRatio", Units.decimal(Double(device.compressionPermille) / 1000, digits: 3)))
    }
    fields += [
      ("enterBackgroundTimeout", duration(device.enterBackgroundTimeoutMs)),
      ("backgroundTaskLimit", duration(device.backgroundTaskLimitMs)),
    ]
    if let source = device.source { fields.append(("source", quote(source))) }
    if !device.systemProcesses.isEmpty {
      let processes = device.systemProcesses.map { "\(indent)    " + json($0) }
      fields.append(
        ("systemProcesses", "[\n" + processes.joined(separator: ",\n") + "\n\(indent)  ]"))
    }
    return object(fields, indent: indent)
  }

  /// The JSON object of a system process, on one line.
  public static func json(_ process: SystemProcess) -> String {
    var fields = [
      ("name", quote(process.name)), ("kind", quote(process.kind.rawValue)),
      ("footprint", size(process.footprintKB)),
    ]
    if let band = process.band { fields.append(("band", "\(band)")) }
    if let soft = process.softLimitKB { fields.append(("softLimit", size(soft))) }
    if let hard = process.hardLimitKB { fields.append(("hardLimit", size(hard))) }
    if let relaunch = process.relaunchDelayMs { fields.append(("relaunch", duration(relaunch))) }
    if process.relaunchLikelihood != .low {
      fields.append(("relaunchLikelihood", quote(process.relaunchLikelihood.rawValue)))
    }
    if process.agingTimeMs != process.relaunchLikelihood.agingTimeMs {
      fields.append(("agingTime", duration(process.agingTimeMs)))
    }
    return line(fields)
  }

  /// The JSON object of one process of a snapshot, on one line.
  public static func json(_ entry: Snapshot.Entry) -> String {
    var fields = [("process", quote(entry.process)), ("state", quote("\(entry.state)"))]
    if let footprint = entry.footprintKB { fields.append(("footprint", size(footprint))) }
    if let band = entry.band { fields.append(("band", "\(band)")) }
    return line(fields)
  }

  /// The JSON object of `app`: with `standalone` an app profile file of its own (every field,
  /// and the format's `version`); otherwise, inline in a scenario, on one line with only the fields
  /// that differ from the defaults.
  public static func json(_ app: AppProfile, indent: String = "", standalone: Bool = false)
    -> String
  {
    let fields = appFields(app)
    guard !standalone else {
      return object([("version", "\(Defaults.profileVersion)")] + fields, indent: indent)
    }
    let defaults = appFields(AppProfile(id: app.id, residentKB: app.residentKB))
    return line(
      fields.filter { field in
        !defaults.contains { $0 == field } || field.0 == "id" || field.0 == "resident"
      })
  }

  static func appFields(_ app: AppProfile) -> [(String, String)] {
    var fields = [
      ("id", quote(app.id)), ("name", quote(app.name)), ("category", quote(app.category)),
      ("resident", size(app.residentKB)),
      ("caches", size(app.cachesKB)), ("backingStores", size(app.backingStoresKB)),
      ("launchPeak", size(app.launchPeakKB)),
      ("growthPerMinute", size(app.growthPerMinuteKB)),
    ]
    if let maxGrowth = app.maxGrowthKB { fields.append(("maxGrowth", size(maxGrowth))) }
    if let limit = app.memoryLimitKB { fields.append(("memoryLimit", size(limit))) }
    if app.launchSteps != 1 { fields.append(("launchSteps", "\(app.launchSteps)")) }
    fields += [
      ("memoryWarningFrees", quote("\(app.memoryWarningFreesPercent)%")),
      (
        "backgroundModes",
        "[" + app.backgroundModes.map { quote($0.rawValue) }.joined(separator: ", ") + "]"
      ),
      ("backgroundWork", duration(app.backgroundWorkMs)),
      ("backgroundTask", duration(app.backgroundTaskMs)),
      ("exitsOnSuspend", app.exitsOnSuspend ? "true" : "false"),
      ("coldLaunch", duration(app.coldLaunchMs)),
      ("warmResume", duration(app.warmResumeMs)),
    ]
    return fields
  }

  /// Where a scenario file finds its device.
  public enum DeviceReference: Sendable {
    /// The device written inline.
    case inline(DeviceProfile)
    /// A device profile file, by path relative to the scenario file.
    case path(String)
  }

  /// A scenario file with its apps inline, its device inline or by path, and as its workload the
  /// trace file `trace` (a path relative to the scenario file) and/or a `snapshot` to start from.
  public static func scenarioJSON(
    name: String, description: String, device: DeviceReference, apps: [AppProfile],
    trace: String? = nil, snapshot: Snapshot? = nil
  ) -> String {
    var fields = [
      ("version", "1"), ("name", quote(name)), ("description", quote(description)),
    ]
    switch device {
    case .inline(let device): fields.append(("device", json(device, indent: "  ")))
    case .path(let path): fields.append(("device", quote(path)))
    }
    let appObjects = apps.map { "    " + json($0) }
    fields.append(("apps", "[\n" + appObjects.joined(separator: ",\n") + "\n  ]"))
    if let trace { fields.append(("trace", quote(trace))) }
    if let snapshot {
      let entries = snapshot.entries.map { "    " + json($0) }
      fields.append(("snapshot", "[\n" + entries.joined(separator: ",\n") + "\n  ]"))
    }
    return object(fields, indent: "") + "\n"
  }

  static func object(_ fields: [(String, String)], indent: String) -> String {
    let lines = fields.map { "\(indent)  \(quote($0.0)): \($0.1)" }
    return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
  }

  /// An object on one line: `{"name": "x", "band": 0}`.
  static func line(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
  }

  static func quote(_ text: String) -> String { JSONText.quote(text) }
  static func size(_ kilobytes: Int) -> String { quote(Units.formatSize(kilobytes)) }
  static func duration(_ milliseconds: Int) -> String { quote(Units.formatDuration(milliseconds)) }
}
