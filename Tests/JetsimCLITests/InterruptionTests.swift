import Foundation
import JetsimTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// docs/hardening.md: an interrupted command (Ctrl-C's SIGINT, a scheduler's SIGTERM) leaves
/// nothing that was not there before, says so in one line, and exits 128 plus the signal.
@Suite struct InterruptionTests {
  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func anInterruptedRunLeavesNothingBehind(signal: Int32, status: Int32) throws {
    let scratch = try ScratchFolder()
    let process = Process()
    process.executableURL = try jetsimBinary()
    process.arguments = [
      "run", "\(packageRoot)/Profiles/scenarios/heavy-social-4gb.json", "--duration", "30000h",
      "--out", scratch.path + "/longrun", "--quiet",
    ]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    // Interrupted while it writes: once its staging area and lock are there.
    let deadline = Date().addingTimeInterval(30)
    var entries: [String] = []
    while Date() < deadline, process.isRunning {
      entries = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
      if entries.contains(where: { $0.hasPrefix(".jetsim-staging-") }) { break }
      usleep(1_000)
    }
    #expect(entries.contains { $0.hasPrefix(".jetsim-staging-") }, "\(entries)")
    #expect(entries.contains(".longrun.jetsim-lock"), "\(entries)")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == status)
    #expect(text.hasPrefix("jetsim: interrupted (SIG"), "\(text)")
    #expect(text.filter { $0 == "\n" }.count == 1, "\(text)")
    #expect((try FileManager.default.contentsOfDirectory(atPath: scratch.path)) == [])
  }
}
