import Foundation

/// A sweep file (docs/scaling.md): a base scenario and axes whose Cartesian product, times the seeds,
/// is the set of runs. Axes vary in a fixed order (the order of `SweepDefinition.axisNames`), seeds
/// innermost, so run numbers are stable.
public struct SweepDefinition: Sendable {
  /// The axes a sweep file may have, in the order they vary (the last fastest, before the seeds).
  public static let axisNames = [
    "device", "memory", "apps", "policy", "userModel.zipf", "userModel.dwell", "userModel.gap",
    "userModel.growthPerMinute", "seeds",
  ]

  /// One value of one axis: its label in the reports and how it changes the scenario.
  public struct Value: Sendable {
    public var label: String
    let apply: @Sendable (inout Scenario) -> Void
  }

  /// One axis: its column name in the reports and its values.
  public struct Axis: Sendable {
    public var name: String
    public var column: String
    public var values: [Value]
  }

  public var name: String
  public var base: Scenario
  /// The axes present, in the order they vary (without seeds).
  public var axes: [Axis]
  public var seeds: [UInt64]
  /// A digest of the sweep file and every input it names, to tell whether a partial sweep may be
  /// resumed or shards merged.
  public var digest: String

  /// The number of points (runs per seed) and of runs.
  public var pointCount: Int { axes.reduce(1) { $0 * $1.values.count } }
  public var runCount: Int { pointCount * seeds.count }

  /// The column names of the axes in `sweep.csv`, then `seed`.
  public var columns: [String] { axes.map(\.column) + ["seed"] }

  /// Run `index`'s scenario and the labels of its axis values (with the seed last).
  public func run(_ index: Int) -> (scenario: Scenario, labels: [String]) {
    var scenario = base
    var labels: [String] = []
    var rest = index / seeds.count
    var choices: [Int] = []
    for axis in axes.reversed() {
      choices.append(rest % axis.values.count)
      rest /= axis.values.count
    }
    for (axis, choice) in zip(axes, choices.reversed()) {
      axis.values[choice].apply(&scenario)
      labels.append(axis.values[choice].label)
    }
    scenario.seed = seeds[index % seeds.count]
    labels.append(String(scenario.seed))
    return (scenario, labels)
  }

  /// The sweep in the file at `path`, with its base scenario and every axis checked, so that no run
  /// fails for a reason the file could have shown.
  public static func load(at path: String) throws(JetsimError) -> SweepDefinition {
    let data = try ProfileLoader.contents(at: path)
    let file = try ProfileLoader.decode(SweepFile.self, from: data, path: path)
    let folder = ProfileLoader.directory(of: path)
    let base = try ProfileLoader.scenario(at: ProfileLoader.resolve(file.scenario, from: folder))
    var digestInput = SHA256.hex(data) + base.inputs.map(\.sha256).joined()
    var axes: [Axis] = []
    func empty(_ axis: String) -> JetsimError {
      .invalidValue(
        path: path, keyPath: "axes.\(axis)", value: "an empty list", expected: "at least one value")
    }
    if let devices = file.axes.devices {
      guard !devices.isEmpty else { throw empty("device") }
      var values: [Value] = []
      for reference in devices {
        let devicePath = ProfileLoader.resolve(reference, from: folder)
        let deviceData = try ProfileLoader.contents(at: devicePath)
        let device = try ProfileLoader.decode(
          DeviceProfile.self, from: deviceData, path: devicePath)
        digestInput += SHA256.hex(deviceData)
        values.append(Value(label: device.name) { $0.device = device })
      }
      axes.append(Axis(name: "device", column: "device", values: values))
    }
    if let memories = file.axes.memories {
      guard !memories.isEmpty else { throw empty("memory") }
      axes.append(
        Axis(
          name: "memory", column: "memory_kb",
          values: memories.map { kb in
            Value(label: String(kb)) { $0.device = $0.device.withMemory(kb) }
          }))
    }
    if let catalogues = file.axes.catalogues {
      guard !catalogues.isEmpty else { throw empty("apps") }
      var values: [Value] = []
      for (index, catalogue) in catalogues.enumerated() {
        var apps: [AppProfile] = []
        for reference in catalogue {
          let appPath = ProfileLoader.resolve(reference, from: folder)
          let appData = try ProfileLoader.contents(at: appPath)
          apps.append(try ProfileLoader.decode(AppProfile.self, from: appData, path: appPath))
          digestInput += SHA256.hex(appData)
        }
        let catalogueApps = apps
        values.append(Value(label: "catalogue-\(index + 1)") { $0.apps = catalogueApps })
      }
      axes.append(Axis(name: "apps", column: "apps", values: values))
    }
    if let policies = file.axes.policies {
      guard !policies.isEmpty else { throw empty("policy") }
      for name in policies where !PolicyRegistry.names.contains(name) {
        throw .invalidValue(
          path: path, keyPath: "axes.policy", value: "'\(name)'",
          expected: "built-in policies: \(PolicyRegistry.names.joined(separator: ", "))")
      }
      axes.append(
        Axis(
          name: "policy", column: "policy",
          values: policies.map { name in Value(label: name) { $0.policy = name } }))
    }
    func modelAxis(
      _ name: String, _ column: String, _ values: [(String, @Sendable (inout UserModel) -> Void)]?
    ) throws(JetsimError) {
      guard let values else { return }
      guard !values.isEmpty else { throw empty(name) }
      guard base.userModel != nil else {
        throw .invalidValue(
          path: path, keyPath: "axes.\(name)", value: "set",
          expected: "a base scenario with a userModel")
      }
      axes.append(
        Axis(
          name: name, column: column,
          values: values.map { label, change in
            Value(label: label) { scenario in
              if var model = scenario.userModel {
                change(&model)
                scenario.userModel = model
              }
            }
          }))
    }
    try modelAxis(
      "userModel.zipf", "zipf",
      file.axes.zipf?.map { exponent in
        ("\(exponent)", { $0.popularity = .zipf(exponent: exponent) })
      })
    try modelAxis(
      "userModel.dwell", "dwell",
      file.axes.dwell?.map { label, duration in (label, { $0.dwell = duration }) })
    try modelAxis(
      "userModel.gap", "gap",
      file.axes.gap?.map { label, duration in (label, { $0.gap = duration }) })
    try modelAxis(
      "userModel.growthPerMinute", "growth_per_minute_kb",
      file.axes.growth?.map { kb in (String(kb), { $0.growthPerMinuteKB = kb }) })
    let seeds = file.axes.seeds ?? [base.seed]
    guard !seeds.isEmpty else { throw empty("seeds") }
    let definition = SweepDefinition(
      name: file.name, base: base, axes: axes, seeds: seeds,
      digest: SHA256.hex(Array(digestInput.utf8)))
    // Every combination must make a valid scenario: check each point once (seeds do not matter).
    for point in 0..<definition.pointCount {
      let (scenario, labels) = definition.run(point * seeds.count)
      if let problem = scenario.device.problems().first {
        throw .invalidValue(
          path: path, keyPath: "axes",
          value:
            "the point \(labels.dropLast().joined(separator: ", ")), whose device's \(problem.key) is \(problem.value)",
          expected: problem.expected)
      }
      do {
        _ = try scenario.compiledWorkload()
      } catch {
        throw .invalidValue(
          path: path, keyPath: "axes",
          value: "the point \(labels.dropLast().joined(separator: ", "))",
          expected: "values that make a valid scenario: \(error)")
      }
    }
    return definition
  }
}

/// The JSON form of a sweep file.
struct SweepFile: Decodable {
  var name: String
  var scenario: String
  var axes: Axes

  init(from decoder: any Decoder) throws {
    let fields = try ProfileFields(
      decoder, allowed: ["version", "name", "description", "scenario", "axes"])
    try fields.checkVersion()
    name = try fields.required(fields.string("name"), "name")
    guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
      throw fields.invalid("name", "\"\(name)\"", "a name usable as a folder name")
    }
    scenario = try fields.required(fields.string("scenario"), "scenario")
    axes = try fields.required(
      fields.decode(Axes.self, "axes", expected: "an object of axes"), "axes")
  }

  struct Axes: Decodable {
    var devices: [String]?
    var memories: [Int]?
    var catalogues: [[String]]?
    var policies: [String]?
    var zipf: [Double]?
    var dwell: [(String, UserModel.Duration)]?
    var gap: [(String, UserModel.Duration)]?
    var growth: [Int]?
    var seeds: [UInt64]?

    init(from decoder: any Decoder) throws {
      let fields = try ProfileFields(decoder, allowed: SweepDefinition.axisNames)
      devices = try fields.decode(
        [String].self, "device", expected: "a list of device profile paths")
      if let sizes = try fields.decode([String].self, "memory", expected: "a list of sizes") {
        memories = try sizes.enumerated().map { index, text in
          guard let kb = Units.kilobytes(text), kb > 0 else {
            throw fields.invalid("memory[\(index)]", "\"\(text)\"", Units.sizeForm)
          }
          return kb
        }
      }
      catalogues = try fields.decode(
        [[String]].self, "apps", expected: "a list of app catalogues, each a list of paths")
      policies = try fields.decode([String].self, "policy", expected: "a list of policy names")
      zipf = try fields.decode([Double].self, "userModel.zipf", expected: "a list of exponents")
      dwell = try Self.durations(fields, "userModel.dwell")
      gap = try Self.durations(fields, "userModel.gap")
      if let sizes = try fields.decode(
        [String].self, "userModel.growthPerMinute", expected: "a list of sizes")
      {
        growth = try sizes.enumerated().map { index, text in
          guard let kb = Units.kilobytes(text) else {
            throw fields.invalid(
              "userModel.growthPerMinute[\(index)]", "\"\(text)\"", Units.sizeForm)
          }
          return kb
        }
      }
      if fields.has("seeds") {
        if let range = try? fields.decode(String.self, "seeds", expected: "") {
          do {
            seeds = try SeedList.parse(range)
          } catch {
            throw FieldError(keyPath: fields.keyPath("seeds"), kind: .entry(message: error.message))
          }
        } else {
          seeds = try fields.decode(
            [UInt64].self, "seeds", expected: "\"1..20\" or a list of seeds")
        }
      }
    }

    /// A list of durations or distributions, each labelled as written.
    static func durations(_ fields: ProfileFields, _ key: String) throws -> [(
      String, UserModel.Duration
    )]? {
      guard
        let values = try fields.decode(
          [UserModel.Duration].self, key, expected: "a list of durations or distributions")
      else {
        return nil
      }
      return values.map { value in
        switch value {
        case .fixed(let ms): (Units.formatDuration(ms), value)
        case .exponential(let mean): ("exponential \(Units.formatDuration(mean))", value)
        case .logNormal(let median, let sigma):
          ("lognormal \(Units.formatDuration(median)) \(sigma)", value)
        }
      }
    }
  }
}

/// Seed lists written `7`, `1..20`, `1,4,9` or a mix: shared by sweep files and the command line.
public enum SeedList {
  /// Why a seed list cannot be used, in words that fit after the list: "'5..1' is an empty ...".
  public struct Problem: Error, Equatable {
    public var message: String
  }

  /// The seeds, in the order given.
  public static func parse(_ text: String) throws(Problem) -> [UInt64] {
    var seeds: [UInt64] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let bounds = part.split(separator: ".", omittingEmptySubsequences: false)
      if bounds.count == 1, let seed = UInt64(part) {
        seeds.append(seed)
      } else if bounds.count == 3, bounds[1].isEmpty, let low = UInt64(bounds[0]),
        let high = UInt64(bounds[2])
      {
        guard low <= high, high - low < 100_000 else {
          throw Problem(
            message: "'\(part)' is an empty or huge range; write low..high with low <= high")
        }
        seeds.append(contentsOf: low...high)
      } else {
        throw Problem(message: "'\(text)' is not seeds such as 7, 1..20 or 1,4,9")
      }
    }
    guard Set(seeds).count == seeds.count else {
      throw Problem(message: "'\(text)' repeats a seed")
    }
    return seeds
  }
}
