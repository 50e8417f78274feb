import Foundation
import JetsimTestSupport
import Testing

/// `jetsim run` and `jetsim sweep` killed (SIGKILL) at many points: the report folder is always the
/// old complete set or the new one, a killed sweep resumes or restarts to the very files an
/// uninterrupted sweep writes, and no staging folder outlives the next command (docs/hardening.md).
@Suite(.serialized) struct FaultTests {
  /// Starts the built `jetsim` with `arguments` in `folder`, kills it after `delay` seconds if it
  /// is still running, and returns whether it was killed.
  func killed(_ arguments: [String], in folder: String, after delay: Double) throws -> Bool {
    let process = Process()
    process.executableURL = try jetsimBinary()
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    Thread.sleep(forTimeInterval: delay)
    let running = process.isRunning
    if running { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return running && process.terminationReason == .uncaughtSignal
  }

  /// The names in `folder` that are jetsim's staging folders.
  func staging(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasPrefix(".jetsim-staging")
    }
  }

  func contents(_ folder: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: "\(folder)/\(name)", isDirectory: &isFolder),
        !isFolder.boolValue
      {
        files[name] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
      }
    }
    return files
  }

  @Test func aKilledRunLeavesTheOldReportsAndTheNextRunCleansUp() throws {
    let scratch = try ScratchFolder()
    let original = try String(contentsOfFile: scenarioPath("heavy-social-4gb"), encoding: .utf8)
    let long = try scratch.write(
      "long.json",
      original.replacingOccurrences(of: "\"../", with: "\"\(packageRoot)/Profiles/")
        .replacingOccurrences(of: "\"duration\": \"8h\"", with: "\"duration\": \"2000h\""))
    let out = scratch.file("out")
    #expect(
      try jetsim(["run", scenarioPath("worked-example"), "--out", out, "--quiet"]).status == 0)
    let before = try contents(out)
    var kills = 0
    for delay in [0.02, 0.1, 0.25, 0.5, 0.8, 1.2] {
      if try killed(["run", long, "--out", out, "--quiet"], in: scratch.path, after: delay) {
        kills += 1
        // Killed at any point: the folder is still the old, complete set.
        #expect(try contents(out) == before, "killed after \(delay) s")
      }
    }
    #expect(kills >= 3, "the run finished too soon to be killed")
    // The next run cleans what the killed ones left, and its reports are complete.
    #expect(
      try jetsim(["run", scenarioPath("lifecycle-tour"), "--out", out, "--quiet"]).status == 0)
    #expect(try staging(in: scratch.path).isEmpty)
    let after = try contents(out)
    #expect(Set(after.keys) == Set(before.keys))
    let golden = try contents("\(packageRoot)/Reports/golden/lifecycle-tour")
    #expect(
      after["kills.csv"] == golden["kills.csv"] && after["events.csv"] == golden["events.csv"])
  }

  @Test func aKilledSweepResumesOrRestartsToTheSameFiles() throws {
    let scratch = try ScratchFolder()
    let sweep = try scratch.write(
      "sweep.json",
      """
      {"version": 1, "name": "fault", "scenario": "\(scenarioPath("heavy-social-4gb"))",
       "axes": {"memory": ["2GB", "3GB", "4GB"], "policy": ["largest-first", "jetsam"], "seeds": "1..60"}}
      """)
    let reference = scratch.file("reference")
    #expect(try jetsim(["sweep", sweep, "--out", reference, "--quiet"]).status == 0)
    let expected = try contents(reference)
    #expect(expected["sweep.csv"] != nil && expected["sweep-summary.csv"] != nil)

    // Killed again and again, resumed each time: the work done is kept, and the end is the same.
    let out = scratch.file("out")
    var kills = 0
    for delay in [0.01, 0.05, 0.15, 0.3, 0.5] {
      let arguments = ["sweep", sweep, "--out", out, "--quiet", "--resume"]
      if try killed(arguments, in: scratch.path, after: delay) { kills += 1 }
    }
    #expect(kills >= 3, "the sweep finished too soon to be killed")
    #expect(try jetsim(["sweep", sweep, "--out", out, "--quiet", "--resume"]).status == 0)
    #expect(try contents(out) == expected)
    #expect(try staging(in: scratch.path).isEmpty && staging(in: out).isEmpty)

    // Killed, then started over without --resume: the same files again.
    let fresh = scratch.file("fresh")
    _ = try killed(["sweep", sweep, "--out", fresh, "--quiet"], in: scratch.path, after: 0.2)
    let restart = try jetsim(["sweep", sweep, "--out", fresh, "--quiet"])
    #expect(restart.status == 0, "\(restart.errors)")
    #expect(try contents(fresh) == expected)
    #expect(try staging(in: scratch.path).isEmpty && staging(in: fresh).isEmpty)
  }
}
