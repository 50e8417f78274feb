import Foundation
import JetsimTestSupport
import Testing

/// The inputs that crashed jetsim 0.1 (Tests/Corpus/crashers): each command must end in a run or
/// one line of error, never a signal. `FuzzerTests` looks for new ones.
@Suite struct CrasherCorpusTests {
  static let corpus = "\(packageRoot)/Tests/Corpus/crashers"
  static let names =
    ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).filter {
      FileManager.default.fileExists(atPath: "\(corpus)/\($0)/command")
    }.sorted()

  @Test func theCorpusIsThere() {
    #expect(Self.names.count == 10)
  }

  @Test(arguments: names)
  func aCrasherEndsInARunOrOneLineOfError(name: String) throws {
    let scratch = try ScratchFolder()
    let folder = scratch.file(name)
    try FileManager.default.copyItem(atPath: "\(Self.corpus)/\(name)", toPath: folder)
    let commands = try String(contentsOfFile: "\(folder)/command", encoding: .utf8)
      .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    for arguments in commands {
      let outcome = try jetsim(arguments, in: folder)
      #expect(!outcome.signaled, "\(name): jetsim \(arguments.joined(separator: " ")) crashed")
      // `check` exits 1 when the golden differs: that is its answer, not a failure.
      #expect([0, 1, 65].contains(outcome.status), "\(name): exit \(outcome.status)")
      if outcome.status == 65 {
        #expect(outcome.errors.hasPrefix("jetsim: ") && outcome.errors.hasSuffix("\n"))
        #expect(outcome.errors.dropLast().split(separator: "\n").count == 1, "\(outcome.errors)")
        #expect(outcome.errors.utf8.count < 400, "\(outcome.errors)")
      }
    }
  }

  @Test func aDurationOfMillionsOfSegmentsIsOneLineOfError() throws {
    // 2.2 million "1221000h" segments: each under the cap, their sum past Int.max.
    let scratch = try ScratchFolder()
    let segments = String(repeating: "1221000h", count: 2_200_000)
    let trace = try scratch.write(
      "long.csv",
      "time_ms,action,app,value\n0,open,com.example.mail,\n1000,wake,com.example.mail,\(segments)\n"
    )
    let validate = try jetsim(["validate", trace])
    #expect(!validate.signaled && validate.status == 65)
    #expect(validate.errors.contains("long.csv:3: a line longer than 1 MB"))
    let scenario = try scratch.write(
      "s.json",
      """
      {"version": 1, "name": "s", "device": {"name": "d", "memory": "1GB", "reserved": "100MB"},
       "apps": [{"id": "a", "resident": "10MB"}], "script": [{"at": "0s", "action": "open", "app": "a"}],
       "duration": "\(segments)"}
      """)
    let run = try jetsim(["validate", scenario])
    #expect(!run.signaled && run.status == 65)
    #expect(
      run.errors.contains("'duration'") && run.errors.utf8.count < 400, "\(run.errors.prefix(400))")
  }
}
