import Foundation
import Jetsim
import Testing

@testable import JetsimCLI

/// `--out`'s default folder, as the help names it and as the subcommand writes to it: both come from
/// one `OutFolder`, so each subcommand's help names the folder it uses when `--out` is left out.
@Suite struct OutFolderTests {
  /// Each subcommand's `--out`, the placeholder its help writes for the name, a name, and the
  /// folder it then writes to.
  static let cases: [(command: String, out: OutFolder, placeholder: String, folder: String)] = [
    ("run", RunOptions.out, "<scenario name>", "Reports/day"),
    ("sweep", SweepOptions.out, "<sweep name>", "Reports/day"),
    ("compare", CompareOptions.out, "<scenario name>", "Reports/day-compare"),
    ("plan", PlanOptions.out, "<scenario name>", "Reports/day-plan"),
    ("what-if", WhatIfOptions.out, "<scenario name>", "Reports/day-what-if"),
  ]

  @Test(arguments: cases.indices)
  func theHelpNamesTheFolderWrittenTo(index: Int) {
    let (command, out, placeholder, folder) = Self.cases[index]
    #expect(out.folder(nil, name: "day") == folder, "\(command)")
    let named = folder.replacingOccurrences(of: "day", with: placeholder)
    #expect(out.option.help.hasSuffix("(default: \(named))"), "\(command): \(out.option.help)")
    #expect(out.folder("elsewhere", name: "day") == "elsewhere", "\(command)")
  }

  @Test func replayWritesToItsFixedFolderByDefault() throws {
    #expect(ReplayOptions(reports: ["r.ips"]).out == "Reports/replay")
    #expect(ReplayOptions.out.option.help.hasSuffix("(default: Reports/replay)"))
    var given = ReplayOptions(reports: ["r.ips"])
    given.out = "x"
    #expect(try CommandParser.parse(["replay", "r.ips", "-o", "x"]) == .subcommand(given))
  }
}
