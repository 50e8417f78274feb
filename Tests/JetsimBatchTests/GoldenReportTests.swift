import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

/// The shipped scenarios' reports, compared byte for byte with `Reports/golden/<scenario>/`.
/// Set `RECORD_SNAPSHOTS=1` to re-record them, then review the diff before committing.
@Suite struct GoldenReportTests {
  static let scenarios = [
    "worked-example", "lifecycle-tour", "daily-commute", "evening-social", "daemon-priorities",
  ]

  @Test(arguments: scenarios)
  func reportsMatchTheGoldenFiles(name: String) throws {
    let scenario = try ProfileLoader.scenario(at: "\(packageRoot)/Profiles/scenarios/\(name).json")
    let result = try Simulator.run(scenario)
    let csv = result.csv
    var files = [
      ("events.csv", csv.events), ("kills.csv", csv.kills), ("apps.csv", csv.apps),
      ("summary.csv", csv.summary),
      ("run.json", Provenance(scenario: scenario, summary: result.summary).json),
      ("metrickit.json", MetricKitPayload.runJSON(result.summary)),
    ]
    // The HTML report's golden file: the smallest scenario's.
    if name == "worked-example" {
      files.append(("report.html", HTMLReport.render(result, device: scenario.device)))
    }
    let folder = "\(packageRoot)/Reports/golden/\(name)"
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      for (file, text) in files {
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(file)"))
      }
      return
    }
    for (file, text) in files {
      let golden = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
      if golden != text {
        let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        let want = golden.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
          zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
          ?? min(got.count, want.count)
        Issue.record(
          """
          \(name)/\(file) differs from Reports/golden at line \(line + 1):
            expected: \(line < want.count ? want[line] : "(end of file)")
            got:      \(line < got.count ? got[line] : "(end of file)")
          Re-record with RECORD_SNAPSHOTS=1 swift test, and review the diff.
          """)
      }
    }
  }

  /// The project checks its own goldens the way users check theirs.
  @Test(arguments: scenarios)
  func checkPassesOnEveryShippedScenario(name: String) throws {
    let scenario = try ProfileLoader.scenario(at: "\(packageRoot)/Profiles/scenarios/\(name).json")
    let result = try GoldenCheck.check(
      scenario, against: "\(packageRoot)/Reports/golden/\(name)",
      options: GoldenCheckOptions(events: true, numbers: true))
    #expect(result.passed, "\(result.report())")
    #expect(result.changedInputs == [], "the golden was recorded from these very profiles")
  }

  @Test func theWorkedExampleKillRowIsTheModelsOwn() throws {
    let kills = try String(
      contentsOfFile: "\(packageRoot)/Reports/golden/worked-example/kills.csv", encoding: .utf8)
    #expect(
      kills.contains(
        "example.a,vm-pageshortage,largest-first,1,suspended,307200,307200,256000,563200,460800,none"
      ))
  }
}

@Suite struct DeterminismTests {
  @Test func aScenarioWithAUserModelIsDeterministicAndSeeded() throws {
    var scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/heavy-social-4gb.json")
    let first = try Simulator.run(scenario).csv
    #expect(first == (try Simulator.run(scenario).csv))
    scenario.seed = 2
    #expect(first.events != (try Simulator.run(scenario).csv.events))
  }
  @Test(arguments: GoldenReportTests.scenarios)
  func identicalRunsGiveIdenticalReports(name: String) throws {
    let scenario = try ProfileLoader.scenario(at: "\(packageRoot)/Profiles/scenarios/\(name).json")
    let first = try Simulator.run(scenario).csv
    let second = try Simulator.run(scenario).csv
    #expect(first == second)
  }

  @Test func streamedFilesEqualTheInMemoryReports() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    let folder = NSTemporaryDirectory() + "jetsim-determinism-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var writer = try ReportWriter(folder: ReportFolder(destination: folder), scenario: scenario)
    let summary = try Simulator.run(scenario, observer: &writer)
    try writer.finish(summary)
    let csv = try Simulator.run(scenario).csv
    #expect(try String(contentsOfFile: folder + "/events.csv", encoding: .utf8) == csv.events)
    #expect(try String(contentsOfFile: folder + "/kills.csv", encoding: .utf8) == csv.kills)
    #expect(try String(contentsOfFile: folder + "/apps.csv", encoding: .utf8) == csv.apps)
    #expect(try String(contentsOfFile: folder + "/summary.csv", encoding: .utf8) == csv.summary)
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: (folder as NSString).deletingLastPathComponent
    )
    .filter { $0.contains((folder as NSString).lastPathComponent + ".partial") }
    #expect(leftovers.isEmpty)
  }

  @Test func aDifferentSeedChangesNothingInAScriptedRun() throws {
    var scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/worked-example.json")
    let first = try Simulator.run(scenario).csv.events
    scenario.seed = 99
    #expect(try Simulator.run(scenario).csv.events == first)
  }
}
