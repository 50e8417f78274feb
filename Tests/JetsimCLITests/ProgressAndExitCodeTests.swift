import Foundation
import Jetsim
import JetsimTestSupport
import Testing

@testable import JetsimCLI

/// Progress on standard error only for long work on a terminal; every exit code in `--help`.
@Suite struct ProgressAndExitCodeTests {
  @Test func progressWaitsTwoSecondsThenRedrawsFiveTimesASecond() {
    let second: UInt64 = 1_000_000_000
    #expect(!Progress.shouldDraw(elapsed: second, now: 10 * second, last: nil, force: true))
    #expect(Progress.shouldDraw(elapsed: 2 * second, now: 10 * second, last: nil, force: false))
    let now = 10 * second
    #expect(
      !Progress.shouldDraw(elapsed: 3 * second, now: now, last: now - second / 10, force: false))
    #expect(
      Progress.shouldDraw(elapsed: 3 * second, now: now, last: now - second / 10, force: true))
    #expect(
      Progress.shouldDraw(elapsed: 3 * second, now: now, last: now - second / 5, force: false))
  }

  @Test func progressSaysHowFarTheRunHasGone() {
    #expect(
      Progress.simulated(7_200_000, of: 28_800_000)
        == "simulated \(Units.clock(7_200_000)) of \(Units.clock(28_800_000)) (25%)")
    #expect(Progress.simulated(7_200_000, of: nil) == "simulated \(Units.clock(7_200_000))")
  }

  /// `script` gives the command a terminal (util-linux's, as on most Linux machines).
  var script: String? {
    ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// A run that lasts longer than the line's two seconds, on a fast machine or a slow one, in a
  /// debug build or a release one: heavy-social's user model run for 1 and for 301 hours with
  /// standard error piped (which must show nothing) gives the pace of 300 simulated hours without
  /// the start and the reports; the run on a terminal is given as many hours as take six seconds at
  /// that pace, and four times as many again, up to three times, while no line shows (a busy
  /// machine can slow it down). A fixed 1,500 hours took 1.7 s in a debug build on a fast machine
  /// and showed nothing; `timeout` cannot stop a longer run, as the test's processes inherit a mask
  /// that blocks its signals.
  @Test func aLongRunShowsProgressOnATerminalOnly() throws {
    let script = try #require(script, "no `script` to give the run a terminal")
    let scratch = try ScratchFolder()
    let binary = try jetsimBinary().path
    func run(hours: Int, _ extra: [String]) -> [String] {
      [binary, "run", scenarioPath("heavy-social-4gb"), "--duration", "\(hours)h", "--no-html"]
        + extra
    }
    func piped(hours: Int) throws -> Double {
      let clock = ContinuousClock()
      let start = clock.now
      let outcome = try jetsim(Array(run(hours: hours, ["--out", scratch.file("c")]).dropFirst()))
      #expect(outcome.status == 0 && outcome.errors.isEmpty, "no progress when piped")
      return (clock.now - start) / .seconds(1)
    }
    let pace = max(0.001, try piped(hours: 301) - piped(hours: 1)) / 300
    func onTerminal(hours: Int, _ extra: [String]) throws -> String {
      let command = run(hours: hours, extra).map { "'\($0)'" }.joined(separator: " ")
      return try tool(script, ["-qec", command, "/dev/null"]).output
    }
    var hours = max(300, Int((6 / pace).rounded(.up)))
    var shown = try onTerminal(hours: hours, ["--out", scratch.file("a")])
    for _ in 0..<3 where !shown.contains("\r\u{1B}[Krun: simulated ") {
      hours *= 4
      shown = try onTerminal(hours: hours, ["--out", scratch.file("a")])
    }
    #expect(shown.contains("\r\u{1B}[Krun: simulated "), "\(shown.prefix(200))")
    #expect(shown.contains("of \(hours):00:00.000 ("), "\(shown.prefix(200))")
    let quiet = try onTerminal(hours: hours, ["--out", scratch.file("b"), "--quiet"])
    #expect(!quiet.contains("run: simulated"))
  }

  @Test func everyExitCodeIsInTheHelpAndTheREADME() throws {
    let readme = try String(contentsOfFile: packagePath("README.md"), encoding: .utf8)
    for arguments in [["--help"], ["run", "--help"], ["check", "--help"]] {
      let help = try jetsim(arguments).output
      let section = help.components(separatedBy: "EXIT CODES:\n").last ?? ""
      for code in ExitCode.allCases {
        #expect(
          section.contains(
            "  \(code.rawValue)".padding(toLength: 6, withPad: " ", startingAt: 0)
              + code.meaning), "\(arguments): \(code)")
      }
    }
    for code in ExitCode.allCases where code != .success {
      #expect(readme.contains("\(code.rawValue) ("), "README's exit codes name \(code.rawValue)")
    }
  }
}
