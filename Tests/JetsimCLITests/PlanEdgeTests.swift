import Foundation
import JetsimTestSupport
import Testing

/// `jetsim plan` and `jetsim what-if` at their edges: devices whose plans would share a folder,
/// an answer at the smallest size tried, sizes a device does not validate at, the seeds' cap,
/// and an app over its own memory limit.
@Suite struct PlanEdgeTests {
  /// Two device files of one name would plan into one folder, the second plan replacing the
  /// first: refused before anything runs, naming both files.
  @Test func devicesPlanningIntoOneFolderAreRefused() throws {
    let scratch = try ScratchFolder()
    let device = try String(
      contentsOfFile: packagePath("Profiles/devices/iphone-8.json"), encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: scratch.file("a"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: scratch.file("b"), withIntermediateDirectories: true)
    let first = try scratch.write("a/iphone-8.json", device)
    let second = try scratch.write("b/iphone-8.json", device)
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "kills-per-hour<=1", "--devices",
      "\(first),\(second)", "--out", scratch.file("p"),
    ])
    #expect(result.status == 64)
    #expect(result.errors.contains("'\(first)' and '\(second)' would both plan into the folder"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("p")))
  }

  /// A file's name up to `.json` names its folder: `a.v1.json` and `a.v2.json` do not collide.
  @Test func dottedFileNamesPlanIntoFoldersOfTheirOwn() throws {
    let scratch = try ScratchFolder()
    let device = try String(
      contentsOfFile: packagePath("Profiles/devices/iphone-8.json"), encoding: .utf8)
    let first = try scratch.write("a.v1.json", device)
    let second = try scratch.write("a.v2.json", device)
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "warm-resume-ratio>=0.9", "--seeds", "2",
      "--min", "1GB", "--max", "2GB", "--precision", "512MB", "--devices", "\(first),\(second)",
      "--out", scratch.file("p"), "--quiet",
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(try scratch.contents("p") == ["a.v1", "a.v2"])
  }
}
