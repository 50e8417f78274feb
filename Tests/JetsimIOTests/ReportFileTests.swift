import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// The report files are declared once (`ReportFile`); the folder kinds, the writers and
/// docs/reports.md follow that table.
@Suite struct ReportFileTests {
  /// docs/reports.md's "Every file" table is the registry, row for row: a file added to the code
  /// and not to the docs (or the other way round) fails here.
  @Test func theDocsListEveryFileAsTheRegistryDoes() throws {
    let text = try String(contentsOfFile: packagePath("docs/reports.md"), encoding: .utf8)
    let rest = try #require(text.components(separatedBy: "## Every file").dropFirst().first)
    let section = rest.components(separatedBy: "\n## ")[0]
    let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
    let documented = rows.map { row in
      row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }
    let declared = ReportFile.allCases.map { file in
      [
        "`\(file.name)`", file.folders.map(\.rawValue).joined(separator: ", "),
        file.commands.joined(separator: ", "), file.contents,
      ]
    }
    #expect(documented == declared)
  }

  /// Each folder kind's files are the registry's, and a run writes exactly its kind's files.
  @Test func aRunFolderHoldsItsKindsFiles() throws {
    #expect(ReportFolder.Kind.run.files == Set(ReportFile.allCases.prefix(7).map(\.name)))
    #expect(ReportFolder.Kind.whatIf.files == ["what-if.csv", "what-if.html", "metrickit.json"])
    let scratch = try ScratchFolder()
    let scenario = try ProfileLoader.scenario(at: scenarioPath("worked-example"))
    var writer = try ReportWriter(
      folder: ReportFolder(destination: scratch.file("run")), scenario: scenario, html: true)
    let summary = try Simulator.run(scenario, observer: &writer)
    try writer.finish(summary)
    let written = Set(try scratch.contents("run")).subtracting([ReportFolder.marker])
    #expect(written == ReportFolder.Kind.run.files)
  }

  /// No file is declared twice, every kind of folder holds at least one, and every file has a
  /// subcommand that writes it.
  @Test func namesAreUniqueAndEveryKindHasFiles() {
    #expect(Set(ReportFile.allCases.map(\.name)).count == ReportFile.allCases.count)
    for kind in [ReportFolder.Kind.run, .comparison, .plan, .replay, .sweep, .imported, .whatIf] {
      #expect(!kind.files.isEmpty, "\(kind)")
    }
    for file in ReportFile.allCases {
      #expect(!file.commands.isEmpty, "\(file.name)")
    }
  }
}
