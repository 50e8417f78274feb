import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// Every field of a device profile survives each path it takes (read, written and read again,
/// `withMemory`, `==`), and docs/profiles.md lists the keys as `DeviceProfile.jsonKeys` declares
/// them. The fixture comes from the keys' examples, so a field that has no key stays at its default
/// and fails the first test.
@Suite struct DeviceKeysTests {
  /// Keys that exclude each other (a device has one swap device): the fixture that gives one
  /// leaves the other out.
  static let exclusive = ["appSwap": "zram", "zram": "appSwap"]

  /// A profile with every key of `DeviceProfile.jsonKeys` set from its example, but the one
  /// `chosen` excludes (by default app swap's, zram left out).
  static func fixture(with chosen: String = "appSwap") throws -> DeviceProfile {
    let left = exclusive[chosen]
    let members = DeviceProfile.jsonKeys.filter { $0.name != left }.map {
      "\"\($0.name)\": \($0.example)"
    }
    return try load("{" + members.joined(separator: ", ") + "}")
  }

  /// A profile built with only what it requires.
  static let plain = DeviceProfile(name: "Plain", memoryKB: mb(2048), reservedKB: mb(500))

  static func load(_ text: String, inline: Bool = false) throws -> DeviceProfile {
    try DeviceProfile(json: JSONParser.parse(Array(text.utf8)), inline: inline)
  }

  /// Every stored value in `value` by its path (`given.levels.critical`), looking inside structs
  /// and optionals; anything else (numbers, strings, lists, dictionaries, enums) is a leaf, as text.
  static func leaves(_ value: Any, at path: String = "") -> [String: String] {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .struct || mirror.displayStyle == .optional,
      !mirror.children.isEmpty
    else { return [path: describe(value)] }
    var found: [String: String] = [:]
    for child in mirror.children {
      let label = child.label ?? "?"
      let inner =
        mirror.displayStyle == .optional ? path : path.isEmpty ? label : "\(path).\(label)"
      found.merge(leaves(child.value, at: inner)) { first, _ in first }
    }
    return found
  }

  /// `value` as text, with the entries of dictionaries and sets sorted (their order is not theirs).
  static func describe(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .dictionary, .set:
      return "[" + mirror.children.map { describe($0.value) }.sorted().joined(separator: ", ") + "]"
    case .tuple, .collection, .struct, .enum, .optional, .class:
      guard !mirror.children.isEmpty else { return String(describing: value) }
      let children = mirror.children.map { ($0.label.map { "\($0): " } ?? "") + describe($0.value) }
      return "\(mirror.subjectType)(" + children.joined(separator: ", ") + ")"
    default: return String(describing: value)
    }
  }

  /// The paths of the stored values in which `a` and `b` differ, sorted.
  static func differences(_ a: DeviceProfile, _ b: DeviceProfile) -> [String] {
    let (left, right) = (leaves(a), leaves(b))
    return Set(left.keys).union(right.keys).filter { left[$0] != right[$0] }.sorted()
  }

  /// Copies `key`'s value, and its keys' values, from `source` to `target`.
  static func copy<Root>(_ key: ProfileKey<Root>, from source: Root, to target: inout Root) {
    if let value = key.read(source) { key.apply(&target, value) }
    for inner in key.keys { copy(inner, from: source, to: &target) }
  }

  @Test(arguments: ["appSwap", "zram"])
  func theFixtureSetsEveryStoredFieldToAValueOtherThanTheDefault(chosen: String) throws {
    let fixture = try Self.fixture(with: chosen)
    let left = Self.exclusive[chosen] ?? ""
    // The default-built profile with its optional objects (app swap) there with their own
    // defaults, so that their fields are compared one by one.
    var plain = Self.plain
    for key in DeviceProfile.jsonKeys where key.kind == .object { key.apply(&plain, .present) }
    let defaults = Self.leaves(plain)
    let leaves = Self.leaves(fixture).filter { $0.key != left && !$0.key.hasPrefix(left + ".") }
    #expect(leaves.count >= 24)
    for (path, value) in leaves.sorted(by: { $0.key < $1.key }) {
      #expect(
        defaults[path] != value,
        """
        DeviceProfile.\(path) is \(value) in the fixture, as in a default-built profile: give it a \
        key in DeviceProfile.jsonKeys (DeviceProfile+Keys.swift) whose example is not the default
        """)
    }
  }

  @Test(arguments: ["appSwap", "zram"])
  func readWrittenAndReadAgainKeepsEveryField(chosen: String) throws {
    let fixture = try Self.fixture(with: chosen)
    let standalone = try Self.load(ProfileWriter.json(fixture, standalone: true))
    #expect(Self.differences(standalone, fixture) == [])
    #expect(standalone == fixture)
    let inline = try Self.load(ProfileWriter.json(fixture, indent: "  "), inline: true)
    #expect(Self.differences(inline, fixture) == [])
    // What was derived is left out, so that it is derived again when read back.
    let plain = ProfileWriter.json(Self.plain, standalone: true)
    #expect(try Self.load(plain) == Self.plain)
    #expect(
      plain == """
        {
          "version": 1,
          "name": "Plain",
          "memory": "2GB",
          "reserved": "500MB"
        }
        """)
  }

  @Test func everyPolicySettingIsWrittenAsItIsRead() throws {
    var values: [String: [String: PolicySettingValue]] = [:]
    for policy in PolicyRegistry.all {
      for setting in policy.settings {
        values[policy.name, default: [:]][setting.key] =
          switch setting.kind {
          case .duration: .number(2_500)
          case .size: .number(mb(3))
          case .percent: .number(60)
          case .flag: .flag(true)
          case .integer(let range): .number(range.upperBound)
          case .ascendingSizes(let count): .numbers((1...count).map(mb))
          }
      }
    }
    var device = Self.plain
    device.policySettings = PolicySettings(values)
    let read = try Self.load(ProfileWriter.json(device, standalone: true))
    #expect(read.policySettings == device.policySettings)
  }

  @Test(arguments: ["appSwap", "zram"])
  func withMemoryKeepsEveryFieldButTheMemoryAndWhatIsDerivedFromIt(chosen: String) throws {
    let fixture = try Self.fixture(with: chosen)
    #expect(Self.differences(fixture.withMemory(mb(6144)), fixture) == ["memoryKB"])
    // The copy a run on another thread takes keeps every field too.
    #expect(Self.differences(fixture.unshared, fixture) == [])
    #expect(fixture.unshared == fixture)
    // With nothing given, the levels and the foreground limit follow the new memory.
    var derivedOnly = fixture
    derivedOnly.given = .init()
    let resized = derivedOnly.withMemory(mb(6144))
    let changed = Self.differences(resized, derivedOnly)
    #expect(changed.contains("derived.levels.criticalKB"))
    #expect(changed.allSatisfy { $0 == "memoryKB" || $0.hasPrefix("derived.") }, "\(changed)")
    let built = DeviceProfile(name: "", memoryKB: mb(6144), reservedKB: fixture.reservedKB)
    #expect(resized.derived == built.derived)
  }

  @Test(arguments: DeviceProfile.jsonKeys.filter { $0.kind != .version }.map(\.name))
  func changingOneKeyMakesProfilesUnequal(name: String) throws {
    let key = try #require(DeviceProfile.jsonKeys.first { $0.name == name })
    var changed = Self.plain
    Self.copy(
      key, from: try Self.fixture(with: Self.exclusive[name] == nil ? "appSwap" : name),
      to: &changed)
    #expect(Self.differences(changed, Self.plain) != [])
    #expect(changed != Self.plain)
  }

  @Test func theDocsListEveryDeviceKeyAsDeclared() throws {
    let docs = try String(contentsOfFile: "\(packageRoot)/docs/profiles.md", encoding: .utf8)
    let header = "| key | required | meaning | default | example |"
    let section = try #require(
      docs.components(separatedBy: "## Device profile\n").dropFirst().first)
    let table = try #require(section.components(separatedBy: header + "\n").dropFirst().first)
    let rows = table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
      .prefix { $0.hasPrefix("|") }.map(String.init)
    let expected = DeviceProfile.jsonKeys.map { key in
      let required = key.kind == .version ? "yes (in a file)" : key.required ? "yes" : "no"
      let cells = ["`\(key.name)`", required, key.meaning, key.defaultText, "`\(key.example)`"]
      return "|" + cells.map { $0.isEmpty ? " " : " \($0) " }.joined(separator: "|") + "|"
    }
    #expect(
      rows == expected,
      "docs/profiles.md's device table, after \(header), should be:\n\(expected.joined(separator: "\n"))"
    )
  }
}
