import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// Every kind of bad input gets one clear error naming the file, the key or line, and the fix.
@Suite struct ProfileLoaderTests {
  let scratch: ScratchFolder
  let appJSON = #"{"version": 1, "id": "com.example.notes", "resident": "45MB"}"#

  init() throws { scratch = try ScratchFolder() }

  func scenario(_ body: String, apps: String? = nil) -> String {
    """
    {"version": 1, "name": "s", "device": {"name": "d", "memory": "1GB", "reserved": "200MB"},
     "apps": [\(apps ?? appJSON)], \(body)}
    """
  }

  @Test func aShippedScenarioLoads() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    #expect(scenario.device.name == "iPhone 8")
    #expect(scenario.device.foregroundLimitKB == mb(1364))
    #expect(scenario.apps.count == 14)
    #expect(scenario.actions.first == TimedAction(0, .open("com.example.weather")))
  }

  /// Validation reads a user model, it does not draw it: the check of a 2,400-hour model with 10,000
  /// wakes reads its one script action, not the hundreds of millions of actions the run will draw.
  @Test func checkingAWorkloadDoesNotDrawTheUserModel() throws {
    let wakes = (0..<10_000).map { _ in
      #"{"app": "com.example.notes", "perHour": 3600, "duration": "1s"}"#
    }
    let path = try scratch.write(
      "model.json",
      scenario(
        #""duration": "2400h", "script": [{"at": "0s", "action": "open", "app": "com.example.notes"}], "userModel": {"wakes": [\#(wakes.joined(separator: ","))]}"#
      ))
    let loaded = try ProfileLoader.scenario(at: path)
    #expect(loaded.userModel?.wakes.count == 10_000)
    #expect(try loaded.checkWorkload() == 1, "the script's action alone")
    // The run still draws the model: its first actions are the model's.
    var workload = try loaded.workload()
    var steps = 0
    while steps < 1_000, workload.next() != nil { steps += 1 }
    #expect(steps == 1_000 && workload.failure == nil)
  }

  @Test func aMissingFile() {
    #expect(throws: JetsimError.fileNotFound(path: "\(scratch.path)/nope.json")) {
      try ProfileLoader.scenario(at: "\(scratch.path)/nope.json")
    }
  }

  /// A profile a scenario names that does not exist: the error names it, the scenario and the key
  /// where its path is written.
  @Test func aMissingProfileNamesTheScenarioAndTheKey() throws {
    let app = try scratch.write("a.json", #"{"version": 1, "id": "a", "resident": "40MB"}"#)
    let scenario = try scratch.write(
      "s.json",
      #"{"version": 1, "name": "s", "device": {"name": "d", "memory": "2GB", "reserved": "500MB"}, "apps": ["a.json", "b.json"], "script": [{"at": "0s", "action": "open", "app": "a"}]}"#
    )
    #expect(try ProfileLoader.app(at: app).id == "a")
    #expect(
      throws: JetsimError.unreadable(
        path: scratch.file("b.json"),
        reason: "it does not exist; \(scenario) names it at 'apps[1]', from its own folder")
    ) { try ProfileLoader.scenario(at: scenario) }
  }

  @Test func malformedJSONNamesTheFileAndWhere() throws {
    let file = try scratch.write("broken.json", "{\"version\": 1,\n  \"name\": }")
    do {
      _ = try ProfileLoader.app(at: file)
      Issue.record("expected an error")
    } catch {
      guard case .malformedJSON(let path, let detail) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == file)
      #expect(!detail.isEmpty && !detail.contains("\n"))
    }
  }

  /// A key given twice is named where each of the two is: its line and column, on one line or
  /// many, in a small object or a large one (past 16 keys, another lookup finds the first).
  @Test(arguments: [
    (#"{"version": 1, "id": "x", "id": "y"}"#, "line 1, column 27", "first at line 1, column 16"),
    (
      "{\n \"version\": 1,\n \"id\":\n   \"x\",\n  \"id\": \"y\"}", "line 5, column 3",
      "first at line 3, column 2"
    ),
    (
      "{" + (1...20).map { "\"k\($0)\": 1, " }.joined() + "\n\"k3\": 2}", "line 2, column 1",
      "first at line 1, column 20"
    ),
  ])
  func aKeyGivenTwiceIsNamedWhereBothAre(text: String, at: String, first: String) throws {
    let error = #expect(throws: JSONParser.SyntaxError.self) {
      try JSONParser.parse(Array(text.utf8))
    }
    #expect(
      error.map { "\($0)" }?.hasPrefix("\(at): the key ") == true, "\(String(describing: error))")
    #expect(
      error?.message.contains("appears twice in one object (\(first)); keep one") == true,
      "\(String(describing: error))")
  }

  @Test func anUnknownKeySuggestsTheNearestOne() throws {
    let file = try scratch.write("app.json", #"{"version": 1, "id": "x", "resdent": "45MB"}"#)
    #expect(
      throws: JetsimError.unknownKey(
        path: file, keyPath: "resdent", suggestion: "resident",
        valid: AppProfile.keys.filter { $0 != "version" })
    ) {
      try ProfileLoader.app(at: file)
    }
  }

  @Test func anUnknownKeyInsideAScenarioHasItsKeyPath() throws {
    let file = try scratch.write(
      "s.json",
      scenario(
        #""script": [{"at": "0s", "action": "open", "app": "x"}]"#,
        apps: #"{"id": "x", "resident": "1MB", "cahces": "2MB"}"#))
    #expect(
      throws: JetsimError.unknownKey(
        path: file, keyPath: "apps[0].cahces", suggestion: "caches",
        valid: AppProfile.keys.filter { $0 != "version" })
    ) {
      try ProfileLoader.scenario(at: file)
    }
  }

  @Test func anUnknownKeyWithNoNearNameListsTheValidOnes() throws {
    let file = try scratch.write(
      "d.json", #"{"version": 1, "name": "d", "memory": "1GB", "reserved": "1MB", "weight": "1GB"}"#
    )
    let error = try #require(throws: JetsimError.self) { try ProfileLoader.device(at: file) }
    #expect(
      "\(error)".hasSuffix(
        "unknown key 'weight'; valid keys: \(DeviceProfile.keys.dropFirst().joined(separator: ", "))"
      ))
  }

  /// A file of one kind read where another belongs is named for what it is, by the keys that
  /// mark its kind, not by the first key the reader does not know.
  @Test(arguments: [
    ("sweep", "scenario", "a sweep file (it has 'scenario' and 'axes')", "a scenario"),
    ("device", "scenario", "a device profile (it has 'memory')", "a scenario"),
    ("app", "scenario", "an app profile (it has 'id' and 'resident')", "a scenario"),
    ("app", "device", "an app profile (it has 'id' and 'resident')", "a device profile"),
    ("device", "app", "a device profile (it has 'memory')", "an app profile"),
    ("scenario", "app", "a scenario (it has 'device' and 'apps')", "an app profile"),
  ])
  func aFileOfAnotherKindIsNamedForWhatItIs(
    document: String, readAs: String, found: String, expected: String
  ) throws {
    let documents = [
      "sweep": #"{"version": 1, "name": "w", "scenario": "s.json", "axes": {"seed": "1..2"}}"#,
      "device": #"{"version": 1, "name": "d", "memory": "1GB", "reserved": "200MB"}"#,
      "app": appJSON,
      "scenario": scenario(#""script": [{"at": "0s", "action": "home"}]"#),
    ]
    let file = try scratch.write("\(document).json", try #require(documents[document]))
    let error = JetsimError.invalidValue(
      path: file, keyPath: "(top level)", value: found, expected: expected)
    #expect(throws: error) {
      switch readAs {
      case "scenario": _ = try ProfileLoader.scenario(at: file)
      case "device": _ = try ProfileLoader.device(at: file)
      default: _ = try ProfileLoader.app(at: file)
      }
    }
  }

  /// A file with the marks of the kind expected keeps the error of its unknown key, even when that
  /// key marks another kind (`memory` at a scenario's top level is a mistake in a scenario).
  @Test func aFileOfTheRightKindWithAnotherKindsKeyKeepsItsUnknownKey() throws {
    let file = try scratch.write(
      "s.json", scenario(#""script": [{"at": "0s", "action": "home"}], "memory": "1GB""#))
    let error = try #require(throws: JetsimError.self) { try ProfileLoader.scenario(at: file) }
    guard case .unknownKey(_, let keyPath, _, _) = error else {
      Issue.record("expected an unknown key, got \(error)")
      return
    }
    #expect(keyPath == "memory")
  }

  @Test func aMissingRequiredKey() throws {
    let file = try scratch.write("app.json", #"{"version": 1, "id": "x"}"#)
    #expect(throws: JetsimError.missingKey(path: file, keyPath: "resident")) {
      try ProfileLoader.app(at: file)
    }
  }

  @Test(arguments: [#""350""#, #""-5MB""#, "350", #""350 megabytes""#])
  func aSizeWithoutAValidUnit(value: String) throws {
    let file = try scratch.write("app.json", #"{"version": 1, "id": "x", "resident": \#(value)}"#)
    do {
      _ = try ProfileLoader.app(at: file)
      Issue.record("expected an error")
    } catch {
      guard case .invalidValue(let path, let keyPath, _, let expected) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == file && keyPath == "resident" && expected == Units.sizeForm)
    }
  }

  /// The freezer's keys (`DeviceProfile.Freezer`): absent, no freezer; given empty, the kernel's
  /// defaults; a bad value or an unknown key is a one-line error naming the file and the key.
  @Test(arguments: [
    (#"{"slots": 0}"#, "freezer.slots", "a whole number from 1 to 1000"),
    (#"{"dailyBudget": "0MB"}"#, "freezer.dailyBudget", "at least 16KB, one page"),
    (#"{"dailyBudget": "1KB"}"#, "freezer.dailyBudget", "at least 16KB, one page"),
    (#"{"threshold": 5}"#, "freezer.threshold", Units.sizeForm),
    (
      #"{"threshold": "4GB"}"#, "freezer.threshold",
      "more than 0KB and less than memory (4GB)"
    ),
    (#"{"maxFreeze": "0MB"}"#, "freezer.maxFreeze", "more than 0KB"),
  ])
  func badFreezerKeys(freezer: String, key: String, expected: String) throws {
    let device = #"{"version": 1, "name": "d", "memory": "4GB", "reserved": "1GB""#
    let plain = try ProfileLoader.device(at: try scratch.write("plain.json", device + "}"))
    #expect(plain.freezer == nil)
    let empty = try ProfileLoader.device(
      at: try scratch.write("empty.json", device + #", "freezer": {}}"#))
    #expect(empty.freezer == DeviceProfile.Freezer())
    let file = try scratch.write("device.json", device + #", "freezer": \#(freezer)}"#)
    Self.expectInvalid(file, key, expected) { () throws(JetsimError) in
      _ = try ProfileLoader.device(at: file)
    }
  }

  /// Expects `load` to refuse `file` in one line naming `key` and what is `expected` there.
  static func expectInvalid(
    _ file: String, _ key: String, _ expected: String, _ load: () throws(JetsimError) -> Void
  ) {
    do {
      try load()
      Issue.record("expected an error")
    } catch {
      guard case .invalidValue(let path, let keyPath, _, let want) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == file && keyPath == key && want == expected)
      #expect(!error.description.contains("\n"))
    }
  }

  /// Separate active and inactive limits: each more than 0KB, each fatal flag a boolean given
  /// only with its limit; the error names the file and the key.
  @Test(arguments: [
    (#""activeLimit": "0MB""#, "activeLimit", "more than 0KB"),
    (#""activeLimit": "80MB", "activeLimitFatal": "yes""#, "activeLimitFatal", "true or false"),
    (#""inactiveLimitFatal": true"#, "inactiveLimitFatal", "given only with `inactiveLimit`"),
  ])
  func badMemoryLimits(keys: String, key: String, expected: String) throws {
    let file = try scratch.write(
      "app.json", #"{"version": 1, "id": "x", "resident": "45MB", \#(keys)}"#)
    Self.expectInvalid(file, key, expected) { () throws(JetsimError) in
      _ = try ProfileLoader.app(at: file)
    }
  }

  @Test func memoryLimitsLoadAndAreWrittenBack() throws {
    let json =
      #"{"version": 1, "id": "x", "resident": "45MB", "activeLimit": "80MB", "#
      + #""activeLimitFatal": true, "inactiveLimit": "50MB"}"#
    let app = try ProfileLoader.app(at: try scratch.write("app.json", json))
    #expect(app.activeLimitKB == mb(80) && app.activeLimitFatal == true)
    #expect(app.inactiveLimitKB == mb(50) && app.inactiveLimitFatal == nil)
    let written = ProfileWriter.json(app, standalone: true)
    let again = try ProfileLoader.app(at: try scratch.write("again.json", written))
    #expect(again == app)
  }

  @Test func aDurationWithoutAValidUnit() throws {
    let file = try scratch.write("s.json", scenario(#""script": [{"at": "10", "action": "home"}]"#))
    #expect(
      throws: JetsimError.invalidValue(
        path: file, keyPath: "script[0].at", value: "\"10\"", expected: Units.durationForm)
    ) { try ProfileLoader.scenario(at: file) }
  }

  @Test func anUnsupportedVersion() throws {
    let file = try scratch.write("app.json", #"{"version": 2, "id": "x", "resident": "1MB"}"#)
    #expect(throws: JetsimError.unsupportedVersion(path: file, found: 2, supported: 1)) {
      try ProfileLoader.app(at: file)
    }
  }

  @Test func anAppIdTheScenarioDoesNotDefine() throws {
    let file = try scratch.write(
      "s.json", scenario(#""script": [{"at": "0s", "action": "open", "app": "com.example.nots"}]"#))
    #expect(
      throws: JetsimError.unknownApp(
        path: file, location: "script[0]", id: "com.example.nots", suggestion: "com.example.notes")
    ) { try ProfileLoader.scenario(at: file) }
  }

  @Test func anUnknownActionInAScript() throws {
    let file = try scratch.write(
      "s.json", scenario(#""script": [{"at": "0s", "action": "opne", "app": "com.example.notes"}]"#)
    )
    do {
      _ = try ProfileLoader.scenario(at: file)
      Issue.record("expected an error")
    } catch {
      #expect("\(error)".contains("script[0].action"))
      #expect("\(error)".contains("did you mean 'open'?"))
    }
  }

  @Test func anUndeclaredBackgroundMode() throws {
    let file = try scratch.write(
      "s.json",
      scenario(
        #""script": [{"at": "0s", "action": "mode-start", "app": "com.example.notes", "mode": "audio"}]"#
      ))
    #expect(
      "\(try #require(throws: JetsimError.self) { try ProfileLoader.scenario(at: file) })".contains(
        "backgroundModes"))
  }

  @Test func anUnknownPolicyInAScenario() throws {
    let file = try scratch.write(
      "s.json", scenario(#""policy": "largest-frist", "script": [{"at": "0s", "action": "home"}]"#))
    let error = try #require(throws: JetsimError.self) { try ProfileLoader.scenario(at: file) }
    #expect("\(error)".contains("'policy'"))
    #expect("\(error)".contains("did you mean 'largest-first'?"))
  }

  @Test func aDeviceWhoseReservedMemoryExceedsItsMemory() throws {
    let file = try scratch.write(
      "d.json", #"{"version": 1, "name": "d", "memory": "1GB", "reserved": "2GB"}"#)
    let error = try #require(throws: JetsimError.self) { try ProfileLoader.device(at: file) }
    #expect("\(error)".contains("'reserved'"))
  }

  @Test func twoAppsWithOneId() throws {
    let file = try scratch.write(
      "s.json",
      scenario(#""script": [{"at": "0s", "action": "home"}]"#, apps: appJSON + "," + appJSON))
    #expect(
      throws: JetsimError.duplicateApp(
        path: file, id: "com.example.notes", places: ["apps[0]", "apps[1]"])
    ) {
      try ProfileLoader.scenario(at: file)
    }
    // Apps read from files are named by the file as well.
    try scratch.write("notes.json", appJSON)
    let files = try scratch.write(
      "files.json",
      scenario(#""script": [{"at": "0s", "action": "home"}]"#, apps: "\"notes.json\"," + appJSON))
    let error = try #require(throws: JetsimError.self) { try ProfileLoader.scenario(at: files) }
    #expect(
      "\(error)"
        == "\(files): 'com.example.notes' is defined twice, at apps[0] (notes.json) and apps[1]; give each app and system process its own name"
    )
  }

  @Test func aTraceLineOutOfTimeOrder() throws {
    let trace = try scratch.write("t.csv", "time_ms,action,app,value\n100,home,,\n50,home,,\n")
    #expect(
      throws: JetsimError.traceLine(
        path: trace, line: 3,
        message: "time_ms 50 is before the previous line's 100; sort the trace by time")
    ) {
      try ProfileLoader.trace(at: trace)
    }
  }

  @Test func aTraceLineWithAnUnknownAction() throws {
    let trace = try scratch.write(
      "t.csv", "time_ms,action,app,value\n0,launch,com.example.notes,\n")
    let error = try #require(throws: JetsimError.self) { try ProfileLoader.trace(at: trace) }
    #expect("\(error)".hasPrefix("\(trace):2: unknown action 'launch'"))
  }

  @Test func aTraceWithTheWrongHeader() throws {
    let trace = try scratch.write("t.csv", "time,action,app\n0,home,\n")
    let error = try #require(throws: JetsimError.self) { try ProfileLoader.trace(at: trace) }
    #expect("\(error)".contains(":1: the header must be time_ms,action,app,value"))
  }

  @Test func aTraceNamingAnUndefinedAppIsReportedAtItsLine() throws {
    let trace = try scratch.write(
      "t.csv", "time_ms,action,app,value\n0,open,com.example.notes,\n5,open,com.example.mail,\n")
    let file = try scratch.write("s.json", scenario(#""trace": "t.csv""#))
    #expect(
      throws: JetsimError.traceLine(
        path: trace, line: 3,
        message:
          "'com.example.mail' is not an app or system process of the scenario; add its profile to 'apps' (or the device's 'systemProcesses')"
      )
    ) {
      try ProfileLoader.scenario(at: file)
    }
  }

  @Test func relativePathsStartAtTheScenarioFile() throws {
    try FileManager.default.createDirectory(
      atPath: scratch.path + "/apps", withIntermediateDirectories: true)
    try scratch.write("apps/notes.json", appJSON)
    let file = try scratch.write(
      "s.json",
      scenario(
        #""script": [{"at": "0s", "action": "home"}]"#, apps: #""apps/../apps/./notes.json""#))
    #expect(try ProfileLoader.scenario(at: file).apps.first?.id == "com.example.notes")
    #expect(ProfileLoader.resolve("../b/c.json", from: "x/y") == "x/b/c.json")
    #expect(ProfileLoader.resolve("../../c.json", from: "x") == "../c.json")
    #expect(ProfileLoader.resolve("c.json", from: "/abs/dir") == "/abs/dir/c.json")
  }

  @Test func everyErrorIsOneLine() throws {
    let errors: [JetsimError] = [
      .fileNotFound(path: "a"), .unreadable(path: "a", reason: "r"),
      .malformedJSON(path: "a", detail: "d"),
      .unknownKey(path: "a", keyPath: "k", suggestion: nil, valid: ["x"]),
      .missingKey(path: "a", keyPath: "k"),
      .invalidValue(path: "a", keyPath: "k", value: "v", expected: "e"),
      .unsupportedVersion(path: "a", found: 2, supported: 1),
      .unknownApp(path: "a", location: "l", id: "i", suggestion: "j"),
      .duplicateApp(path: "a", id: "i", places: ["apps[0]", "apps[1]"]),
      .traceLine(path: "a", line: 1, message: "m"), .unknownPolicy(name: "n", valid: ["x"]),
      .outputNotWritable(path: "a", reason: "r"),
      .invalidEviction(policy: "p", app: "a", problem: "s"),
    ]
    for error in errors { #expect(!error.description.contains("\n")) }
  }
}
