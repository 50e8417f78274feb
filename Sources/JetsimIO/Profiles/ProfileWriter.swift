import JetsimCore

/// Writes profiles and scenarios as JSON in the documented format (docs/profiles.md), with sizes and
/// durations in units; `ProfileLoader` reads back exactly what was written.
public enum ProfileWriter {
  /// The JSON object of `device` (without `policyParameters`).
  public static func json(_ device: DeviceProfile, indent: String = "") -> String {
    var fields = [
      ("name", quote(device.name)), ("memory", size(device.memoryKB)),
      ("reserved", size(device.reservedKB)),
      ("foregroundLimit", size(device.foregroundLimitKB)),
      ("warningThreshold", size(device.warningThresholdKB)),
      ("criticalThreshold", size(device.criticalThresholdKB)),
    ]
    if device.compressionPermille != 1000 {
      fields.append(
        ("compressionRatio", Units.decimal(Double(device.compressionPermille) / 1000, digits: 3)))
    }
    fields += [
      ("enterBackgroundTimeout", duration(device.enterBackgroundTimeoutMs)),
      ("backgroundTaskLimit", duration(device.backgroundTaskLimitMs)),
    ]
    if let source = device.source { fields.append(("source", quote(source))) }
    return object(fields, indent: indent)
  }

  /// The JSON object of `app`.
  public static func json(_ app: AppProfile, indent: String = "") -> String {
    var fields = [
      ("id", quote(app.id)), ("name", quote(app.name)), ("category", quote(app.category)),
      ("resident", size(app.residentKB)),
      ("caches", size(app.cachesKB)), ("backingStores", size(app.backingStoresKB)),
      ("launchPeak", size(app.launchPeakKB)),
      ("growthPerMinute", size(app.growthPerMinuteKB)),
    ]
    if let maxGrowth = app.maxGrowthKB { fields.append(("maxGrowth", size(maxGrowth))) }
    if let limit = app.memoryLimitKB { fields.append(("memoryLimit", size(limit))) }
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
    return object(fields, indent: indent)
  }

  /// A scenario file with `device` and `apps` inline and its workload in the trace file `trace`
  /// (a path relative to the scenario file).
  public static func scenarioJSON(
    name: String, description: String, device: DeviceProfile, apps: [AppProfile], trace: String
  ) -> String {
    let appObjects = apps.map { "    " + json($0, indent: "    ") }.joined(separator: ",\n")
    return """
      {
        "version": 1,
        "name": \(quote(name)),
        "description": \(quote(description)),
        "device": \(json(device, indent: "  ")),
        "apps": [
      \(appObjects)
        ],
        "trace": \(quote(trace))
      }

      """
  }

  static func object(_ fields: [(String, String)], indent: String) -> String {
    let lines = fields.map { "\(indent)  \(quote($0.0)): \($0.1)" }
    return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
  }

  static func quote(_ text: String) -> String { JSONText.quote(text) }
  static func size(_ kilobytes: Int) -> String { quote(Units.formatSize(kilobytes)) }
  static func duration(_ milliseconds: Int) -> String { quote(Units.formatDuration(milliseconds)) }
}
