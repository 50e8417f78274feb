import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

@Suite struct PolicySettingsJSONTests {
  let scratch: ScratchFolder

  init() throws { scratch = try ScratchFolder() }

  func scenario(
    device extra: String = "", scenario settings: String = "", reserved: String = "200MB"
  )
    throws -> Scenario
  {
    let file = try scratch.write(
      "s.json",
      """
      {"version": 1, "name": "s", "policy": "jetsam",
       "device": {"name": "d", "memory": "1GB", "reserved": "\(reserved)"\(extra)},
       "apps": [{"id": "a", "resident": "1MB"}], \(settings) "script": [{"at": "0s", "action": "home"}]}
      """)
    return try ProfileLoader.scenario(at: file)
  }

  @Test func defaultsAreTheRealSystemsValues() throws {
    let settings = try scenario().effectivePolicySettings
    #expect(settings == PolicySettings())
    #expect(JetsamPolicy.Parameters().agingTimeMs == 2_000)
    #expect(JetsamPolicy.Bands().foreground == 100 && JetsamPolicy.Bands().audioAndAccessory == 120)
    #expect(LmkdPolicy.Parameters().killHeaviest == false)
  }

  /// A value of `kind` other than the one the test starts from (`checkReadsBack` checks it), so
  /// reading it back proves the field was set.
  static func probe(_ kind: PolicySettingKind) -> PolicySettingValue {
    switch kind {
    case .duration: .number(12_345)
    case .size: .number(4_096)
    case .percent: .number(37)
    case .integer(let range): .number(range.lowerBound + 3)
    case .flag: .flag(false)
    case .ascendingSizes(let count): .numbers((1...count).map { $0 * 1_024 })
    }
  }

  /// Each setting reads back what it sets, from `defaults` where it had another value: a setting
  /// whose reading and setting name different fields fails here.
  func checkReadsBack<Parameters>(_ settings: [PolicySetting<Parameters>], defaults: Parameters) {
    for setting in settings {
      var parameters = defaults
      let value = Self.probe(setting.kind)
      setting.apply(&parameters, value)
      #expect(setting.read(parameters) == value, "\(setting.key)")
      #expect(setting.read(defaults) != value, "\(setting.key): the probe is its value already")
    }
  }

  @Test func eachSettingReadsBackTheFieldItSets() {
    checkReadsBack(JetsamPolicy.settings, defaults: JetsamPolicy.Parameters())
    var flagsOn = LmkdPolicy.Parameters()
    flagsOn.useMinfreeLevels = true
    flagsOn.killHeaviest = true
    checkReadsBack(LmkdPolicy.settings, defaults: flagsOn)
  }

  /// The defaults `jetsim policies` shows are the kernels': XNU's bands (kern_memorystatus.h) and
  /// aging time, lmkd.cpp's `update_props` (line 4123) and ActivityManager's cached processes;
  /// those the policy derives show none.
  @Test func theRegistryShowsTheKernelsDefaults() throws {
    func defaults(_ policy: String) throws -> [String: PolicySettingValue?] {
      let registration = try #require(PolicyRegistry.registration(policy))
      return Dictionary(
        uniqueKeysWithValues: registration.settings.map { ($0.key, $0.defaultValue) })
    }
    let jetsam = try defaults("jetsam")
    #expect(jetsam["agingTime"] == .number(2_000) && jetsam["softLimit"] == .number(50))
    #expect(jetsam["idleThreshold"] == .some(nil))
    #expect(jetsam["bands.freezer"] == .number(75) && jetsam["bands.aging"] == .number(20))
    let lmkd = try defaults("lmkd")
    #expect(lmkd["lowmemMinOomScore"] == .number(701) && lmkd["psiCompleteStallMs"] == .number(700))
    #expect(
      lmkd["psiPartialStallMs"] == .number(70) && lmkd["swapFreeLowPercentage"] == .number(10))
    #expect(lmkd["maxCachedProcesses"] == .number(32) && lmkd["killHeaviest"] == .flag(false))
    #expect(lmkd["thrashingLimitCritical"] == .some(nil) && lmkd["watermarks"] == .some(nil))
  }

  @Test func theDocsListEverySettingAsDeclared() throws {
    let docs = try String(contentsOfFile: "\(packageRoot)/docs/profiles.md", encoding: .utf8)
    let header = "| policy | setting | meaning | value | default |"
    let table = try #require(docs.components(separatedBy: header + "\n").dropFirst().first)
    let rows = table.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }.map(
      String.init)
    let expected = PolicyRegistry.all.flatMap { policy in
      policy.settings.map {
        "| `\(policy.name)` | `\($0.key)` | \($0.summary) | \($0.kind.valueText) | \($0.defaultText) |"
      }
    }
    #expect(
      rows == expected,
      "docs/profiles.md's policy settings, after \(header), should be:\n\(expected.joined(separator: "\n"))"
    )
  }

  @Test func theScenarioOverridesTheDevicePolicyByPolicy() throws {
    let loaded = try scenario(
      device:
        #", "policyParameters": {"jetsam": {"agingTime": "5s"}, "lmkd": {"killHeaviest": true}}"#,
      scenario: #""policyParameters": {"jetsam": {"softLimit": "70%", "bands": {"idle": 5}}},"#)
    let settings = loaded.effectivePolicySettings
    #expect(settings["jetsam"] == ["softLimit": .number(70), "bands.idle": .number(5)])
    #expect(
      settings["jetsam"]["agingTime"] == nil,
      "the scenario's jetsam settings replace the device's whole")
    #expect(settings["lmkd"] == ["killHeaviest": .flag(true)])
    let policy = try #require(try loaded.makePolicy() as? JetsamPolicy)
    #expect(policy.parameters.softLimitPercent == 70)
    #expect(policy.parameters.bands.idle == 5)
    #expect(policy.parameters.agingTimeMs == 2_000)
    let lmkd = try #require(try loaded.makePolicy(.lmkd) as? LmkdPolicy)
    #expect(lmkd.parameters.killHeaviest)
  }

  @Test func lmkdMinfreeMustBeSixAscendingSizes() throws {
    let ok = try scenario(
      scenario:
        #""policyParameters": {"lmkd": {"minfree": ["1MB","2MB","3MB","4MB","5MB","6MB"]}},"#)
    #expect(
      ok.effectivePolicySettings["lmkd"]["minfree"]
        == .numbers([1024, 2048, 3072, 4096, 5120, 6144]))
    let lmkd = try #require(try ok.makePolicy(.lmkd) as? LmkdPolicy)
    #expect(lmkd.parameters.minfreeKB == [1024, 2048, 3072, 4096, 5120, 6144])
    #expect(throws: JetsimError.self) {
      try scenario(
        scenario:
          #""policyParameters": {"lmkd": {"minfree": ["2MB","1MB","3MB","4MB","5MB","6MB"]}},"#)
    }
  }

  /// Free memory and the page cache never exceed the memory beside the reserved memory (here
  /// 1GB − 200MB = 824MB): watermarks or minfree levels at or above it would hold the device under
  /// pressure from the first moment, so they are refused where they are given, naming the bound.
  @Test func lmkdLevelsMustFitBelowTheMemoryBesideTheReservedMemory() throws {
    let bound = "below the device's memory less its reserved memory (1GB − 200MB = 824MB)"
    let high = try #require(throws: JetsimError.self) {
      try scenario(scenario: #""policyParameters": {"lmkd": {"watermarks": ["3GB","4GB","5GB"]}},"#)
    }
    #expect(
      "\(high)"
        == "\(scratch.path)/s.json: 'policyParameters.lmkd.watermarks' is [3GB, 4GB, 5GB]; expected 3 sizes, ascending, \(bound)"
    )
    let atBound = try #require(throws: JetsimError.self) {
      try scenario(
        scenario: #""policyParameters": {"lmkd": {"watermarks": ["1MB","2MB","824MB"]}},"#)
    }
    #expect("\(atBound)".contains("'policyParameters.lmkd.watermarks' is [1MB, 2MB, 824MB]"))
    let minfree = try #require(throws: JetsimError.self) {
      try scenario(
        scenario:
          #""policyParameters": {"lmkd": {"minfree": ["1MB","2MB","3MB","4MB","5MB","1GB"]}},"#)
    }
    #expect(
      "\(minfree)".hasSuffix(
        "'policyParameters.lmkd.minfree' is [1MB, 2MB, 3MB, 4MB, 5MB, 1GB]; expected 6 sizes, ascending, \(bound)"
      ))
    // A device profile's own levels are checked against its own memory.
    let device = try #require(throws: JetsimError.self) {
      try scenario(device: #", "policyParameters": {"lmkd": {"watermarks": ["1MB","2MB","1GB"]}}"#)
    }
    #expect("\(device)".contains("'device.policyParameters.lmkd.watermarks' is [1MB, 2MB, 1GB]"))
    let fits = try scenario(
      scenario: #""policyParameters": {"lmkd": {"watermarks": ["100MB","200MB","823MB"]}},"#)
    #expect(fits.effectivePolicySettings["lmkd"]["watermarks"] != nil)
    // Derived watermarks too: on 1GB the highest factor, 3000, gives a high watermark of 618.4MB
    // (4MB + 2 × 1GB × 3000 ÷ 10,000), which fits beside 200MB reserved and not beside 800MB, where
    // 1074 is the most that fits (4,096KB + 2 × 112,617KB = 229,330KB, below 224MB = 229,376KB).
    _ = try scenario(scenario: #""policyParameters": {"lmkd": {"watermarkScaleFactor": 3000}},"#)
    let derived = try #require(throws: JetsimError.self) {
      try scenario(
        scenario: #""policyParameters": {"lmkd": {"watermarkScaleFactor": 3000}},"#,
        reserved: "800MB")
    }
    #expect(
      "\(derived)".hasSuffix(
        "'policyParameters.lmkd.watermarkScaleFactor' is 3000; expected at most 1074 on this device, whose derived high watermark must be below the device's memory less its reserved memory (1GB − 800MB = 224MB)"
      ))
  }

  /// Jetsam's bands are refused out of order (an app's band is the highest its state asks for, and
  /// kills climb from the lowest); equal bands are one band.
  @Test func jetsamBandsMustBeInOrder() throws {
    let error = try #require(throws: JetsimError.self) {
      try scenario(
        scenario: #""policyParameters": {"jetsam": {"bands": {"idle": 100, "foreground": 0}}},"#)
    }
    #expect(
      "\(error)"
        == "\(scratch.path)/s.json: 'policyParameters.jetsam.bands' is [100, 10, 20, 30, 40, 75, 0, 120]; expected bands idle ≤ daemonAging ≤ aging ≤ background ≤ elevatedInactive ≤ freezer ≤ foreground ≤ audioAndAccessory, each at or above the one before (unset ones are XNU's: 0, 10, 20, 30, 40, 75, 100, 120)"
    )
    #expect(throws: JetsimError.self) {
      try scenario(device: #", "policyParameters": {"jetsam": {"bands": {"freezer": 30}}}"#)
    }
    let equal = try scenario(
      scenario: #""policyParameters": {"jetsam": {"bands": {"freezer": 40, "foreground": 120}}},"#)
    #expect(equal.effectivePolicySettings["jetsam"]["bands.freezer"] == .number(40))
  }

  @Test func anUnknownPolicyNameListsTheValidOnes() throws {
    let error = try #require(throws: JetsimError.self) {
      try scenario(scenario: #""policyParameters": {"xnu": {}},"#)
    }
    #expect(
      "\(error)".contains(
        "unknown key 'policyParameters.xnu'; valid keys: \(PolicyRegistry.names.joined(separator: ", "))"
      ))
  }

  @Test func anUnknownSettingSuggestsTheNearestOne() throws {
    let error = try #require(throws: JetsimError.self) {
      try scenario(scenario: #""policyParameters": {"lmkd": {"killHeavist": true}},"#)
    }
    #expect(
      "\(error)".contains(
        "unknown key 'policyParameters.lmkd.killHeavist'; did you mean 'killHeaviest'?"))
    let none = try #require(throws: JetsimError.self) {
      try scenario(scenario: #""policyParameters": {"lru": {"x": 1}},"#)
    }
    #expect("\(none)".contains("'policyParameters.lru.x'; nothing may be set here"))
  }

  @Test func settingsChangeWhatThePolicyDoes() throws {
    var base = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    base.policy = .jetsam
    let standard = try Simulator.run(base)
    base.policySettings = PolicySettings([
      "jetsam": ["idleThreshold": .number(0), "softLimit": .number(100)]
    ])
    let changed = try Simulator.run(base)
    // XNU's idle critical level (10 % of memory here) kills (`idle-exit`) while available memory
    // is still above the device's critical level; with it at 0 %, jetsam waits for the device's
    // level.
    let critical = base.device.criticalThresholdKB
    func killsAboveCritical(_ result: RunResult) -> Int {
      result.kills.filter {
        $0.reason == .idleExit && $0.availableBeforeKB - $0.pendingKB >= critical
      }
      .count
    }
    #expect(killsAboveCritical(standard) > 0)
    #expect(killsAboveCritical(changed) == 0)
  }
}
