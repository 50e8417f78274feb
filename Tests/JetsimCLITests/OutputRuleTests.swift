import Foundation
import Jetsim
import JetsimTestSupport
import Testing

@testable import JetsimCLI

/// The rule for outputs (docs/hardening.md): a command that exits 0 has written every output it
/// names; one that cannot write what was asked exits non-zero with one line naming the input or
/// the path the user gave and the kind of output; one that fails leaves the disk as it was.
@Suite struct OutputRuleTests {
  let photofeed = "Profiles/metrickit/photofeed-2026-11-17.json"

  /// The payload of `photofeed` with its `memoryMetrics` changed by `edit`.
  func payload(in scratch: ScratchFolder, _ edit: (inout [String: Any]) -> Void) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: packagePath(photofeed)))
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    edit(&object)
    let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    return try scratch.write("payload.json", text)
  }

  /// Payloads that give no average suspended memory cannot fill a profile: exit 65 naming the
  /// payload and the key, in every output format, and no file.
  @Test(arguments: [["--quiet"], ["--format", "json"], []])
  func importMetricKitWithoutAnAverageIsAnError(printing: [String]) throws {
    let scratch = try ScratchFolder()
    for edit: (inout [String: Any]) -> Void in [
      { $0["memoryMetrics"] = nil },
      {
        var memory = $0["memoryMetrics"] as? [String: Any] ?? [:]
        memory["averageSuspendedMemory"] = [
          "averageValue": "300000 kB", "standardDeviation": 0, "sampleCount": 0,
        ]
        $0["memoryMetrics"] = memory
      },
    ] {
      let path = try payload(in: scratch, edit)
      let out = scratch.file("filled.json")
      let result = try jetsim(
        [
          "import-metrickit", path, "--app", "com.example.photofeed", "--profile",
          "Profiles/apps/photofeed.json", "--out", out,
        ] + printing)
      #expect(result.status == 65, "\(result.errors)")
      #expect(result.errors.hasPrefix("jetsim: \(path): 'memoryMetrics.averageSuspendedMemory'"))
      #expect(result.errors.split(separator: "\n").count == 1)
      #expect(result.output == "", "nothing claims a file was written")
      #expect(try scratch.contents() == ["payload.json"])
    }
  }

  /// Runs `arguments` with writes past a few kilobytes failing as on a full disk (`ulimit -f`,
  /// with SIGXFSZ ignored so the write returns an error instead of ending the process).
  func onAFullDisk(_ arguments: [String], blocks: Int) throws -> Outcome {
    let binary = try jetsimBinary().path
    return try tool(
      "sh",
      ["-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" \"$@\"", binary] + arguments)
  }

  /// The library's error names no option: what is in the way has its remedy, and choosing another
  /// output is the other way out. The command line names the flag that chooses it, or, where no
  /// flag does, gives the remedy alone; a reason without one gets the flag after it.
  @Test func theFlagThatChoosesAnotherOutputIsTheCommandLines() {
    let inTheWay = JetsimError.outputNotWritable(
      path: "out", reason: "it holds 'x'", remedy: "move it out")
    #expect(
      "\(inTheWay)"
        == "out: cannot write the reports (it holds 'x'; move it out or choose another folder)")
    #expect(
      ErrorMessage.line(for: inTheWay)
        == "jetsim: out: cannot write the reports (it holds 'x'; move it out or choose another folder with --out)\n"
    )
    #expect(
      ErrorMessage.line(for: inTheWay, flag: nil)
        == "jetsim: out: cannot write the reports (it holds 'x'; move it out)")
    let full = JetsimError.outputNotWritable(
      path: "s.json", reason: "file too large", output: .scenario)
    #expect(
      ErrorMessage.line(for: full, flag: "--expect")
        == "jetsim: s.json: cannot write the scenario (file too large); choose another path with --expect\n"
    )
  }

  /// A run into new nested folders on a full disk fails with one line naming the folder asked
  /// for, and leaves nothing: no staging area, no lock, none of the folders it created. With no
  /// room at all the first file (the folder's marker) fails; with 4 KB, the event log.
  @Test(arguments: [0, 8])
  func aRunThatCannotWriteLeavesTheDiskAsItWas(blocks: Int) throws {
    let scratch = try ScratchFolder()
    let out = scratch.file("new/deeper/run")
    let result = try onAFullDisk(
      ["run", scenarioPath("daily-commute"), "--out", out, "--quiet"], blocks: blocks)
    #expect(result.status == 73, "\(result.errors)")
    #expect(
      result.errors
        == "jetsim: \(out): cannot write the reports (file too large); choose another folder with --out\n"
    )
    #expect(try scratch.contents() == [])
  }

  /// The same for import-lsapp, whose error names the file the user's folder would have held
  /// (never jetsim's staging path) and says which output it is.
  @Test func anImportThatCannotWriteNamesTheUsersPathAndLeavesNothing() throws {
    let scratch = try ScratchFolder()
    let out = scratch.file("imp/deeper")
    let result = try onAFullDisk(
      [
        "import-lsapp", "Profiles/traces/lsapp-sample.tsv", "--scenario",
        scenarioPath("daily-commute"), "--out", out,
      ], blocks: 1)
    #expect(result.status == 73, "\(result.errors)")
    #expect(
      result.errors.hasPrefix("jetsim: \(out)/lsapp-user-1-trace.csv: cannot write the trace"))
    #expect(!result.errors.contains(".jetsim-staging"))
    #expect(try scratch.contents() == [])
  }

  /// The check itself: a result naming an output that is not there is exit 70 with one line,
  /// and its text is not printed; one whose outputs are all there keeps its code and text.
  @Test func theCommandLineRefusesAnOutputNamedButNotWritten() throws {
    let scratch = try ScratchFolder()
    let there = try scratch.write("there.csv", "a\n")
    var result = CommandResult(output: "wrote it\n", wrote: [there, scratch.file("missing.csv")])
    var output = ""
    var errors = ""
    #expect(JetsimCommandLine.finish(result, output: &output, errors: &errors) == .software)
    #expect(output == "")
    #expect(
      errors
        == "jetsim: \(scratch.file("missing.csv")): named as written but not there; this is a bug in jetsim\n"
    )
    result.wrote = [there]
    errors = ""
    #expect(JetsimCommandLine.finish(result, output: &output, errors: &errors) == .success)
    #expect(output == "wrote it\n")
  }

  /// Every command that writes names what it wrote, and each is there (exit 0).
  @Test func everyWritingCommandNamesItsOutputs() throws {
    let scratch = try ScratchFolder()
    let commands: [[String]] = [
      ["run", scenarioPath("worked-example"), "--out", scratch.file("run")],
      [
        "import-jetsam", "Profiles/jetsam-reports/ios14-iphone11-highwater.ips", "--out",
        scratch.file("imported"),
      ],
      [
        "replay", "Profiles/jetsam-reports/ios14-iphone11-highwater.ips", "--out",
        scratch.file("replay"),
      ],
      [
        "import-lsapp", "Profiles/traces/lsapp-sample.tsv", "--scenario",
        scenarioPath("daily-commute"), "--out", scratch.file("lsapp"),
      ],
    ]
    for arguments in commands {
      let parsed = try CommandParser.parse(arguments + ["--quiet"])
      let result = try #require(try parsed.subcommand?.execute())
      #expect(!result.wrote.isEmpty, "\(arguments[0]) names what it wrote")
      for path in result.wrote {
        #expect(FileManager.default.fileExists(atPath: path), "\(arguments[0]): \(path)")
      }
    }
  }
}

/// Byte-order marks, UTF-16, one pid twice, and validate agreeing with the importers.
@Suite struct InputEdgeTests {
  let report = "Profiles/jetsam-reports/ios14-iphone11-highwater.ips"

  /// `text` with a UTF-8 byte-order mark before it, written to `name`.
  func withMark(_ scratch: ScratchFolder, _ name: String, _ text: String) throws -> String {
    let path = scratch.file(name)
    try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A report, a trace and an LSApp log that start with a byte-order mark read as without one.
  @Test func aByteOrderMarkIsSkippedInEveryTextInput() throws {
    let scratch = try ScratchFolder()
    let ips = try withMark(
      scratch, "bom.ips", try String(contentsOfFile: packagePath(report), encoding: .utf8))
    #expect(try jetsim(["validate", ips]).status == 0)
    #expect(
      try jetsim(["import-jetsam", ips, "--out", scratch.file("imp"), "--quiet"]).status == 0)
    let log = try withMark(
      scratch, "log.tsv",
      try String(contentsOfFile: packagePath("Profiles/traces/lsapp-sample.tsv"), encoding: .utf8))
    #expect(try jetsim(["validate", log]).status == 0)
    let trace = try withMark(
      scratch, "trace.csv",
      try String(contentsOfFile: packagePath("Profiles/traces/evening-social.csv"), encoding: .utf8)
    )
    let valid = try jetsim(["validate", trace])
    #expect(valid.status == 0, "\(valid.errors)")
    #expect(valid.output.contains("valid trace"))
  }

  /// One pid listed twice: exit 65 naming the pid and both entries, in validate, import-jetsam
  /// and replay alike.
  @Test func onePIDTwiceIsRefusedEverywhere() throws {
    let scratch = try ScratchFolder()
    let text = try String(contentsOfFile: packagePath(report), encoding: .utf8)
    let parts = text.split(separator: "\n", maxSplits: 1).map(String.init)
    var body = try #require(
      try JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any])
    var processes = try #require(body["processes"] as? [[String: Any]])
    processes.append(processes[3])
    body["processes"] = processes
    let path = try scratch.write(
      "dup.ips",
      parts[0] + "\n"
        + String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
    let pid = try #require(processes[3]["pid"] as? Int)
    let last = processes.count - 1
    for arguments in [
      ["validate", path], ["import-jetsam", path, "--out", scratch.file("i")],
      ["replay", path, "--out", scratch.file("r")],
    ] {
      let result = try jetsim(arguments)
      #expect(result.status == 65, "\(arguments[0])")
      #expect(
        result.errors
          == "jetsim: \(path): 'processes[\(last)].pid' is \(pid), the pid of processes[3] too; expected each pid once: a snapshot lists every process once\n"
      )
    }
    #expect(try scratch.contents() == ["dup.ips"])
  }

  /// validate tells a file's kind from its content, as the importer that reads it does: a
  /// JetsamEvent report body saved as `.json` and an LSApp log saved as `.txt` are what they are,
  /// and each importer takes them too.
  @Test func validateRecognisesAFileByItsContent() throws {
    let scratch = try ScratchFolder()
    let report = try String(contentsOfFile: packagePath(report), encoding: .utf8)
    let body = try scratch.write(
      "body.json", String(report.split(separator: "\n", maxSplits: 1)[1]))
    let log = try scratch.write(
      "log.txt",
      try String(contentsOfFile: packagePath("Profiles/traces/lsapp-sample.tsv"), encoding: .utf8))
    let checks = [
      (body, "valid JetsamEvent report", ["import-jetsam", body, "--out", scratch.file("i")]),
      (
        log, "valid app-usage log",
        [
          "import-lsapp", log, "--scenario", scenarioPath("daily-commute"), "--out",
          scratch.file("l"),
        ]
      ),
    ]
    for (file, words, importer) in checks {
      let valid = try jetsim(["validate", file])
      #expect(valid.status == 0, "\(valid.errors)")
      #expect(valid.output.contains(words), "\(valid.output)")
      #expect(try jetsim(importer + ["--quiet"]).status == 0, "\(importer[0])")
    }
  }

  /// A user model in a file of its own (what what-if --user-model takes) is validated as one, and
  /// the line says where its app ids are checked.
  @Test func validateChecksAUserModelFileAsAUserModel() throws {
    let valid = try jetsim(["validate", "Profiles/user-models/everyday.json"])
    #expect(valid.status == 0, "\(valid.errors)")
    #expect(
      valid.output
        == "Profiles/user-models/everyday.json: valid user model (its app ids are checked where it is used: as a scenario's userModel, or by what-if --user-model)\n"
    )
    let json = try jetsim(["validate", "Profiles/user-models/everyday.json", "--format", "json"])
    #expect(json.output.contains("\"kind\": \"user model\""), "\(json.output)")
  }

  /// An LSApp log saved as `.csv` (tab-separated, short header) is an app-usage log to validate
  /// as to import-lsapp; in UTF-16 both refuse it with the same words and exit code.
  @Test func validateAndImportLSAppAgree() throws {
    let scratch = try ScratchFolder()
    let sample = try String(
      contentsOfFile: packagePath("Profiles/traces/lsapp-sample.tsv"), encoding: .utf8)
    let rows = sample.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
    let text = "user\tsession\ttime\tapp\tevent\n" + rows.joined(separator: "\n")
    let csv = try scratch.write("log.csv", text)
    let valid = try jetsim(["validate", csv])
    #expect(valid.status == 0, "\(valid.errors)")
    #expect(valid.output.contains("valid app-usage log"))
    let imported = try jetsim([
      "import-lsapp", csv, "--scenario", scenarioPath("daily-commute"), "--out",
      scratch.file("imp"), "--quiet",
    ])
    #expect(imported.status == 0, "\(imported.errors)")
    let utf16 = scratch.file("log16.csv")
    try #require(text.data(using: .utf16)).write(to: URL(fileURLWithPath: utf16))
    let refused = try jetsim(["validate", utf16])
    let refusedToo = try jetsim([
      "import-lsapp", utf16, "--scenario", scenarioPath("daily-commute"), "--out",
      scratch.file("imp16"),
    ])
    #expect(refused.status == 66)
    #expect(refusedToo.status == refused.status)
    // A byte that is not UTF-8 on line 3: both name the line, exit 65.
    var bytes = Array(text.utf8)
    let thirdLine = try #require(bytes.indices.filter { bytes[$0] == 10 }.dropFirst().first)
    bytes.insert(0xFF, at: thirdLine + 3)
    let latin = scratch.file("latin.csv")
    try Data(bytes).write(to: URL(fileURLWithPath: latin))
    for arguments in [
      ["validate", latin],
      [
        "import-lsapp", latin, "--scenario", scenarioPath("daily-commute"), "--out",
        scratch.file("l"),
      ],
    ] {
      let result = try jetsim(arguments)
      #expect(result.status == 65)
      #expect(result.errors == "jetsim: \(latin):3: not UTF-8 text\n", "\(arguments[0])")
    }
    #expect(
      refused.errors == "jetsim: \(utf16): cannot be read (it is UTF-16 text; save it as UTF-8)\n")
    #expect(refusedToo.errors == refused.errors)
  }
}
