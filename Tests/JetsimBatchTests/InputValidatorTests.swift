import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

/// `jetsim validate` reads each kind of file exactly as the command that uses it.
@Suite struct InputValidatorTests {
  @Test func everyShippedProfileIsValid() throws {
    for folder in ["devices", "apps", "scenarios", "sweeps"] {
      let path = "\(packageRoot)/Profiles/\(folder)"
      for file in try FileManager.default.contentsOfDirectory(atPath: path)
      where file.hasSuffix(".json") {
        let kind = try InputValidator.validate(at: "\(path)/\(file)")
        #expect(kind.rawValue == String(folder.dropLast()), "\(file)")
      }
    }
  }

  /// A MetricKit payload is told by any one of its keys, so that a payload that lacks some is read
  /// (and refused) as a payload, in the words `import-metrickit` uses.
  @Test func aPayloadMissingItsTimeStampIsStillAPayload() throws {
    let scratch = try ScratchFolder()
    let sample = try String(
      contentsOfFile: "\(packageRoot)/Profiles/metrickit/photofeed-2026-11-18.json", encoding: .utf8
    )
    #expect(
      try InputValidator.validate(at: scratch.write("whole.json", sample)) == .metricKitPayload)
    let broken = try scratch.write(
      "broken.json",
      sample.replacingOccurrences(of: "\"timeStampBegin\"", with: "\"begin\"")
        .replacingOccurrences(of: "\"applicationExitMetrics\"", with: "\"exits\""))
    let error = try #require(throws: JetsimError.self) { try InputValidator.validate(at: broken) }
    #expect("\(error)".contains("timeStampBegin"), "\(error)")
  }

  /// A user model in a file of its own is read as a user model, not as a scenario with unknown
  /// keys: the shipped one is valid, and a wrong key or value of one is named in a user model's
  /// words.
  @Test func aUserModelFileIsCheckedAsAUserModel() throws {
    let everyday = "\(packageRoot)/Profiles/user-models/everyday.json"
    #expect(try InputValidator.validate(at: everyday) == .userModel)
    let scratch = try ScratchFolder()
    let typo = try scratch.write(
      "typo.json", #"{"apps": ["a", "b"], "popularity": {"zipf": 1}, "dwel": "2m"}"#)
    let error = try #require(throws: JetsimError.self) { try InputValidator.validate(at: typo) }
    #expect("\(error)" == "\(typo): unknown key 'dwel'; did you mean 'dwell'?")
    let share = try scratch.write("share.json", #"{"switches": {"home": 2}}"#)
    let shareError = try #require(throws: JetsimError.self) {
      try InputValidator.validate(at: share)
    }
    #expect("\(shareError)".contains("'switches.home'"), "\(shareError)")
    let empty = try scratch.write("empty.json", #"{"apps": [], "gap": "1m"}"#)
    #expect(throws: JetsimError.self) { try InputValidator.validate(at: empty) }
    // A scenario that has a user model's keys at its top level by mistake is still a scenario.
    let scenario = try scratch.write(
      "scenario.json", #"{"version": 1, "name": "x", "device": "d.json", "apps": [], "gap": "1m"}"#)
    #expect(try InputValidator.kind(of: scenario) == .scenario)
  }

  /// A pipe could be read only once: validating it is refused in words, not read twice and
  /// called empty JSON.
  @Test func aPipeIsRefusedWithWhatToDo() throws {
    let scratch = try ScratchFolder()
    let path = scratch.file("scenario.json")
    #expect(mkfifo(path, 0o600) == 0)
    let error = #expect(throws: JetsimError.self) { try InputValidator.validate(at: path) }
    #expect(error.map { "\($0)" }?.contains("save it to a file and validate that") == true)
  }
}
