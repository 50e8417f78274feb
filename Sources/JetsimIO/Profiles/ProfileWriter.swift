import JetsimCore

/// Writes profiles and scenarios as JSON in the documented format (docs/profiles.md), with sizes and
/// durations in units; `ProfileLoader` reads back exactly what was written.
public enum ProfileWriter {
  /// The JSON object of `device`: inline in a scenario, or with `standalone` a device profile file
  /// of its own (which carries the format's `version`). It has the keys of `DeviceProfile.jsonKeys`
  /// that are required or differ from `DeviceProfile.blank`: thresholds and the foreground limit
  /// only when the profile gives them, so that they are derived again when read back.
  public static func json(_ device: DeviceProfile, indent: String = "", standalone: Bool = false)
    -> String
  {
    var fields: [(String, String)] = []
    for key in DeviceProfile.jsonKeys {
      if case .version = key.kind {
        if standalone { fields.append((key.name, "\(Defaults.profileVersion)")) }
      } else if key.required || differs(key, device, from: .blank),
        let text = text(of: key, in: device, indent: indent)
      {
        fields.append((key.name, text))
      }
    }
    return object(fields, indent: indent)
  }

  /// Whether `key`'s value in `root`, or that of one of its keys, is not the one in `blank`.
  static func differs<Root>(_ key: ProfileKey<Root>, _ root: Root, from blank: Root) -> Bool {
    key.read(root) != key.read(blank) || key.keys.contains { differs($0, root, from: blank) }
  }

  /// `key`'s value in `root` as JSON, nil if it is not there; an object's on one line, with each
  /// of its keys that is there.
  static func text<Root>(of key: ProfileKey<Root>, in root: Root, indent: String) -> String? {
    guard let value = key.read(root) else { return nil }
    switch (key.kind, value) {
    case (.object, _):
      return line(
        key.keys.compactMap { inner in
          text(of: inner, in: root, indent: indent).map { (inner.name, $0) }
        })
    case (.size, .number(let kilobytes)): return size(kilobytes)
    case (.duration, .number(let milliseconds)): return duration(milliseconds)
    case (.permille, .number(let permille)):
      return Units.decimal(Double(permille) / 1000, digits: 3)
    case (.count, .number(let count)): return "\(count)"
    case (.flag, .flag(let flag)): return "\(flag)"
    case (.name, .text(let text)), (.text, .text(let text)): return quote(text)
    case (.policySettings, .settings(let settings)): return json(settings)
    case (.systemProcesses, .processes(let processes)):
      let lines = processes.map { "\(indent)    " + json($0) }
      return "[\n" + lines.joined(separator: ",\n") + "\n\(indent)  ]"
    default: return nil  // a table entry whose value is not of its kind: DeviceKeysTests fails
    }
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
    fields += LimitKeys.fields(
      activeKB: process.activeLimitKB, activeFatal: process.activeLimitFatal,
      inactiveKB: process.inactiveLimitKB, inactiveFatal: process.inactiveLimitFatal)
    if let relaunch = process.relaunchDelayMs { fields.append(("relaunch", duration(relaunch))) }
    // Written when it is not what launchd would derive from the relaunch delay.
    let derived =
      process.relaunchDelayMs.flatMap { RelaunchLikelihood(timesToRelaunchMs: [$0]) } ?? .low
    if process.relaunchLikelihood != derived {
      fields.append(("relaunchLikelihood", quote(process.relaunchLikelihood.rawValue)))
    }
    if process.agingTimeMs != process.relaunchLikelihood.agingTimeMs {
      fields.append(("agingTime", duration(process.agingTimeMs)))
    }
    // Written when not its kind's.
    let kindDefaults = SystemProcess(name: "", kind: process.kind, footprintKB: 0)
    if process.dirtyTracking != kindDefaults.dirtyTracking {
      fields.append(("dirtyTracking", quote(process.dirtyTracking.rawValue)))
    }
    if process.isManaged != kindDefaults.isManaged {
      fields.append(("managed", process.isManaged ? "true" : "false"))
    }
    if let coalition = process.coalition { fields.append(("coalition", quote(coalition))) }
    let role = SystemProcess(
      name: process.name, kind: process.kind, footprintKB: 0, coalition: process.coalition)
    if process.coalitionRole != role.coalitionRole {
      fields.append(("role", quote(process.coalitionRole.rawValue)))
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
    fields += LimitKeys.fields(
      activeKB: app.activeLimitKB, activeFatal: app.activeLimitFatal,
      inactiveKB: app.inactiveLimitKB, inactiveFatal: app.inactiveLimitFatal)
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
