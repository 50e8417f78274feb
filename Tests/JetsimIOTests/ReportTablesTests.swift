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

/// Every column of summary.csv is explained in docs/reports.md, and the pressure metrics count what
/// their meaning says.
@Suite struct SummaryMetricTests {
  @Test func everyMetricIsDocumented() throws {
    let docs = try String(contentsOfFile: "\(packageRoot)/docs/reports.md", encoding: .utf8)
    for metric in SummaryMetric.all where !metric.name.hasPrefix("kills_") {
      #expect(docs.contains("`\(metric.name)`"), "\(metric.name) is not in docs/reports.md")
      #expect(!metric.meaning.isEmpty)
    }
  }

  @Test func pressureKillsAreTheKillsMoreMemoryPrevents() {
    let pressure = KillReason.allCases.filter(\.isMemoryPressure).map(\.description)
    #expect(
      pressure == ["vm-pageshortage", "highwater", "long-idle-exit", "proc-thrashing", "low-swap"])
  }

  /// daily-commute: 4 of its 8 reopenings were cold after vm-pageshortage kills, and its one
  /// exit-on-suspend kill is not a pressure kill.
  @Test func theDailyCommutesPressureFigures() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    let metrics = try Simulator.run(scenario).summary.metrics
    #expect(metrics.pressureKills == metrics.kills(.vmPageshortage))
    #expect(metrics.totalKills == metrics.pressureKills + metrics.kills(.exitOnSuspend))
    #expect(metrics.pressureColdLaunches <= metrics.coldLaunches)
    #expect(metrics.pressureColdLaunches == metrics.opensOfLaunchedApps - metrics.warmResumes)
    #expect(metrics.pressureWarmResumeRatio == metrics.warmResumeRatio)
  }
}
