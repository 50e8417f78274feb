import Foundation

/// One file a run was loaded from, and its SHA-256: the provenance written to `run.json`.
public struct RunInput: Sendable, Equatable {
  /// What the file is: `scenario`, `device`, `app <id>` or `trace`.
  public var role: String
  /// The file's name (without its folder, so that digests compare across checkouts).
  public var file: String
  /// The SHA-256 of its bytes, in hexadecimal.
  public var sha256: String

  public init(role: String, file: String, sha256: String) {
    self.role = role
    self.file = file
    self.sha256 = sha256
  }

  init(role: String, path: String, data: Data) {
    self.init(
      role: role, file: URL(fileURLWithPath: path).lastPathComponent, sha256: SHA256.hex(data))
  }
}

/// `run.json`: which jetsim, scenario, inputs, policy and seed produced a report folder.
public struct Provenance: Sendable, Equatable {
  /// The jetsim version that wrote it.
  public var jetsimVersion: String
  public var scenario: String
  public var device: String
  public var policy: String
  public var seed: UInt64
  /// The files the scenario was loaded from, with their digests.
  public var inputs: [RunInput]

  /// The provenance of a run of `scenario` that produced `summary`.
  public init(scenario: Scenario, summary: RunSummary) {
    jetsimVersion = JetsimVersion.current
    self.scenario = scenario.name
    device = scenario.device.name
    policy = summary.policy
    seed = summary.seed
    inputs = scenario.inputs
  }

  /// `run.json`'s text: fixed key order, one input a line, `\n` line ends.
  public var json: String {
    let inputLines = inputs.map {
      "    {\"role\": \(Self.quote($0.role)), \"file\": \(Self.quote($0.file)), \"sha256\": \(Self.quote($0.sha256))}"
    }
    return """
      {
        "jetsim": \(Self.quote(jetsimVersion)),
        "scenario": \(Self.quote(scenario)),
        "device": \(Self.quote(device)),
        "policy": \(Self.quote(policy)),
        "seed": \(seed),
        "inputs": [
      \(inputLines.joined(separator: ",\n"))
        ]
      }

      """
  }

  /// Reads `run.json`'s text; nil if it is not one.
  public init?(json data: Data) {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let version = object["jetsim"] as? String, let scenario = object["scenario"] as? String,
      let device = object["device"] as? String, let policy = object["policy"] as? String,
      let seed = (object["seed"] as? NSNumber)?.uint64Value,
      let inputs = object["inputs"] as? [[String: String]]
    else { return nil }
    jetsimVersion = version
    self.scenario = scenario
    self.device = device
    self.policy = policy
    self.seed = seed
    self.inputs = inputs.compactMap { entry in
      guard let role = entry["role"], let file = entry["file"], let digest = entry["sha256"] else {
        return nil
      }
      return RunInput(role: role, file: file, sha256: digest)
    }
  }

  /// What differs between `self` (the golden's) and `current` inputs, in words: `app com.x (maps.json)`.
  public func changedInputs(comparedTo current: [RunInput]) -> [String] {
    var changes: [String] = []
    for input in current {
      let recorded = inputs.first { $0.role == input.role }
      if recorded?.sha256 != input.sha256 {
        changes.append("\(input.role) (\(input.file))\(recorded == nil ? ", new" : "")")
      }
    }
    for input in inputs where !current.contains(where: { $0.role == input.role }) {
      changes.append("\(input.role) (\(input.file)), removed")
    }
    return changes
  }

  static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        out += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// jetsim's version, as `jetsim --version` prints it and `run.json` records it.
public enum JetsimVersion {
  public static let current = "0.1.0"
}
