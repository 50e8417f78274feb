import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// One meaning per count: the kill counts `jetsim run` prints are the rows of `kills.csv`, split
/// by whose they are, and summary.csv's columns hold the same numbers under the names
/// docs/reports.md gives them.
@Suite struct KillCountTests {
  /// A report's rows by column name.
  func rows(_ text: String) -> [[String: String]] {
    let lines = text.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    guard let header = lines.first else { return [] }
    return lines.dropFirst().map { Dictionary(zip(header, $0), uniquingKeysWith: { a, _ in a }) }
  }

  /// The numbers of `kills 36 (4 apps, 32 system processes; long-idle-exit 36); 36 for memory
  /// pressure, 4 of them apps`, in order.
  func numbers(inKillsLineOf output: String) -> [Int] {
    let line = output.split(separator: "\n").first { $0.hasPrefix("  kills ") } ?? ""
    return line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
  }

  @Test func theImportedIOS14RunCountsEveryRowOfKillsCSV() throws {
    let scratch = try ScratchFolder()
    let report = packagePath("Profiles/jetsam-reports/ios14-iphone11-highwater.ips")
    #expect(try jetsim(["import-jetsam", report, "--out", scratch.file("imp"), "-q"]).status == 0)
    let scenario = scratch.file("imp/ios14-iphone11-highwater/scenario.json")
    let run = try jetsim(["run", scenario, "--policy", "jetsam", "--out", scratch.file("run")])
    #expect(run.status == 0, "\(run.errors)")
    let kills = rows(try scratch.read("run/kills.csv"))
    let kinds = Dictionary(
      rows(try scratch.read("run/apps.csv")).map { ($0["app"] ?? "", $0["kind"] ?? "") },
      uniquingKeysWith: { a, _ in a })
    let apps = kills.filter { kinds[$0["app"] ?? ""] == "app" }
    let pressure = kills.filter { row in
      KillReason.allCases.first { $0.description == row["reason"] }?.isMemoryPressure == true
    }
    try #require(apps.count < kills.count, "the run kills system processes too")
    let printed = numbers(inKillsLineOf: run.output)
    // total, apps, system processes, each reason, pressure, pressure among apps
    #expect(printed.first == kills.count, "\(run.output)")
    #expect(Array(printed.prefix(3)) == [kills.count, apps.count, kills.count - apps.count])
    let reasonCounts = Array(printed.dropFirst(3).dropLast(2))
    #expect(reasonCounts.reduce(0, +) == kills.count)
    #expect(printed.suffix(2) == [pressure.count, apps.filter { pressure.contains($0) }.count])
    let summary = try #require(rows(try scratch.read("run/summary.csv")).first)
    #expect(summary["all_kills"] == "\(kills.count)")
    #expect(summary["kills"] == "\(apps.count)")
    #expect(summary["system_process_kills"] == "\(kills.count - apps.count)")
    #expect(summary["all_pressure_kills"] == "\(pressure.count)")
    #expect(summary["pressure_kills"] == "\(apps.filter { pressure.contains($0) }.count)")
  }

  @Test func aDeviceWithoutSystemProcessesPrintsTheAppsAlone() throws {
    let scratch = try ScratchFolder()
    let run = try jetsim(["run", scenarioPath("daily-commute"), "--out", scratch.file("run")])
    let kills = rows(try scratch.read("run/kills.csv"))
    let line = run.output.split(separator: "\n").first { $0.hasPrefix("  kills ") } ?? ""
    #expect(numbers(inKillsLineOf: run.output).first == kills.count)
    #expect(!line.contains("system process"), "\(line)")
  }
}
