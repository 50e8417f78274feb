import Foundation
import JetsimTestSupport
import Testing

/// `jetsim-fuzz` with a modest budget: every kind of input mutated, run through every command that
/// reads it, with no crash and no other finding (docs/hardening.md): 450 inputs, 50 of each kind,
/// about a minute of a debug build (fewer leave a kind without an input that grows its totals).
/// The release check runs it with `JETSIM_FUZZ_INPUTS=100000`.
@Suite struct FuzzerTests {
  static let inputs =
    ProcessInfo.processInfo.environment["JETSIM_FUZZ_INPUTS"].flatMap(Int.init) ?? 450

  @Test func mutatedInputsOfEveryKindGiveARunOrOneLineOfError() throws {
    let scratch = try ScratchFolder()
    let outcome = try jetsim(
      ["--inputs", "\(Self.inputs)", "--seed", "20261122", "--keep", scratch.file("findings")],
      binary: "jetsim-fuzz")
    #expect(!outcome.signaled && outcome.status == 0, "\(outcome.output)\(outcome.errors)")
    #expect(outcome.output.contains(": 0 crashes, 0 other findings"), "\(outcome.output)")
    // Every kind was fuzzed, and its mutants both ran and were refused: mutations neither too weak
    // nor too strong to reach the code behind the parsers.
    let kinds = [
      "profile", "scenario", "trace", "sweep", "lsapp", "jetsam", "golden", "shard", "metrickit",
    ]
    for kind in kinds {
      let row = outcome.output.split(separator: "\n").first { $0.hasPrefix("  \(kind) ") }
      let numbers = (row ?? "").split(separator: " ").dropFirst().compactMap { Int($0) }
      #expect(numbers.count == 5, "no row for \(kind)")
      guard numbers.count == 5 else { continue }
      #expect(numbers[0] == Self.inputs / kinds.count, "\(kind) inputs")
      #expect(numbers[2] > 0 && numbers[3] > 0, "\(kind): \(row ?? "")")
      // Some inputs of every kind are many in-range entries whose total is not.
      #expect(numbers[4] > 0, "\(kind): no input grew its totals: \(row ?? "")")
    }
  }

  @Test func theSameSeedMutatesTheSameWay() throws {
    let scratch = try ScratchFolder()
    let first = try jetsim(
      ["--inputs", "48", "--seed", "5", "--keep", scratch.file("a")], binary: "jetsim-fuzz")
    let second = try jetsim(
      ["--inputs", "48", "--seed", "5", "--keep", scratch.file("b")], binary: "jetsim-fuzz")
    let table = { (text: String) in text.split(separator: "\n").dropFirst().joined(separator: "\n")
    }
    #expect(first.status == 0 && table(first.output) == table(second.output))
    #expect(!table(first.output).isEmpty)
  }

  @Test func badOptionsAreOneLineOfError() throws {
    let outcome = try jetsim(["--inputs", "many"], binary: "jetsim-fuzz")
    #expect(outcome.status == 64)
    #expect(
      outcome.errors == "jetsim-fuzz: --inputs 'many' is not a whole number from 1 to 100000000\n")
  }
}
