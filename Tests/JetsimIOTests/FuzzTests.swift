import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// Thousands of randomly mutated profiles and traces: each must load and run, or give a JetsimError.
/// A crash or trap fails the whole test process.
@Suite struct FuzzTests {
  static let tokens = [
    "{", "}", "[", "]", ",", ":", "\"", "0", "-1", "99999999999999999999", "1e400", "null", "true",
    "\"\"",
    "\"-5MB\"", "\"0s\"", "\"1.5GB\"", "\"999999999999GB\"", "\"1h30m\"", "\"100%\"", "\"open\"",
    "\n", "é", "\\u0000",
  ]

  static func mutate(_ text: String, _ random: inout RandomStream) -> String {
    var scalars = Array(text.unicodeScalars)
    for _ in 0..<(1 + random.below(3)) {
      guard !scalars.isEmpty else { break }
      let position = random.below(scalars.count)
      switch random.below(4) {
      case 0:
        scalars.removeSubrange(position..<min(scalars.count, position + 1 + random.below(8)))
      case 1:
        scalars.insert(contentsOf: tokens[random.below(tokens.count)].unicodeScalars, at: position)
      case 2:
        let end = min(scalars.count, position + 1 + random.below(30))
        scalars.insert(contentsOf: scalars[position..<end], at: random.below(scalars.count))
      default:
        scalars[position] = tokens[random.below(tokens.count)].unicodeScalars.first ?? "x"
      }
    }
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
  }

  static let traceTokens = [
    "0", "-5", "99999999999999999999", "4398046511104", "open", "home", "wake", "allocate", "free",
    "reboot",
    "interrupt", "mode-start", "mode-stop", "force-quit", "lock", "unlock", "com.example.music",
    "com.example.browser", "com.example.unknown", "", "5s", "0s", "-1MB", "1PB", "300MB", "audio",
    "voip", "\"a,b\"",
  ]

  /// Mutates a trace line by line and field by field, so that many mutants still parse and run.
  static func mutateTrace(_ text: String, _ random: inout RandomStream) -> String {
    var lines = text.split(separator: "\n").map(String.init)
    for _ in 0..<(1 + random.below(3)) {
      let line = 1 + random.below(lines.count - 1)
      switch random.below(5) {
      case 0: lines.remove(at: line)
      case 1: lines.insert(lines[line], at: random.below(lines.count) + 1)
      case 2 where line + 1 < lines.count: lines.swapAt(line, line + 1)
      case 3: return mutate(text, &random)
      default:
        var fields = lines[line].split(separator: ",", omittingEmptySubsequences: false).map(
          String.init)
        fields[random.below(fields.count)] = traceTokens[random.below(traceTokens.count)]
        lines[line] = fields.joined(separator: ",")
      }
      if lines.count < 2 { break }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func mutatedScenariosLoadAndRunOrFailCleanly() throws {
    let path = "\(packageRoot)/Profiles/scenarios/worked-example.json"
    let original = try String(contentsOfFile: path, encoding: .utf8)
    var random = RandomStream(seed: 2024, stream: 11)
    var ran = 0
    var failed = 0
    for _ in 0..<2500 {
      let text = Self.mutate(original, &random)
      do {
        let scenario = try ProfileLoader.scenario(from: Array(text.utf8), path: "mutant.json")
        _ = try Simulator.run(scenario)
        ran += 1
      } catch {
        #expect(!error.description.isEmpty && !error.description.contains("\n"))
        failed += 1
      }
    }
    // Both outcomes must occur, or the mutations are too weak or too strong to test anything.
    #expect(ran > 50 && failed > 500)
  }

  /// The shipped scenario with a trace, and its trace's text: what the trace mutations start from.
  static func eveningSocial() throws -> (scenario: Scenario, trace: String) {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/evening-social.json")
    let trace = try String(
      contentsOfFile: "\(packageRoot)/Profiles/traces/evening-social.csv", encoding: .utf8)
    return (scenario, trace)
  }

  @Test func mutatedTracesLoadAndRunOrFailCleanly() throws {
    let (scenario, original) = try Self.eveningSocial()
    var random = RandomStream(seed: 7, stream: 12)
    let scratch = try ScratchFolder()
    var ran = 0
    var failed = 0
    for _ in 0..<2500 {
      let text = Self.mutateTrace(original, &random)
      do {
        var mutant = scenario
        mutant.trace = TraceReader.feed(path: try scratch.write("mutant.csv", text))
        _ = try Simulator.run(mutant)
        ran += 1
      } catch let error as JetsimError {
        #expect(!error.description.contains("\n"))
        failed += 1
      }
    }
    #expect(ran > 50 && failed > 500)
  }
}
