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

  /// The summary's "all" row counts the table's rows by status.
  @Test func theSummaryCountsTheRows() throws {
    let rows = try Self.rows()
    let statuses = rows.filter { $0.count > 5 && $0[1].first?.isNumber == true }.map { $0[4] }
    let all = try #require(rows.first { $0.count > 2 && $0[1] == "**all**" })
    let counts = ["covered", "differs", "out of scope"].map { status in
      statuses.filter { $0 == status }.count
    }
    #expect(all[2] == "**\(counts.reduce(0, +))**")
    #expect(all[3...5].map { $0 } == counts.map { "**\($0)**" })
  }
}
