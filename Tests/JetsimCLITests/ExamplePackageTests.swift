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
    let result = try tool(
      "swift",
      ["test", "--package-path", "\(packageRoot)/docs/example-package", "--scratch-path", scratch])
    let text = result.output + result.errors
    #expect(result.status == 0, "\(text.suffix(3000))")
    #expect(text.contains("Test run with 2 tests"), "both Swift Testing tests ran")
    #expect(text.contains("Executed 1 test, with 0 failures"), "the XCTest test ran")
  }
}

/// The example package's golden is this jetsim's: recorded with this version's columns, from the
/// scenario it ships, and matching a run now, numbers included (re-record it with
/// `jetsim check docs/example-package/Scenarios/morning.json --expect
/// docs/example-package/Golden/morning --update` when the columns change).
@Suite struct ExamplePackageGoldenTests {
  @Test func theGoldenMatchesThisJetsimNumbersIncluded() throws {
    let example = "\(packageRoot)/docs/example-package"
    let scenario = try ProfileLoader.scenario(at: "\(example)/Scenarios/morning.json")
    let result = try GoldenCheck.check(
      scenario, against: "\(example)/Golden/morning", options: GoldenCheckOptions(numbers: true))
    #expect(result.passed, "\(result.report())")
    #expect(result.goldenVersion == nil, "recorded with this jetsim's columns")
    #expect(result.changedInputs == [])
  }
}

/// The dependency forms docs/regression-testing.md gives work on a clone of main with no tags: a
/// branch and a revision of this checkout resolve (`swift package resolve`, no build).
@Suite struct DependencyFormTests {
  func git(_ arguments: [String]) throws -> String {
    try tool("git", ["-C", packageRoot] + arguments).output.trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  @Test func aBranchAndARevisionResolve() throws {
    let branch = try git(["rev-parse", "--abbrev-ref", "HEAD"])
    let commit = try git(["rev-parse", "HEAD"])
    // A revision needs a git checkout; a branch, one that is on a branch (not a detached HEAD).
    try #require(commit.count == 40, "not a git checkout")
    var requirements = ["revision: \"\(commit)\""]
    if !branch.isEmpty, branch != "HEAD" { requirements.append("branch: \"\(branch)\"") }
    // SwiftPM names a package by the last component of its URL.
    let identity = URL(fileURLWithPath: packageRoot).lastPathComponent.lowercased()
    for requirement in requirements {
      let scratch = try ScratchFolder()
      _ = try scratch.write(
        "Package.swift",
        """
        // swift-tools-version: 6.0
        import PackageDescription
        let package = Package(
          name: "User",
          dependencies: [.package(url: "file://\(packageRoot)", \(requirement))],
          targets: [
            .target(name: "User", dependencies: [.product(name: "Jetsim", package: "\(identity)")])
          ]
        )
        """)
      _ = try scratch.write("Sources/User/User.swift", "import Jetsim\n")
      let result = try tool("swift", ["package", "--package-path", scratch.path, "resolve"])
      #expect(
        result.status == 0, "\(requirement): \((result.output + result.errors).suffix(2000))")
    }
  }
}
