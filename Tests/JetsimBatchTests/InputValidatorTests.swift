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
}
