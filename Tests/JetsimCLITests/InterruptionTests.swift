import Foundation
import JetsimTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// docs/hardening.md: an interrupted command (Ctrl-C's SIGINT, a scheduler's SIGTERM) leaves
/// nothing that was not there before, the folders it made on the way to its output included,
/// says so in one line, and dies of the signal.
@Suite struct InterruptionTests {
  @Test(arguments: [SIGINT, SIGTERM])
  func anInterruptedRunLeavesNothingBehind(signal: Int32) throws {
    let scratch = try ScratchFolder()
    // Two folders that do not exist yet on the way to the output.
    let parent = scratch.path + "/new/a"
    let process = Process()
    process.executableURL = try jetsimBinary()
    process.arguments = [
      "run", "\(packageRoot)/Profiles/scenarios/heavy-social-4gb.json", "--duration", "30000h",
      "--out", parent + "/longrun", "--quiet",
    ]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    // Interrupted while it writes: once its staging area and lock are there.
    let deadline = Date().addingTimeInterval(30)
    var entries: [String] = []
    while Date() < deadline, process.isRunning {
      entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
      if entries.contains(where: { $0.hasPrefix(".jetsim-staging-") }) { break }
      usleep(1_000)
    }
    #expect(entries.contains { $0.hasPrefix(".jetsim-staging-") }, "\(entries)")
    #expect(entries.contains(".longrun.jetsim-lock"), "\(entries)")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    #expect(text.hasPrefix("jetsim: interrupted (SIG"), "\(text)")
    #expect(text.filter { $0 == "\n" }.count == 1, "\(text)")
    #expect((try FileManager.default.contentsOfDirectory(atPath: scratch.path)) == [])
  }
}
