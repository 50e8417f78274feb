import Foundation

/// Loads profiles, scenarios and traces from files, turning every problem into a `JetsimError` that
/// names the file, the key path or line, and the fix.
public enum ProfileLoader {
  /// The kinds of file `jetsim validate` understands.
  public enum FileKind: String, Sendable {
    case device, app, scenario, trace
    case appUsageLog = "app-usage log"
  }

  /// The scenario in the JSON file at `path`, with its device, apps and trace loaded (paths inside
  /// it are relative to the scenario file) and its workload checked. With `replacementTrace`, the
  /// scenario's script and trace are replaced by the actions of that trace file.
  public static func scenario(at path: String, trace replacementTrace: String? = nil)
    throws(JetsimError) -> Scenario
  {
    try scenario(from: contents(at: path), path: path, trace: replacementTrace)
  }

  /// The scenario in `data`, read as if from the file at `path`.
  static func scenario(from data: Data, path: String, trace replacementTrace: String? = nil)
    throws(JetsimError) -> Scenario
  {
    var file: ScenarioFile = try decode(ScenarioFile.self, from: data, path: path)
    var inputs = [RunInput(role: "scenario", path: path, data: data)]
    if let replacementTrace {
      file.script = []
      file.trace = replacementTrace
    }
    let folder = directory(of: path)
    let device: DeviceProfile
    switch file.device {
    case .inline(let profile): device = profile
    case .path(let reference):
      let devicePath = resolve(reference, from: folder)
      let deviceData = try contents(at: devicePath)
      device = try decode(DeviceProfile.self, from: deviceData, path: devicePath)
      inputs.append(RunInput(role: "device", path: devicePath, data: deviceData))
    }
    var apps: [AppProfile] = []
    for reference in file.apps {
      switch reference {
      case .inline(let profile): apps.append(profile)
      case .path(let reference):
        let appPath = resolve(reference, from: folder)
        let appData = try contents(at: appPath)
        let app = try decode(AppProfile.self, from: appData, path: appPath)
        apps.append(app)
        inputs.append(RunInput(role: "app \(app.id)", path: appPath, data: appData))
      }
    }
    var actions: [TimedAction] = []
    var origins: [(String, String)] = []
    for (index, entry) in file.script.enumerated() {
      actions.append(TimedAction(entry.timeMs, entry.action))
      origins.append((path, "script[\(index)]"))
    }
    if let trace = file.trace {
      let tracePath = replacementTrace ?? resolve(trace, from: folder)
      let traceData = try contents(at: tracePath)
      let traced = try TraceReader.actions(try text(traceData, path: tracePath), path: tracePath)
      inputs.append(RunInput(role: "trace", path: tracePath, data: traceData))
      // Merge by time; at equal times the script comes first.
      var merged: [(TimedAction, (String, String))] = zip(actions, origins).map { ($0, $1) }
      merged += traced.map { ($0.action, (tracePath, "line \($0.line)")) }
      merged = stableSorted(merged) { $0.0.timeMs < $1.0.timeMs }
      actions = merged.map(\.0)
      origins = merged.map(\.1)
    }
    var scenario = Scenario(
      name: file.name, summary: file.summary, device: device, apps: apps, actions: actions,
      policy: file.policy, seed: file.seed, durationMs: file.durationMs, origin: path)
    scenario.actionOrigins = origins
    scenario.policyParameters = file.policyParameters
    scenario.userModel = try file.userModel?.model(appIDs: apps.map(\.id), apps: apps, path: path)
    scenario.inputs = inputs
    guard PolicyRegistry.names.contains(file.policy) else {
      let hint =
        Suggestion.closest(to: file.policy, in: PolicyRegistry.names).map {
          " (did you mean '\($0)'?)"
        } ?? ""
      throw .invalidValue(
        path: path, keyPath: "policy", value: "\"\(file.policy)\"\(hint)",
        expected: "one of \(PolicyRegistry.names.joined(separator: ", ")) (see 'jetsim policies')")
    }
    if apps.isEmpty {
      throw .invalidValue(
        path: path, keyPath: "apps", value: "empty", expected: "at least one app profile")
    }
    _ = try scenario.compiledWorkload()
    return scenario
  }

  /// The device profile in the JSON file at `path`.
  public static func device(at path: String) throws(JetsimError) -> DeviceProfile {
    try decode(DeviceProfile.self, at: path)
  }

  /// The app profile in the JSON file at `path`.
  public static func app(at path: String) throws(JetsimError) -> AppProfile {
    try decode(AppProfile.self, at: path)
  }

  /// The actions of the trace CSV file at `path`.
  public static func trace(at path: String) throws(JetsimError) -> [TimedAction] {
    try TraceReader.actions(try text(at: path), path: path).map(\.action)
  }

  /// Checks the file at `path` as whatever kind it is (a trace if it ends in `.csv` and starts with
  /// the trace header, an app-usage log if it ends in `.tsv` or is another CSV, otherwise a JSON
  /// scenario, device or app profile, told apart by their keys) and returns the kind.
  public static func validate(at path: String) throws(JetsimError) -> FileKind {
    if path.hasSuffix(".tsv")
      || (path.hasSuffix(".csv") && (try? text(at: path))?.hasPrefix("time_ms,") == false)
    {
      _ = try LSAppImport.convert(text(at: path), path: path, known: [])
      return .appUsageLog
    }
    if path.hasSuffix(".csv") {
      _ = try trace(at: path)
      return .trace
    }
    let data = try contents(at: path)
    let keys =
      (try? JSONSerialization.jsonObject(with: data) as? [String: Any]).map { Set($0.keys) } ?? []
    if keys.contains("script") || keys.contains("apps") || keys.contains("trace") {
      _ = try scenario(at: path)
      return .scenario
    }
    if keys.contains("memory") || keys.contains("reserved") {
      _ = try device(at: path)
      return .device
    }
    if keys.contains("resident") || keys.contains("id") {
      _ = try app(at: path)
      return .app
    }
    _ = try decode(ScenarioFile.self, at: path)
    return .scenario
  }

  // MARK: - Files

  static func contents(at path: String) throws(JetsimError) -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(path: path)
    }
    guard !isDirectory.boolValue else {
      throw .unreadable(path: path, reason: "it is a folder, not a file")
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable(path: path, reason: "permission denied or I/O error")
    }
  }

  static func text(at path: String) throws(JetsimError) -> String {
    try text(contents(at: path), path: path)
  }

  static func text(_ data: Data, path: String) throws(JetsimError) -> String {
    guard let text = String(data: data, encoding: .utf8) else {
      throw .unreadable(path: path, reason: "not UTF-8 text")
    }
    return text
  }

  static func decode<T: Decodable>(_ type: T.Type, at path: String) throws(JetsimError) -> T {
    try decode(type, from: contents(at: path), path: path)
  }

  static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String)
    throws(JetsimError) -> T
  {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch let error as FieldError {
      throw error.located(in: path)
    } catch let error as JetsimError {
      throw error
    } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
      throw .malformedJSON(path: path, detail: syntaxError(in: data) ?? context.debugDescription)
    } catch let DecodingError.keyNotFound(key, context) {
      throw .missingKey(path: path, keyPath: keyPathString(context.codingPath + [key]))
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
      let DecodingError.dataCorrupted(context)
    {
      throw .invalidValue(
        path: path, keyPath: keyPathString(context.codingPath), value: "of the wrong type",
        expected: context.debugDescription)
    } catch {
      throw .malformedJSON(path: path, detail: "\(error)")
    }
  }

  /// Where `data` stops being JSON, as "line L, column C: what", from the parser's character offset.
  static func syntaxError(in data: Data) -> String? {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return nil
    } catch {
      let message =
        ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
      let words = message.split(separator: " ")
      guard let index = words.firstIndex(of: "character"), index + 1 < words.count,
        let offset = Int(words[index + 1].trimmingCharacters(in: .punctuationCharacters))
      else { return message }
      var line = 1
      var column = 1
      for byte in data.prefix(offset) {
        if byte == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      let what = words[..<index].joined(separator: " ").replacingOccurrences(
        of: " around", with: "")
      return
        "line \(line), column \(column): \(what.lowercased()); check the commas, quotes and brackets there"
    }
  }

  // MARK: - Paths

  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `reference` relative to `folder`, with `.` and `..` folded lexically.
  static func resolve(_ reference: String, from folder: String) -> String {
    if reference.hasPrefix("/") { return reference }
    let absolute = folder.hasPrefix("/")
    var parts: [Substring] = []
    for part in (folder + "/" + reference).split(separator: "/") {
      switch part {
      case ".":
        continue
      case "..":
        if let last = parts.last, last != ".." {
          parts.removeLast()
        } else if !absolute {
          parts.append(part)
        }
      default:
        parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
  }

  static func stableSorted<T>(_ items: [T], by less: (T, T) -> Bool) -> [T] {
    items.enumerated().sorted { a, b in
      less(a.element, b.element) || (!less(b.element, a.element) && a.offset < b.offset)
    }.map(\.element)
  }
}
