import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCLI

/// `--format json` on every subcommand, for scripts: each prints one JSON document whose keys are
/// all snake_case, the style of the CSV columns and metric names.
@Suite struct JSONOutputTests {
  @Test func everySubcommandTakesFormat() {
    for command in Subcommands.all {
      #expect(
        command.spec.option("--format") != nil, "\(command.spec.name) does not take --format")
    }
  }

  /// Every key of `value`, at every depth, with the path that leads to it.
  func keys(_ value: Any, at path: String = "") -> [String] {
    if let object = value as? [String: Any] {
      return object.flatMap { key, child in ["\(path)/\(key)"] + keys(child, at: "\(path)/\(key)") }
    }
    if let array = value as? [Any] { return array.flatMap { keys($0, at: path + "[]") } }
    return []
  }

  func document(_ arguments: [String], expectStatus status: Int32 = 0) throws -> Any {
    let result = try jetsim(arguments + ["--format", "json"])
    #expect(result.status == status, "\(arguments[0]): \(result.errors)")
    let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    let badKeys = keys(parsed).filter { path in
      let key = path.split(separator: "/").last.map(String.init) ?? ""
      return key.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) == nil
    }
    #expect(badKeys.isEmpty, "\(arguments[0]): keys not in snake_case: \(badKeys)")
    return parsed
  }

  @Test func everySubcommandPrintsOneSnakeCaseDocument() throws {
    let scratch = try ScratchFolder()
    let example = "Profiles/scenarios/worked-example.json"
    let sweep = try scratch.write(
      "tiny.json",
      """
      {"version": 1, "name": "tiny", "scenario": "\(packageRoot)/\(example)",
       "axes": {"memory": ["1GB", "2GB"], "seeds": "1"}}
      """)
    let run = try document(["run", example, "--out", scratch.file("run")])
    #expect((run as? [String: Any])?["metrics"] != nil)
    _ = try document([
      "compare", example, "--policies", "lru,jetsam", "--seeds", "2", "--out", scratch.file("cmp"),
    ])
    let check = try document(["check", example, "--expect", "Reports/golden/worked-example"])
    let recorded = (check as? [String: Any])?["recorded_with"] as? [String: Any]
    #expect(recorded?.keys.sorted() == ["jetsim", "policy", "scenario", "seed"])
    #expect(recorded?.values.allSatisfy { $0 is NSNull } == true, "the golden's own run")
    // Under another seed the document names the golden's (the worked example draws nothing at
    // random, so its kills are the same and the check passes).
    let seeded = try document(
      ["check", example, "--expect", "Reports/golden/worked-example", "--seed", "9"])
    let seed = ((seeded as? [String: Any])?["recorded_with"] as? [String: Any])?["seed"]
    #expect((seed as? Int) == 1)
    // --update prints a document too: the golden as it was, and the files written.
    let golden = scratch.file("golden")
    let recordedNow = try document(["check", example, "--expect", golden, "--update"])
    #expect((recordedNow as? [String: Any])?["update"] as? String == "recorded")
    #expect((recordedNow as? [String: Any])?["written"] as? [String] == ["kills.csv", "run.json"])
    #expect((recordedNow as? [String: Any])?["passed"] is NSNull)
    let upToDate = try document(["check", example, "--expect", golden, "--update"])
    #expect(
      (upToDate as? [String: Any])?.keys.sorted()
        == ["differences", "golden", "passed", "scenario", "unchanged", "update", "written"])
    #expect((upToDate as? [String: Any])?["update"] as? String == "up_to_date")
    #expect((upToDate as? [String: Any])?["passed"] as? Bool == true)
    #expect((upToDate as? [String: Any])?["differences"] as? [String] == [])
    _ = try document([
      "plan", "Profiles/scenarios/light-user-2gb.json", "--target", "warm-resume-ratio>=0.5",
      "--max", "2GB", "--out", scratch.file("plan"),
    ])
    _ = try document([
      "replay", "Profiles/jetsam-reports/ios14-iphone11-highwater.ips", "--out",
      scratch.file("replay"),
    ])
    let swept = try document(["sweep", sweep, "--out", scratch.file("sweep")])
    #expect((swept as? [String: Any])?["runs"] as? Int == 2)
    _ = try document(["sweep", sweep, "--shard", "1/1", "--out", scratch.file("shard")])
    let merged = try document(["merge", scratch.file("shard"), "--out", scratch.file("merged")])
    #expect((merged as? [String: Any])?["runs"] as? Int == 2)
    _ = try document([
      "import-lsapp", "Profiles/traces/lsapp-sample.tsv", "--scenario",
      "Profiles/scenarios/daily-commute.json", "--out", scratch.file("lsapp"), "--run",
    ])
    let imported = try document([
      "import-jetsam", "Profiles/jetsam-reports/ios14-iphone11-highwater.ips", "--out",
      scratch.file("imported"),
    ])
    let reports = (imported as? [String: Any])?["imported"] as? [[String: Any]]
    #expect(reports?.first?["apps"] as? Int ?? 0 > 0)
    let whatIf = try document([
      "what-if", "Profiles/scenarios/photofeed-day.json", "--app", "com.example.photofeed",
      "--resident", "300MB,150MB", "--seeds", "2", "--out", scratch.file("what-if"),
    ])
    #expect(((whatIf as? [String: Any])?["points"] as? [Any])?.count == 2)
    _ = try document([
      "import-metrickit", "Profiles/metrickit/photofeed-2026-11-17.json", "--app",
      "com.example.photofeed", "--profile", "Profiles/apps/photofeed.json", "--scenario",
      "Profiles/scenarios/photofeed-day.json", "--seeds", "2",
    ])
    let policies = try document(["policies"])
    let names = ((policies as? [String: Any])?["policies"] as? [[String: Any]])?.compactMap {
      $0["name"] as? String
    }
    #expect(names?.contains("jetsam") == true)
  }

  /// A file that fails is in the document with its error line and exit code, and the exit code is
  /// the command's too.
  @Test func validateListsEveryFileWithItsVerdict() throws {
    let scratch = try ScratchFolder()
    let broken = try scratch.write("broken.json", "{\"version\": 1, \"name\": 3}")
    let parsed = try document(
      ["validate", "Profiles/scenarios/worked-example.json", broken], expectStatus: 65)
    let files = try #require((parsed as? [String: Any])?["files"] as? [[String: Any]])
    #expect(files.count == 2)
    #expect(files[0]["valid"] as? Bool == true)
    #expect(files[0]["kind"] as? String == "scenario")
    #expect(files[1]["valid"] as? Bool == false)
    #expect(files[1]["exit_code"] as? Int == 65)
    #expect((files[1]["error"] as? String)?.contains("broken.json") == true)
  }
}
