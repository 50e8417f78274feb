import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// The report tables come from one declaration of their columns: every header is the declared
/// list, and every row has as many fields as its header.
@Suite struct ReportTablesTests {
  /// Scenarios whose reports hold every kind of row: every kill reason and lifecycle row, system
  /// processes, a snapshot start.
  @Test(arguments: ["lifecycle-tour", "iphone-11-real-start", "worked-example"])
  func everyRowIsAsWideAsItsHeader(scenario name: String) throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/\(name).json")
    let csv = try Simulator.run(scenario).csv
    let tables = [
      ("events.csv", csv.events, ReportTables.eventColumns),
      ("kills.csv", csv.kills, ReportTables.killColumns),
      ("apps.csv", csv.apps, ReportTables.appColumns),
      ("summary.csv", csv.summary, ReportTables.summaryColumns),
    ]
    for (file, text, columns) in tables {
      let records = try CSVReader.records(text)
      #expect(records.first?.fields == columns, "\(file) header")
      #expect(records.count > 1, "\(file) has rows")
      for (index, record) in records.enumerated() {
        #expect(record.fields.count == columns.count, "\(file) row \(index)")
      }
    }
  }

  @Test func theColumnListsAreTheDeclaredOnes() {
    #expect(ReportTables.eventColumns == EventColumn.allCases.map(\.name))
    #expect(ReportTables.killColumns == KillColumn.allCases.map(\.name))
    // check aligns kills by who, why and in which state; numbers only with --numbers.
    #expect(
      KillColumn.allCases.filter { $0.comparison == .identity } == [.app, .reason, .state])
    #expect(!EventColumn.allCases.contains { $0.comparison == .identity && $0 == .timeMs })
  }
}
