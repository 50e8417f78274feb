import Foundation
import Jetsim
import JetsimTestSupport
import Testing

/// docs/example-package is a user's package with jetsim in its test target (docs/regression-testing.md):
/// its tests must build and pass against this checkout.
@Suite struct ExamplePackageTests {
  @Test func theExamplePackagesTestsBuildAndPass() throws {
    // An existing build folder does not notice source files added to a path dependency, so the
    // folder is named after the list of jetsim's source files: a new file means a fresh build.
    let sources = FileManager.default.enumerator(atPath: "\(packageRoot)/Sources")?.allObjects
      .compactMap { $0 as? String }
    let key = SHA256.hex(Array((sources ?? []).sorted().joined(separator: "\n").utf8)).prefix(16)
    let scratch = NSTemporaryDirectory() + "jetsim-example-package-\(key)"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swift", "test", "--package-path", "\(packageRoot)/docs/example-package", "--scratch-path",
      scratch,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text.suffix(3000))")
    #expect(text.contains("Test run with 2 tests"), "both Swift Testing tests ran")
    #expect(text.contains("Executed 1 test, with 0 failures"), "the XCTest test ran")
  }
}
