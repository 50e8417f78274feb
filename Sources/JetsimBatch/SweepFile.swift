import JetsimCore
import JetsimIO

extension SweepDefinition {
  /// The most runs a sweep may have: beyond, it is almost surely a mistake (and its journal would
  /// not fit in memory when assembled).
  public static let maxRuns = 10_000_000

  /// The sweep in the file at `path`, with its base scenario, every axis and every point checked
  /// (`checkEveryPoint`), so that no run fails for a reason the file could have shown: `validate`
  /// and `sweep` both load a sweep here, before any output is written.
  ///
  /// - Complexity: reading the files, and the checks of `checkEveryPoint`.
  public static func load(at path: String) throws(JetsimError) -> SweepDefinition {
    let bytes = try InputFile.bytes(at: path)
    let root = try ProfileLoader.json(bytes, path: path)
    let file: SweepFile
    do {
      file = try SweepFile(json: root)
    } catch {
      throw error.located(in: path)
    }
    var loader = try SweepLoader(path: path, file: file, digest: SHA256.hex(bytes))
    try loader.deviceAxis()
    try loader.memoryAxis()
    try loader.catalogueAxis()
    try loader.policyAxis()
    try loader.userModelAxes()
    let seeds = file.seeds ?? [loader.base.seed]
    try loader.checkRunCount(seeds: seeds.count)
    let definition = SweepDefinition(
      name: file.name, base: loader.base, axes: loader.axes, seeds: seeds,
      digest: SHA256.hex(Array(loader.digestInput.utf8)))
    try loader.checkEveryPoint()
    return definition
  }
}

/// Reads a sweep file's axes one at a time, each checked as it is read, and fingerprints every file
/// they name.
private struct SweepLoader {
  typealias Axis = SweepDefinition.Axis
  typealias Value = SweepDefinition.Value

  let path: String
  let file: SweepFile
  let folder: String
  let base: Scenario
  var digestInput: String
  var axes: [Axis] = []
  /// Each value of an axis as the file writes it, where its label is not (`1GB` for 1048576).
  var written: [String: [String]] = [:]

  init(path: String, file: SweepFile, digest: String) throws(JetsimError) {
    self.path = path
    self.file = file
    folder = ProfileLoader.directory(of: path)
    let scenarioPath = ProfileLoader.resolve(file.scenario, from: folder)
    if FileSystem.entry(at: scenarioPath) == .none {
      throw ProfileLoader.notThere(scenarioPath, at: "scenario", of: path)
    }
    base = try ProfileLoader.scenario(at: scenarioPath)
    digestInput = digest + base.inputs.map(\.sha256).joined()
  }

  func problem(_ axis: String, _ value: String, _ expected: String) -> JetsimError {
    .invalidValue(path: path, keyPath: "axes.\(axis)", value: value, expected: expected)
  }

  /// An axis needs values, each once: `keys` tell values apart (a size in KB), `shown` is each as
  /// the file writes it (`1GB`), for the message.
  func checkDistinct(_ axis: String, _ keys: [String], shown: [String]? = nil) throws(JetsimError) {
    guard !keys.isEmpty else { throw problem(axis, "an empty list", "at least one value") }
    let shown = shown ?? keys
    var first: [String: Int] = [:]
    for (index, key) in keys.enumerated() {
      guard let earlier = first[key] else {
        first[key] = index
        continue
      }
      let same = shown[earlier] == shown[index] ? "" : " ('\(shown[earlier].excerpt())')"
      throw problem(
        "\(axis)[\(index)]",
        "'\(shown[index].excerpt())', which repeats axes.\(axis)[\(earlier)]\(same)",
        "each value once (a repeated value repeats every run of that point)")
    }
  }

  /// The profile in the file `reference` names, fingerprinted.
  mutating func profile<T>(
    _ reference: String, at key: String, _ read: (JSONNode) throws(FieldError) -> T
  ) throws(JetsimError) -> T {
    let (profilePath, data) = try ProfileLoader.referenced(reference, at: key, of: path)
    digestInput += SHA256.hex(data)
    return try ProfileLoader.decode(data, path: profilePath, read)
  }

  mutating func deviceAxis() throws(JetsimError) {
    guard let devices = file.devices else { return }
    var values: [Value] = []
    for (index, reference) in devices.enumerated() {
      let device = try profile(reference, at: "axes.device[\(index)]") { node throws(FieldError) in
        try DeviceProfile(json: node)
      }
      values.append(Value(label: device.name) { $0.device = device })
    }
    try checkDistinct("device", values.map(\.label))
    axes.append(Axis(name: "device", column: "device", values: values))
  }

  mutating func memoryAxis() throws(JetsimError) {
    guard let memories = file.memories else { return }
    try checkDistinct("memory", memories.map { String($0.kb) }, shown: memories.map(\.text))
    let values = memories.map { text, kb in
      Value(label: String(kb)) { $0.device = $0.device.withMemory(kb) }
    }
    written["memory"] = memories.map(\.text)
    axes.append(Axis(name: "memory", column: "memory_kb", values: values))
  }

  mutating func catalogueAxis() throws(JetsimError) {
    guard let catalogues = file.catalogues else { return }
    guard !catalogues.isEmpty else { throw problem("apps", "an empty list", "at least one value") }
    var values: [Value] = []
    for (index, catalogue) in catalogues.enumerated() {
      var apps: [AppProfile] = []
      for (position, reference) in catalogue.enumerated() {
        apps.append(
          try profile(reference, at: "axes.apps[\(index)][\(position)]") {
            node throws(FieldError) in try AppProfile(json: node)
          })
      }
      let catalogueApps = apps
      values.append(Value(label: "catalogue-\(index + 1)") { $0.apps = catalogueApps })
    }
    axes.append(Axis(name: "apps", column: "apps", values: values))
  }

  mutating func policyAxis() throws(JetsimError) {
    guard let policies = file.policies else { return }
    try checkDistinct("policy", policies)
    var values: [Value] = []
    for (index, name) in policies.enumerated() {
      guard let policy = try? PolicyName(name) else {
        throw problem(
          "policy[\(index)]", "'\(name.excerpt())'",
          "built-in policies: \(PolicyRegistry.names.joined(separator: ", "))")
      }
      values.append(Value(label: name) { $0.policy = policy })
    }
    axes.append(Axis(name: "policy", column: "policy", values: values))
  }

  mutating func userModelAxes() throws(JetsimError) {
    try modelAxis(
      "userModel.zipf", "zipf",
      file.zipf?.map { exponent in
        ("\(exponent)", { $0.popularity = .zipf(exponent: exponent) })
      })
    try modelAxis(
      "userModel.dwell", "dwell",
      file.dwell?.map { label, duration in (label, { $0.dwell = duration }) })
    try modelAxis(
      "userModel.gap", "gap", file.gap?.map { label, duration in (label, { $0.gap = duration }) })
    try modelAxis(
      "userModel.growthPerMinute", "growth_per_minute_kb",
      file.growth?.map { _, kb in (String(kb), { $0.growthPerMinuteKB = kb }) },
      shown: file.growth?.map(\.text))
  }

  /// An axis of the base scenario's user model.
  mutating func modelAxis(
    _ name: String, _ column: String, _ values: [(String, @Sendable (inout UserModel) -> Void)]?,
    shown: [String]? = nil
  ) throws(JetsimError) {
    guard let values else { return }
    try checkDistinct(name, values.map(\.0), shown: shown)
    guard base.userModel != nil else {
      throw problem(name, "set", "a base scenario with a userModel")
    }
    let changes = values.map { label, change in
      Value(label: label) { scenario in
        if var model = scenario.userModel {
          change(&model)
          scenario.userModel = model
        }
      }
    }
    axes.append(Axis(name: name, column: column, values: changes))
  }

  /// Seeds × the axes' values, multiplied with overflow checks: at most `maxRuns`.
  func checkRunCount(seeds: Int) throws(JetsimError) {
    var runs = seeds
    for axis in axes {
      let (product, overflow) = runs.multipliedReportingOverflow(by: axis.values.count)
      guard !overflow, product <= SweepDefinition.maxRuns else {
        throw problem(
          axis.name, "more than \(SweepDefinition.maxRuns) runs with the other axes and the seeds",
          "fewer values, or a sweep split into several files")
      }
      runs = product
    }
  }

  /// Every point must make a run that starts, checked as loading checks a scenario, before any
  /// run or output: only the device, memory and apps axes can break one (the policies' settings
  /// are checked whichever runs, the user model's values as they are read). So each combination
  /// of their values is checked once, not each point and seed: its device, and the scenario's
  /// parts on it (`ProfileLoader.checkParts`); and each combination of devices and catalogues,
  /// the script and the trace (read once each: a trace may be long). The error names the sweep
  /// file and the axis values.
  ///
  /// - Complexity: O(*d* × *m* × *c*) part checks for *d* devices, *m* memories and *c*
  ///   catalogues, and *d* × *c* readings of the script and the trace.
  func checkEveryPoint() throws(JetsimError) {
    try check(["device", "memory", "apps"]) { scenario in
      if let problem = scenario.device.problems().first { return .device(problem) }
      do throws(JetsimError) {
        try ProfileLoader.checkParts(of: scenario, path: scenario.origin)
      } catch {
        return .scenario(error)
      }
      return nil
    }
    try check(["device", "apps"]) { scenario in
      do throws(JetsimError) {
        try scenario.checkWorkload()
      } catch {
        return .scenario(error)
      }
      return nil
    }
  }

  /// Why a point cannot run: its device's own problem, or its scenario's.
  enum PointProblem {
    case device((key: String, value: String, expected: String))
    case scenario(JetsimError)
  }

  /// Runs `problem` on the scenario of each combination of the values of the axes named; where it
  /// finds one, the error names the fewest of those values that have it on their own (an app
  /// missing from a catalogue is the catalogue's fault, whatever the memory).
  func check(_ names: Set<String>, _ problem: (Scenario) -> PointProblem?) throws(JetsimError) {
    try forEachCombination(of: names) { scenario, choices throws(JetsimError) in
      guard let found = problem(scenario) else { return }
      // Each subset of the values, smallest first: the first with a problem on its own.
      let subsets = (1..<(1 << choices.count)).sorted { $0.nonzeroBitCount < $1.nonzeroBitCount }
      for subset in subsets {
        let some = choices.indices.filter { subset & (1 << $0) != 0 }.map { choices[$0] }
        var alone = base
        for (axis, index) in some { axis.values[index].apply(&alone) }
        if let own = problem(alone) { throw pointProblem(own, some) }
      }
      throw pointProblem(found, choices)
    }
  }

  /// Calls `body` with the base scenario changed by each combination of the values of the axes
  /// named (those the sweep has), with the axes and value indices chosen; not at all when the
  /// sweep has none of them (the base scenario was checked as it was read).
  func forEachCombination(
    of names: Set<String>,
    _ body: (Scenario, [(axis: Axis, index: Int)]) throws(JetsimError) -> Void
  ) throws(JetsimError) {
    let chosen = axes.filter { names.contains($0.name) }
    guard !chosen.isEmpty else { return }
    var indices = Array(repeating: 0, count: chosen.count)
    while true {
      var scenario = base
      // In the axes' order: a device before its memory.
      for (axis, index) in zip(chosen, indices) { axis.values[index].apply(&scenario) }
      try body(scenario, Array(zip(chosen, indices)).map { ($0, $1) })
      // The next combination, the last axis fastest.
      var position = chosen.count - 1
      while position >= 0 {
        indices[position] += 1
        if indices[position] < chosen[position].values.count { break }
        indices[position] = 0
        position -= 1
      }
      if position < 0 { return }
    }
  }

  /// The axis values of a point, where they are in the file: `axes.device[1], axes.memory[0]`.
  func location(_ choices: [(axis: Axis, index: Int)]) -> String {
    choices.map { "axes.\($0.axis.name)[\($0.index)]" }.joined(separator: ", ")
  }

  /// The axis values of a point as the file writes them: `iPhone 8, 100MB`.
  func shown(_ choices: [(axis: Axis, index: Int)]) -> String {
    choices.map { written[$0.axis.name]?[$0.index] ?? $0.axis.values[$0.index].label }
      .joined(separator: ", ")
  }

  /// `problem`, found at a point, as an error of the sweep file at the point's axis values.
  func pointProblem(_ problem: PointProblem, _ choices: [(axis: Axis, index: Int)]) -> JetsimError {
    switch problem {
    case .device(let (key, value, expected)):
      return .invalidValue(
        path: path, keyPath: location(choices),
        value: "\(shown(choices)), with which the device's \(key) is \(value)", expected: expected)
    case .scenario(let error):
      return .invalidEntry(
        path: path, keyPath: location(choices),
        message: "with \(shown(choices)), the point's scenario cannot run: \(error)")
    }
  }
}

/// The JSON form of a sweep file (docs/scaling.md).
struct SweepFile {
  var name: String
  var scenario: String
  var devices: [String]?
  var memories: [(text: String, kb: Int)]?
  var catalogues: [[String]]?
  var policies: [String]?
  var zipf: [Double]?
  var dwell: [(String, UserModel.Duration)]?
  var gap: [(String, UserModel.Duration)]?
  var growth: [(text: String, kb: Int)]?
  var seeds: [UInt64]?

  init(json node: JSONNode) throws(FieldError) {
    let fields = try ProfileFields(
      node, allowed: ["version", "name", "description", "scenario", "axes"])
    try fields.checkVersion()
    name = try fields.required(fields.name("name"), "name")
    guard !name.contains("/"), !name.hasPrefix(".") else {
      throw fields.invalid("name", "\"\(name.excerpt())\"", "a name usable as a folder name")
    }
    scenario = try fields.required(fields.string("scenario"), "scenario")
    let axes = try fields.required(
      fields.object("axes", allowed: SweepDefinition.axisNames), "axes")
    devices = try axes.strings("device", expected: "a list of device profile paths")
    memories = try Self.sizes(axes, "memory")
    if let lists = try axes.list("apps", expected: "a list of app catalogues, each a list of paths")
    {
      catalogues = []
      for (keyPath, node) in lists {
        guard let paths = node.elements?.compactMap(\.string), paths.count == node.elements?.count
        else {
          throw FieldError(
            keyPath: keyPath, kind: .invalid(value: node.summary, expected: "a list of app paths"))
        }
        catalogues?.append(paths)
      }
    }
    policies = try axes.strings("policy", expected: "a list of policy names")
    if let list = try axes.list("userModel.zipf", expected: "a list of exponents") {
      zipf = []
      for (keyPath, node) in list {
        guard let value = node.double, (0...10).contains(value) else {
          throw FieldError(
            keyPath: keyPath, kind: .invalid(value: node.summary, expected: "a number from 0 to 10")
          )
        }
        zipf?.append(value)
      }
    }
    dwell = try Self.durations(axes, "userModel.dwell")
    gap = try Self.durations(axes, "userModel.gap")
    growth = try Self.sizes(axes, "userModel.growthPerMinute", positive: false)
    if let node = axes.node("seeds") {
      if let text = node.string {
        do {
          seeds = try SeedList.parse(text)
        } catch {
          throw FieldError(keyPath: axes.path("seeds"), kind: .entry(message: error.message))
        }
      } else {
        guard let list = node.elements, !list.isEmpty, list.count <= SeedList.maxCount,
          case let values = list.compactMap(\.unsigned), values.count == list.count,
          Set(values).count == values.count
        else {
          throw axes.invalid(
            "seeds", node.summary, "\"1..20\" or a list of distinct seeds from 0 to \(UInt64.max)")
        }
        seeds = values
      }
    }
  }

  /// A list of sizes, each as written and in KB.
  static func sizes(_ fields: ProfileFields, _ key: String, positive: Bool = true)
    throws(FieldError) -> [(text: String, kb: Int)]?
  {
    guard let list = try fields.list(key, expected: "a list of sizes") else { return nil }
    var sizes: [(text: String, kb: Int)] = []
    for (keyPath, node) in list {
      guard let text = node.string, let kb = Units.kilobytes(text), kb > 0 || !positive else {
        throw FieldError(
          keyPath: keyPath, kind: .invalid(value: node.summary, expected: Units.sizeForm))
      }
      sizes.append((text, kb))
    }
    return sizes
  }

  /// A list of durations or distributions, each labelled as written.
  static func durations(_ fields: ProfileFields, _ key: String) throws(FieldError) -> [(
    String, UserModel.Duration
  )]? {
    guard let list = try fields.list(key, expected: "a list of durations or distributions") else {
      return nil
    }
    var values: [(String, UserModel.Duration)] = []
    for (keyPath, node) in list {
      let value = try UserModelFile.duration(node, at: keyPath)
      let label =
        switch value {
        case .fixed(let ms): Units.formatDuration(ms)
        case .exponential(let mean): "exponential \(Units.formatDuration(mean))"
        case .logNormal(let median, let sigma): "lognormal \(Units.formatDuration(median)) \(sigma)"
        }
      values.append((label, value))
    }
    return values
  }
}
