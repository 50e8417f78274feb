import Foundation
import JetsimTestSupport
import Testing

@Suite struct EndToEndTests {
  @Test func runWritesTheFourReportsAndASummary() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let result = try jetsim(["run", scenarioPath("worked-example"), "--out", folder + "/out"])
    #expect(result.status == 0)
    #expect(result.errors.isEmpty)
    #expect(result.output.contains("kills            1 (vm-pageshortage 1)"))
    #expect(result.output.contains("opens            4 (cold launches 4, warm resumes 0"))
    #expect(
      result.output.contains(
        "kills.csv, apps.csv, summary.csv, run.json, metrickit.json, report.html)"))
    for file in [
      "events.csv", "kills.csv", "apps.csv", "summary.csv", "run.json", "metrickit.json",
      "report.html",
    ] {
      let written = try String(contentsOfFile: "\(folder)/out/\(file)", encoding: .utf8)
      let golden = try String(
        contentsOfFile: "\(packageRoot)/Reports/golden/worked-example/\(file)", encoding: .utf8)
      #expect(written == golden, "\(file)")
    }
  }

  @Test func namesASpreadsheetWouldRunAreWrittenAsText() throws {
    let scratch = try ScratchFolder()
    let original = try String(contentsOfFile: scenarioPath("worked-example"), encoding: .utf8)
    let hostile =
      original
      .replacingOccurrences(of: "example.a", with: "-2+3")
      .replacingOccurrences(of: #""name": "A""#, with: #""name": "=HYPERLINK(\"http://x\")""#)
      .replacingOccurrences(of: #""name": "worked-example""#, with: #""name": "@risk""#)
    let scenario = try scratch.write("s.json", hostile)
    let out = scratch.path + "/out"
    #expect(try jetsim(["run", scenario, "--out", out, "--quiet"]).status == 0)
    let kills = try scratch.read("out/kills.csv")
    let apps = try scratch.read("out/apps.csv")
    let summary = try scratch.read("out/summary.csv")
    #expect(kills.contains(",'-2+3,"))
    #expect(apps.contains(#"'-2+3,"'=HYPERLINK(""http://x"")""#))
    #expect(summary.contains("\n'@risk,Worked example device,"))
    #expect(!kills.contains(",-2+3,") && !apps.contains(",=") && !summary.contains("\n@"))
    // Numbers are numbers still, and the reports are golden reports like any other.
    #expect(try jetsim(["check", scenario, "--expect", out, "--numbers"]).status == 0)
  }

  @Test func noHTMLSkipsTheHTMLReport() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let result = try jetsim([
      "run", scenarioPath("worked-example"), "--out", folder + "/out", "--no-html", "--quiet",
    ])
    #expect(result.status == 0)
    #expect(FileManager.default.fileExists(atPath: folder + "/out/kills.csv"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/out/report.html"))
  }

  @Test func runWritesToReportsSlashTheScenarioNameByDefault() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let first = try jetsim(["run", scenarioPath("worked-example"), "--quiet"], in: folder)
    #expect(first.status == 0 && first.output.isEmpty)
    #expect(FileManager.default.fileExists(atPath: "\(folder)/Reports/worked-example/kills.csv"))
    // A second run replaces the folder and leaves nothing else behind.
    let second = try jetsim(["run", scenarioPath("worked-example"), "--quiet"], in: folder)
    #expect(second.status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: "\(folder)/Reports") == ["worked-example"]
    )
  }

  @Test func policyAndSeedOptionsReachTheReports() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let result = try jetsim([
      "run", scenarioPath("worked-example"), "--seed", "42", "--policy", "largest-first", "--out",
      folder,
    ])
    #expect(result.status == 0)
    let summary = try String(contentsOfFile: folder + "/summary.csv", encoding: .utf8)
    #expect(summary.contains("\nworked-example,Worked example device,largest-first,42,"))
  }

  @Test func aTraceReplacesTheWorkload() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let trace = folder + "/t.csv"
    try Data("time_ms,action,app,value\n0,open,example.d,\n1000,open,example.a,\n".utf8).write(
      to: URL(fileURLWithPath: trace))
    let result = try jetsim([
      "run", scenarioPath("worked-example"), "--trace", trace, "--out", folder + "/out",
    ])
    #expect(result.status == 0)
    #expect(result.output.contains("opens            2"))
  }

  @Test func compareWritesATableAndAFolderPerRun() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let result = try jetsim([
      "compare", scenarioPath("evening-social"), "--policies", "largest-first,lmkd,random",
      "--seeds", "1..3", "--out",
      folder + "/cmp", "--jobs", "2", "--keep-runs",
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.errors.isEmpty, "no progress line when stderr is not a terminal")
    #expect(result.output.contains("3 policies × 3 seeds, ranked by warm_resume_ratio"))
    for policy in ["largest-first", "lmkd", "random"] {
      #expect(result.output.contains(policy))
      for seed in 1...3 {
        #expect(
          FileManager.default.fileExists(atPath: "\(folder)/cmp/\(policy)/seed-\(seed)/kills.csv"))
      }
    }
    let rows = try String(contentsOfFile: folder + "/cmp/compare.csv", encoding: .utf8).split(
      separator: "\n")
    #expect(rows.count == 1 + 9)
    let aggregates = try String(
      contentsOfFile: folder + "/cmp/compare-summary.csv", encoding: .utf8
    )
    .split(separator: "\n")
    #expect(
      aggregates.map { String($0.prefix { $0 != "," }) } == [
        "policy", "largest-first", "lmkd", "random",
      ])
  }

  @Test func compareMarksTiesPairsWithTheBestAndSaysWhenSeedsChangeNothing() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "compare", scenarioPath("evening-social"), "--policies", "jetsam,largest-first,oom-badness",
      "--seeds", "3", "--rank-by", "warm-resume-ratio", "--out", scratch.file("cmp"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines[1].hasSuffix("vs largest-first (paired)"))
    // Equal on every seed: a tie, so the best is best by mean only.
    #expect(lines[2].hasPrefix("  1=    largest-first") && lines[2].hasSuffix("(best by mean)"))
    #expect(
      lines[3].hasPrefix("  1=    oom-badness")
        && lines[3].hasSuffix("+0.0000 ± 0.0000 no verdict"))
    #expect(lines[4].hasSuffix("-0.2857 ± 0.0000 worse"))
    #expect(result.output.contains("note: no verdict: the interval includes 0"))
    // Scripts read the same ranking and differences.
    let json = try jetsim([
      "compare", scenarioPath("evening-social"), "--policies", "jetsam,largest-first,oom-badness",
      "--seeds", "3", "--rank-by", "warm-resume-ratio", "--out", scratch.file("cmp-json"),
      "--format",
      "json",
    ])
    #expect(json.output.contains("\"best_is_clear\": false"))
    #expect(json.output.contains("\"vs_best\": {"))
    #expect(json.output.contains("\"shares_rank\": true"))
    #expect(json.output.contains("\"verdict_reason\": \"the same on every seed\""))
    // One seed: no verdict, said in the JSON too.
    let once = try jetsim([
      "compare", scenarioPath("evening-social"), "--policies", "lru,largest-first",
      "--seeds", "1", "--out", scratch.file("cmp-once"), "--format", "json",
    ])
    #expect(!once.output.contains("\"verdict\": \"worse\""))
    #expect(
      once.output.contains(
        "\"verdict\": \"no_verdict\",\n      \"verdict_reason\": \"one seed gives no interval"))
    #expect(lines[4].hasPrefix("  3     jetsam"))
    #expect(
      result.output.contains("note: = marks policies that share a rank: on warm_resume_ratio"))
    #expect(result.output.contains("note: the seeds changed nothing for every policy"))
    #expect(result.output.contains("(compare.csv, compare-summary.csv, compare.html)\n"))
    // --keep-runs on a run too large for the disk warns first.
    let big = try scratch.write(
      "big.json",
      try String(contentsOfFile: scenarioPath("heavy-social-4gb"), encoding: .utf8)
        .replacingOccurrences(of: "\"../", with: "\"\(packageRoot)/Profiles/")
        .replacingOccurrences(of: "\"duration\": \"8h\"", with: "\"duration\": \"400h\""))
    let warned = try jetsim([
      "compare", big, "--policies", "lru", "--seeds", "1..1000", "--keep-runs", "--out",
      "/dev/null/x",
    ])
    #expect(warned.errors.hasPrefix("jetsim: warning: --keep-runs will write about "))
    #expect(warned.errors.contains(" GB of reports (1000 runs of about "))
  }

  @Test func policiesListsEveryBuiltInPolicy() throws {
    let result = try jetsim(["policies"])
    let names = result.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map {
      String($0.prefix { $0 != " " })
    }
    #expect(names == ["largest-first", "lru", "jetsam", "lmkd", "oom-badness", "random"])
    for setting in ["killHeaviest", "minfree", "is64Bit", "agingTime", "bands.idle"] {
      #expect(result.output.contains("  \(setting): "), "\(setting)")
    }
    // Each default is read from the policy's parameters and written as a profile gives it.
    #expect(
      result.output.contains(
        "  agingTime: how long an app that went idle stays in the aging band (default: 2s)\n"))
    #expect(result.output.contains("  filecacheMin: ro.lmk.filecache_min_kb (default: 0KB)\n"))
    #expect(
      result.output.contains(
        "  maxEmptyTime: ActivityManager: an empty process unused this long dies (default: 1000h)\n"
      )
    )
  }

  @Test func checkPassesOnTheShippedGoldens() throws {
    for name in [
      "worked-example", "lifecycle-tour", "daily-commute", "evening-social", "daemon-priorities",
    ] {
      let result = try jetsim([
        "check", scenarioPath(name), "--expect", "\(packageRoot)/Reports/golden/\(name)",
        "--events", "--numbers",
      ])
      #expect(result.status == 0, "\(result.output)")
      #expect(result.output.contains("\(name): kill order and event log (numbers included) match"))
    }
  }

  @Test func oneOfAnythingIsSingular() throws {
    let scratch = try ScratchFolder()
    let compare = try jetsim([
      "compare", scenarioPath("worked-example"), "--policies", "lru", "--seeds", "1", "-o",
      scratch.file("c"),
    ])
    #expect(compare.status == 0)
    #expect(compare.output.contains("1 policy × 1 seed, ranked by"), "\(compare.output)")
  }

  @Test func checkFailsWithExitOneAndUpdateRecordsTheChange() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let golden = folder + "/golden"
    let record = try jetsim([
      "check", scenarioPath("daily-commute"), "--expect", golden, "--update",
    ])
    #expect(record.status == 0)
    // A first recording says so; a later one that changes files says "updated".
    #expect(record.output == "\(golden): recorded kills.csv, run.json\n")
    var lines = try String(contentsOfFile: golden + "/kills.csv", encoding: .utf8).split(
      separator: "\n"
    )
    .map(String.init)
    lines.remove(at: 3)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: golden + "/kills.csv"))
    let failed = try jetsim(["check", scenarioPath("daily-commute"), "--expect", golden])
    #expect(failed.status == 1)
    #expect(
      failed.output
        == """
        daily-commute: the kill order differs from \(golden) (1 insertion)
          an extra kill after kill #2 (00:31:00.000): com.example.shortvideo (373.3 MB, suspended)
          cause: behaviour changed; the scenario and its profiles are the ones the golden was recorded with
          if the new behaviour is right: re-record with --update, and review the diff

        """)
    let update = try jetsim([
      "check", scenarioPath("daily-commute"), "--expect", golden, "--update",
    ])
    #expect(update.status == 0)
    #expect(
      update.output.hasPrefix(
        "\(golden): updated kills.csv; unchanged: run.json\n  what changed: 1 difference"))
    #expect(try jetsim(["check", scenarioPath("daily-commute"), "--expect", golden]).status == 0)
  }

  @Test func checkNamesTheKillsThatMovedUnderAnotherPolicy() throws {
    // A golden recorded under largest-first, checked under lru: an app both kill at other
    // positions is one move line, and the header counts the lines of each kind.
    let scratch = try ScratchFolder()
    let scenario = scenarioPath("daily-commute")
    for (policy, folder) in [("largest-first", "golden"), ("lru", "lru")] {
      let run = try jetsim([
        "run", scenario, "--policy", policy, "--out", scratch.file(folder), "--quiet",
      ])
      #expect(run.status == 0)
    }
    func victims(_ folder: String) throws -> [String] {
      try scratch.read("\(folder)/kills.csv").split(separator: "\n").dropFirst().map {
        String($0.split(separator: ",", omittingEmptySubsequences: false)[2])
      }
    }
    let (golden, lru) = (try victims("golden"), try victims("lru"))
    let check = try jetsim([
      "check", scenario, "--expect", scratch.file("golden"), "--policy", "lru",
    ])
    #expect(check.status == 1)
    let lines = check.output.split(separator: "\n").map(String.init)
    let moves = lines.filter { $0.contains(" moved from #") }
    #expect(!moves.isEmpty)
    for line in moves {
      // `  com.example.browser moved from #6 to #10 (00:57:00.000)`: the app is at those places.
      let words = line.split(separator: " ")
      let from = Int(words[3].dropFirst()) ?? 0
      let to = Int(words[words.firstIndex(of: "to").map { $0 + 1 } ?? 0].dropFirst()) ?? 0
      #expect(
        golden[safe: from - 1] == String(words[0]) && lru[safe: to - 1] == String(words[0]),
        "\(line)")
    }
    #expect(lines.first?.contains("(\(moves.count) \(moves.count == 1 ? "move" : "moves")") == true)
    #expect(check.output.contains("com.example.browser moved from #6 to #10 (00:57:00.000)"))
  }

  @Test func aBadGoldenIsBadInputAndAnotherSeedIsNamedWithItsFlag() throws {
    let scratch = try ScratchFolder()
    let golden = scratch.file("golden")
    let scenario = scenarioPath("heavy-social-4gb")
    let record = try jetsim(["check", scenario, "--expect", golden, "--update", "--seed", "7"])
    #expect(record.status == 0, "\(record.errors)")
    let other = try jetsim(["check", scenario, "--expect", golden])
    #expect(other.status == 1)
    #expect(
      other.output.contains(
        "\n  cause: the golden was recorded with seed 7 (this run: 1); pass --seed 7\n"))
    #expect(!other.output.contains("behaviour changed"))
    // A golden of a run cut short is named with its flag too, and --duration reproduces it.
    let short = scratch.file("short")
    let daily = scenarioPath("daily-commute")
    #expect(
      try jetsim(["check", daily, "--expect", short, "--update", "--duration", "30m"]).status == 0)
    let whole = try jetsim(["check", daily, "--expect", short])
    #expect(whole.status == 1)
    #expect(
      whole.output.contains(
        "\n  cause: the golden's run was cut short at 00:30:00.000; this one runs to its scenario's end; pass --duration 30m\n"
      ))
    // run --duration records where it was told to end, for check to read.
    let run = try jetsim(["run", daily, "--duration", "30m", "--out", scratch.file("run"), "-q"])
    #expect(run.status == 0)
    #expect(try scratch.read("run/run.json").contains("\n  \"duration_ms\": 1800000,\n"))
    #expect(try jetsim(["check", daily, "--expect", short, "--duration", "30m"]).status == 0)
    let header = try scratch.read("golden/kills.csv").prefix { $0 != "\n" }
    try scratch.write("golden/kills.csv", "seq,time,app\n")
    let bad = try jetsim(["check", scenario, "--expect", golden, "--seed", "7"])
    #expect(bad.status == 65)
    #expect(bad.output.isEmpty)
    #expect(
      bad.errors
        == "jetsim: \(golden)/kills.csv:1: the header seq,time,app is not jetsim's kills.csv header (\(header)); re-record the golden with --update\n"
    )
    try scratch.write("golden/run.json", "{")
    let json = try jetsim(["check", scenario, "--expect", golden])
    #expect(json.status == 65)
    #expect(
      json.errors
        == "jetsim: \(golden)/run.json: not valid JSON; re-record the golden with --update\n")
  }

  @Test func anUnwritableGoldenFolderNamesExpect() throws {
    let result = try jetsim([
      "check", scenarioPath("worked-example"), "--expect", "/proc/x", "--update",
    ])
    #expect(result.status == 73)
    #expect(result.errors.hasPrefix("jetsim: /proc/x: cannot write the reports ("))
    #expect(result.errors.hasSuffix("); choose another folder with --expect\n"), "\(result.errors)")
  }

  @Test func checkWithoutAGoldenNamesTheMissingFile() throws {
    let result = try jetsim([
      "check", scenarioPath("worked-example"), "--expect", "/nonexistent/golden",
    ])
    #expect(result.status == 66)
    #expect(
      result.errors
        == "jetsim: /nonexistent/golden/kills.csv: no golden report yet; record it with: jetsim check \(scenarioPath("worked-example")) --expect /nonexistent/golden --update\n"
    )
  }

  /// An --expect that is a file is said to be one, checked or updated: the advice to record
  /// with --update would fail there.
  @Test func anExpectThatIsAFileIsSaidToBeOne() throws {
    let scratch = try ScratchFolder()
    let file = try scratch.write("afile", "x\n")
    for (update, status) in [([], Int32(66)), (["--update"], 73)] {
      let result = try jetsim(
        ["check", scenarioPath("worked-example"), "--expect", file] + update)
      #expect(result.status == status)
      #expect(
        result.errors
          == "jetsim: \(file): a file, not a folder; --expect names the folder of golden reports (kills.csv, run.json): give a folder\n"
      )
    }
    #expect(try scratch.read("afile") == "x\n")
  }

  /// A folder of the user's own is refused with one piece of advice, naming the flag that
  /// chooses another folder; for import-lsapp --run, whose run goes to Reports/NAME whatever
  /// --out is, the advice is how to run it elsewhere.
  @Test func aFolderOfTheUsersOwnGetsTheAdviceOnce() throws {
    let scratch = try ScratchFolder()
    try scratch.write("userdir/mine.txt", "mine\n")
    let run = try jetsim([
      "run", scenarioPath("worked-example"), "--out", scratch.file("userdir"),
    ])
    #expect(run.status == 73)
    #expect(run.errors.components(separatedBy: "choose another folder").count == 2, "\(run.errors)")
    #expect(
      run.errors.hasSuffix("; remove it or choose another folder with --out)\n"), "\(run.errors)")
    try scratch.write("Reports/lsapp-user-1/mine.txt", "mine\n")
    let imported = try jetsim(
      [
        "import-lsapp", packagePath("Profiles/traces/lsapp-sample.tsv"), "--scenario",
        scenarioPath("daily-commute"), "--out", "imp", "--run",
      ], in: scratch.path)
    #expect(imported.status == 73)
    #expect(
      imported.errors
        == "jetsim: Reports/lsapp-user-1: cannot write the reports (the folder is not a run folder jetsim wrote (it has no .jetsim marker of that kind), so jetsim will not replace it; remove it); --run writes the run there (Reports/ and the scenario's name): to run it into another folder, import without --run, then: jetsim run imp/lsapp-user-1.json --out DIR\n"
    )
    #expect(!imported.errors.contains("choose another"))
  }

  @Test func helpForEverySubcommand() throws {
    for arguments in [
      ["--help"], ["run", "--help"], ["compare", "--help"], ["check", "--help"],
      ["validate", "--help"],
      ["policies", "--help"], ["help", "run"],
    ] {
      let result = try jetsim(arguments)
      #expect(result.status == 0)
      #expect(result.output.contains("USAGE: jetsim"))
      #expect(result.output.contains("EXAMPLES:"))
    }
    #expect(try jetsim(["--version"]).output.hasPrefix("jetsim "))
    #expect(try jetsim(["policies"]).output.contains("largest-first"))
  }

  @Test func validateAcceptsEveryShippedFile() throws {
    var files: [String] = []
    for folder in ["devices", "apps", "scenarios", "traces"] {
      let path = "\(packageRoot)/Profiles/\(folder)"
      files += try FileManager.default.contentsOfDirectory(atPath: path).sorted().map {
        "\(path)/\($0)"
      }
    }
    let result = try jetsim(["validate"] + files)
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.split(separator: "\n").count == files.count)
  }

  /// Each bad input: the exit code, and one line on stderr that starts with "jetsim:" and contains
  /// the given text. Nothing on stdout, no report folder.
  @Test(arguments: [
    (["run", "nope.json"], Int32(66), "nope.json: no such file"),
    (
      ["run", "Profiles/scenarios/worked-example.json", "--polcy", "x"], 64,
      "did you mean '--policy'?"
    ),
    (
      ["run", "Profiles/scenarios/worked-example.json", "--policy", "lrux"], 64,
      "valid policies: largest-first"
    ),
    (["frobnicate"], 64, "unknown subcommand 'frobnicate'"),
    (
      ["validate", "Profiles/traces/evening-social.csv", "Package.swift"], 65,
      "Package.swift: not valid JSON"
    ),
    (
      ["run", "Profiles/scenarios/worked-example.json", "--trace", "Profiles/apps/notes.json"], 65,
      "the header must be"
    ),
    (
      ["run", "Profiles/sweeps/light-user-memory.json"], 65,
      "'(top level)' is a sweep file (it has 'scenario' and 'axes'); expected a scenario"
    ),
    (
      ["sweep", "Profiles/scenarios/worked-example.json"], 65,
      "'(top level)' is a scenario (it has 'device' and 'apps'); expected a sweep file"
    ),
    (
      ["run", "Profiles/scenarios/worked-example.json", "--out", "Package.swift/out"], 73,
      "cannot write the reports"
    ),
    (
      ["run", "Profiles/scenarios/worked-example.json", "--out", "Profiles"], 73,
      "is not a run folder jetsim wrote"
    ),
  ])
  func badInputGetsOneClearLine(arguments: [String], status: Int32, text: String) throws {
    let result = try jetsim(arguments)
    #expect(result.status == status)
    let lines = result.errors.split(separator: "\n")
    #expect(lines.first?.hasPrefix("jetsim: ") == true)
    #expect(result.errors.contains(text), "\(result.errors)")
    #expect(lines.count == 1, "one line, usage errors with their pointer to --help on it")
    if status == 64 { #expect(result.errors.contains(" (see 'jetsim ")) }
    #expect(!result.errors.contains("Fatal error") && !result.errors.contains("Stack dump"))
  }

  /// A missing file typed on the command line is named as typed, with no word of a referring
  /// file; one a file names is named with that file and the key, where the path to mend is; a
  /// folder merge cannot use is called what it is, not a missing manifest.
  @Test func aMissingFileIsNamedWhereItsPathIsWritten() throws {
    let scratch = try ScratchFolder()
    let typed: [[String]] = [
      ["run", "Profiles/scenarios/worked-example.json", "--trace", "nonexist.csv"],
      [
        "what-if", "Profiles/scenarios/photofeed-day.json", "--app", "com.example.photofeed",
        "--resident", "100MB", "--devices", "nonexist.json",
      ],
    ]
    for arguments in typed {
      let result = try jetsim(arguments)
      #expect(result.status == 66)
      #expect(
        result.errors == "jetsim: \(arguments.last ?? ""): no such file; check the path\n",
        "\(result.errors)")
    }
    let scenario = try scratch.write(
      "s.json",
      try String(contentsOfFile: scenarioPath("evening-social"), encoding: .utf8)
        .replacingOccurrences(of: "../traces/evening-social.csv", with: "missing.csv")
        .replacingOccurrences(of: "../", with: "\(packageRoot)/Profiles/"))
    let trace = try jetsim(["run", scenario, "--out", scratch.file("o")])
    #expect(trace.status == 66)
    #expect(
      trace.errors
        == "jetsim: \(scratch.path)/missing.csv: cannot be read (it does not exist; \(scenario) names it at 'trace', from its own folder)\n"
    )
    let sweep = try scratch.write(
      "sweep.json",
      #"{"version": 1, "name": "s", "scenario": "nowhere.json", "axes": {"seeds": "1"}}"#)
    let swept = try jetsim(["sweep", sweep, "--out", scratch.file("w")])
    #expect(swept.status == 66)
    #expect(
      swept.errors
        == "jetsim: \(scratch.path)/nowhere.json: cannot be read (it does not exist; \(sweep) names it at 'scenario', from its own folder)\n"
    )
    try FileManager.default.createDirectory(
      atPath: scratch.file("runs/daily-commute"), withIntermediateDirectories: true)
    let merged = try jetsim([
      "merge", scratch.file("runs/daily-commute"), scratch.file("shards/2"), "--out",
      scratch.file("m"),
    ])
    #expect(merged.status == 66)
    #expect(
      merged.errors
        == "jetsim: \(scratch.file("runs/daily-commute")): cannot be read (it is not a sweep or shard folder: it holds no sweep-manifest.json; give the folders a sweep wrote)\n"
    )
    let missing = try jetsim(["merge", scratch.file("shards/2"), "--out", scratch.file("m")])
    #expect(
      missing.errors
        == "jetsim: \(scratch.file("shards/2")): cannot be read (no such folder; check the path)\n")
  }

  @Test func aFailedRunLeavesNoReportFolder() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let trace = folder + "/bad.csv"
    try Data("time_ms,action,app,value\n0,open,example.a,\n5,open,example.zz,\n".utf8).write(
      to: URL(fileURLWithPath: trace))
    let result = try jetsim([
      "run", scenarioPath("worked-example"), "--trace", trace, "--out", folder + "/out",
    ])
    #expect(result.status == 65)
    #expect(
      result.errors.contains(
        "bad.csv:3: 'example.zz' is not an app or system process of the scenario; did you mean 'example.a'?"
      ))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["bad.csv"])
  }

  /// Watermarks above the device's memory (a GB for an MB) are refused, not run.
  @Test func lmkdWatermarksAboveTheMemoryAreRefused() throws {
    let scratch = try ScratchFolder()
    let file = try scratch.write(
      "wm.json",
      try String(contentsOfFile: scenarioPath("daily-commute"), encoding: .utf8)
        .replacingOccurrences(of: "../", with: "\(packageRoot)/Profiles/")
        .replacingOccurrences(
          of: #""version": 1,"#,
          with:
            #""version": 1, "policyParameters": {"lmkd": {"watermarks": ["3GB", "4GB", "5GB"]}},"#
        ))
    let result = try jetsim(["run", file, "--policy", "lmkd", "--out", scratch.path + "/r"])
    #expect(result.status == 65)
    #expect(
      result.errors
        == "jetsim: \(file): 'policyParameters.lmkd.watermarks' is [3GB, 4GB, 5GB]; expected 3 sizes, ascending, below the device's memory less its reserved memory (1990MB − 450MB = 1540MB)\n"
    )
  }
}

/// `jetsim plan` with a target no memory meets says which kills remain at the largest size, why
/// memory does not remove them, and which metric counts only memory pressure.
@Suite struct PlanEndToEndTests {
  @Test func aMissedTargetIsExplained() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "plan", scenarioPath("daily-commute"), "--target", "kills<=0", "--seeds", "2", "--out",
      scratch.file("plan"),
    ])
    #expect(result.status == 1)
    #expect(result.output.contains("kills <= 0.0000 @p95 is not met even with 16GB (2 seeds"))
    #expect(result.output.contains("target met  kills a run: pressure   other"))
    #expect(
      result.output.contains(
        "    com.example.bank: exit-on-suspend ×2 (it exits on suspend each time it leaves the screen, whatever the memory)"
      ))
    #expect(result.output.contains("--target on pressure-kills counts only memory pressure"))
    let met = try jetsim([
      "plan", scenarioPath("daily-commute"), "--target", "pressure-kills<=0", "--seeds", "2",
      "--out", scratch.file("pressure"),
    ])
    #expect(met.status == 0, "\(met.output)")
    #expect(!met.output.contains("kills left at"))
  }

  /// One plan a device, each in its own folder with its plan.html; the JSON is a list of them.
  @Test func curvesForEveryDevice() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "warm-resume-ratio>=0.9", "--seeds", "3",
      "--min", "1GB", "--max", "3GB", "--precision", "256MB", "--curve", "--devices",
      "Profiles/devices/iphone-6s.json,Profiles/devices/iphone-8.json", "--format", "json",
      "--out", scratch.file("p"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    for device in ["iphone-6s", "iphone-8"] {
      #expect(
        try scratch.contents("p/\(device)") == [".jetsim", "plan.csv", "plan.html", "plan.json"])
    }
    let plans = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
    #expect(plans?.map { $0["device"] as? String } == ["iPhone 6s", "iPhone 8"])
  }

  /// A target whose metric no run has a value of is bad input, said in one line, with no files.
  @Test func planOnAMetricWithNoValueSaysSo() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "plan", scenarioPath("worked-example"), "--target", "warm-resume-ratio>=0.9", "--seeds", "3",
      "--out", scratch.path + "/plan",
    ])
    #expect(result.status == 65)
    #expect(
      result.errors
        == "jetsim: \(scenarioPath("worked-example")): 'target': no run has a value of warm_resume_ratio (3 seeds at 16GB): it is a ratio this workload gives nothing to divide by, so no memory meets or misses warm_resume_ratio >= 0.9000 @p95; choose another metric, such as kills_per_hour\n"
    )
    #expect(
      result.output.isEmpty && !FileManager.default.fileExists(atPath: scratch.path + "/plan"))
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
