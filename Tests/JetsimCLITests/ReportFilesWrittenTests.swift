import Foundation
import Jetsim
import JetsimTestSupport
import Testing

@testable import JetsimCLI

/// `ReportFile` says which subcommands write each file; each of them, run for real, writes exactly
/// those: a file it writes that the table does not list fails here, and so does a file the table
/// says it writes that it does not.
@Suite struct ReportFilesWrittenTests {
  /// Every subcommand the table names writes exactly the table's files for it, at the top of its
  /// folder (and, for import-jetsam, in each report's folder).
  @Test(arguments: Set(ReportFile.allCases.flatMap(\.commands)).sorted())
  func aSubcommandWritesTheFilesTheTableSays(command: String) throws {
    #expect(Subcommands.named(command) != nil, "\(command) is not a subcommand")
    let scratch = try ScratchFolder()
    let out = scratch.file("out")
    let arguments = try Self.commandLine(command, out: out, scratch: scratch)
    let result = try jetsim(arguments)
    #expect(result.status == 0, "\(arguments): \(result.errors)")
    let expected = Set(ReportFile.written(by: command).map(\.name))
    #expect(try Self.fileNames(in: out) == expected)
    for name in expected where command == "check" {
      #expect(try !scratch.read("out/\(name)").isEmpty, "check --update left \(name) empty")
    }
  }

  /// A command line of `command` that writes every file it can into `out`: with its options for
  /// the optional ones (plan's `--curve`, check's `--events`, a golden folder holding every file).
  static func commandLine(_ command: String, out: String, scratch: ScratchFolder) throws
    -> [String]
  {
    let example = scenarioPath("worked-example")
    let report = "\(packageRoot)/Profiles/jetsam-reports/ios14-iphone11-highwater.ips"
    let sweep = try scratch.write(
      "tiny.json",
      """
      {"version": 1, "name": "tiny", "scenario": "\(example)",
       "axes": {"memory": ["1GB", "2GB"], "seeds": "1"}}
      """)
    switch command {
    case "run": return ["run", example, "--out", out]
    case "check":
      // --update rewrites what the golden folder holds: let it hold every file, empty.
      for file in ReportFile.written(by: command) { try scratch.write("out/\(file.name)", "") }
      return ["check", example, "--expect", out, "--update", "--events"]
    case "compare":
      return ["compare", example, "--policies", "lru,jetsam", "--seeds", "2", "-o", out]
    case "plan":
      return [
        "plan", scenarioPath("light-user-2gb"), "--target", "warm-resume-ratio>=0.5", "--max",
        "2GB", "--seeds", "2", "--curve", "--out", out,
      ]
    case "replay": return ["replay", report, "--out", out]
    case "sweep": return ["sweep", sweep, "--out", out]
    case "merge":
      let shard = scratch.file("shard")
      #expect(
        try jetsim(["sweep", sweep, "--shard", "1/1", "--out", shard, "--quiet"]).status == 0)
      return ["merge", shard, "--out", out]
    case "import-jetsam": return ["import-jetsam", report, "--out", out]
    case "what-if":
      return [
        "what-if", scenarioPath("photofeed-day"), "--app", "com.example.photofeed", "--resident",
        "300MB", "--seeds", "2", "--out", out,
      ]
    default:
      Issue.record("no command line for \(command): add one that writes every file it can")
      return [command]
    }
  }

  /// The names of the files in `folder` and in its subfolders but a sweep's journals (`runs/`),
  /// the marker left out.
  static func fileNames(in folder: String) throws -> Set<String> {
    var names: Set<String> = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name != ".jetsim"
    {
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: "\(folder)/\(name)", isDirectory: &isFolder)
      if !isFolder.boolValue {
        names.insert(name)
      } else if name != "runs" {
        names.formUnion(try fileNames(in: "\(folder)/\(name)"))
      }
    }
    return names
  }
}
