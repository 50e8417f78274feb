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
