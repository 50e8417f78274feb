import Foundation
import JetsimTestSupport
import Testing

/// docs/planning.md prints what the commands print: the iPhone 11's plan line by line (the
/// folder it names aside), and the light user's rows of the convergence table.
@Suite struct PlanningDocTests {
  let doc: String

  init() throws {
    doc = try String(contentsOfFile: packagePath("docs/planning.md"), encoding: .utf8)
  }

  /// The lines of the doc's output block for `device`, from its headline to its "curve and
  /// answer" line (left out: it names a folder).
  func block(for device: String, in text: String) -> [Substring] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard
      let start = lines.firstIndex(where: {
        $0.hasPrefix("heavy-social-4gb: ") && $0.contains("; \(device), policy")
      }),
      let end = lines[start...].firstIndex(where: { $0.hasPrefix("  curve and answer: ") })
    else { return [] }
    return Array(lines[start..<end])
  }

  @Test func theIPhone11PlanIsWhatTheCommandPrints() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "plan", "Profiles/scenarios/heavy-social-4gb.json", "--target", "kills-per-hour<=1",
      "--devices", "Profiles/devices/iphone-11.json", "--out", scratch.file("plan"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    let printed = block(for: "iPhone 11", in: result.output)
    #expect(printed.count > 10)
    #expect(block(for: "iPhone 11", in: doc) == printed)
  }

  @Test(arguments: [5, 20, 80])
  func theLightUsersConvergenceRowIsWhatTheCommandPrints(seeds: Int) throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "plan", "Profiles/scenarios/light-user-2gb.json", "--target",
      "pressure-warm-resume-ratio>=0.95", "--seeds", "\(seeds)", "--out", scratch.file("plan"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    // "light-user-2gb: 1728MB for ... (95 % interval 1664MB to 1792MB; ..." → "1728MB (1664MB to 1792MB)"
    let headline = try #require(result.output.split(separator: "\n").first)
    let answer = try #require(headline.split(separator: " ").dropFirst().first)
    let interval = try #require(
      headline.components(separatedBy: "95 % interval ").last?.components(separatedBy: ";").first)
    let row = try #require(doc.split(separator: "\n").first { $0.hasPrefix("| light-user-2gb") })
    let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    let column = [5: 1, 20: 2, 80: 3][seeds] ?? 0
    #expect(cells[column] == "\(answer) (\(interval))")
  }
}
