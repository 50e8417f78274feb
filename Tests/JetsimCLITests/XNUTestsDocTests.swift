import Foundation
import JetsimTestSupport
import Testing

/// docs/xnu-tests.md: every kernel assertion it calls covered names jetsim tests that exist, and its
/// summary counts are the table's rows.
@Suite struct XNUTestsDocTests {
  static func rows() throws -> [[String]] {
    let text = try String(contentsOfFile: "\(packageRoot)/docs/xnu-tests.md", encoding: .utf8)
    return text.split(separator: "\n").filter { $0.hasPrefix("| ") }.map { line in
      line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    }
  }

  @Test func everyCoveredAssertionNamesATestThatExists() throws {
    let covered = try Self.rows().filter { $0.count > 5 && $0[4] == "covered" }
    #expect(covered.count >= 5)
    let sources = try ArchitectureDocTests.sources().text
    for row in covered {
      let names = ArchitectureDocTests.quoted(in: row[5]).filter { $0.contains(".") }
      #expect(!names.isEmpty, "line \(row[1]) names no test")
      for name in names {
        let function = String(name.split(separator: ".").last ?? "")
        let suite = String(name.split(separator: ".").first ?? "")
        #expect(sources.contains("func \(function)("), "\(name) does not exist")
        #expect(sources.contains("struct \(suite)"), "\(suite) does not exist")
      }
    }
  }
}
