import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCLI
@testable import JetsimCore
@testable import JetsimIO

/// `jetsim import-jetsam` and `jetsim replay` as a user runs them on the shipped reports.
@Suite struct JetsamEndToEndTests {
  let reports = "\(packageRoot)/Profiles/jetsam-reports"

  var corpus: [String] {
    [
      "ios9-iphone6s-trimmed.crash", "ios10-iphone6-highwater.crash",
      "ios11-iphone6-vnode-limit.crash", "ios14-iphone11-highwater.ips",
    ].map { "\(reports)/\($0)" }
  }

  @Test func everyReportImportsValidatesAndRuns() throws {
    let scratch = try ScratchFolder()
    let out = scratch.path + "/imported"
    let imported = try jetsim(["import-jetsam"] + corpus + ["-o", out])
    #expect(imported.status == 0, "\(imported.errors)")
    #expect(
      imported.errors
        == "jetsim: warning: \(reports)/ios9-iphone6s-trimmed.crash: the process list was trimmed by whoever published it ('...' lines); 1 complete entry was kept\n"
    )
    #expect(
      imported.output.contains(
        "\(reports)/ios14-iphone11-highwater.ips: iPhone 11 (iPhone OS 14.2 (18B5061e)), 442 processes (60 apps, 382 system processes), 2 kills"
      ))
    for file in corpus {
      let name = JetsamImport.folderName(for: file)
      let scenario = "\(out)/\(name)/scenario.json"
      let validated = try jetsim(["validate", scenario])
      #expect(validated.status == 0, "\(validated.errors)")
      let run = try jetsim([
        "run", scenario, "--policy", "jetsam", "-o", "\(scratch.path)/\(name)", "-q",
      ])
      #expect(run.status == 0, "\(run.errors)")
      let kills = try String(contentsOfFile: "\(scratch.path)/\(name)/kills.csv", encoding: .utf8)
      // jetsam acts only below one of its levels, the highest being the reaper's: a snapshot whose
      // available memory (free and file-backed pages) is above it runs without a kill.
      let report = try JetsamReport.load(at: file)
      let device = JetsamImport.convert(report).device
      let available = try #require(report.availableKB)
      #expect(
        (kills.split(separator: "\n").count > 1) == (available < device.reaperThresholdKB),
        "\(name): \(available) KB available, the reaper's level \(device.reaperThresholdKB) KB")
    }
  }

  @Test func replayWritesItsFilesAndPrintsTheAgreement() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim(
      [
        "replay", "\(reports)/held-out/ios12-iphonexsmax-vm-pageshortage.crash",
        "--policies", "jetsam,largest-first", "-o", scratch.path + "/replay",
      ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(
      result.output == """
        replayed 1 report under 2 policies: 1 scored (62 pressure kills)
        policy           reports  kills   decides  prefix     tau  first victim  victims  prefix  pairs in order    tau
        list-order             1     62  31 of 62      31   0.754           1/1    62/62      62       1891/1891  1.000
        jetsam                 1     62  35 of 62      31   0.738           1/1    62/62      31       1659/1891  0.755
        jetsam-shuffled        1     62  12 of 62       0   0.014           0/1    44/62       0        533/1891  0.249
        largest-first          1     62   1 of 62       0  -0.026           0/1    43/62       0        296/1891  0.039
          (decides, prefix, tau: each policy decides how many to kill from the available memory and the device's levels; first victim to tau: the freed-total mode, victims until they free what the kernel's pressure kills freed)
          ios12-iphonexsmax-vm-pageshortage.crash: 204.3 MB available at the first kill; critical level 149.3 MB (not below by 54.9 MB), idle level 336.1 MB (below by 131.7 MB)
          wrote \(scratch.path)/replay/replay.csv, replay-summary.csv, bands.csv, levels.csv, replay.html

        """)
    for file in ["replay.csv", "replay-summary.csv", "bands.csv", "levels.csv", "replay.html"] {
      #expect(FileManager.default.fileExists(atPath: "\(scratch.path)/replay/\(file)"))
    }
    let json = try jetsim(
      [
        "replay", "\(reports)/ios9-iphone6s-trimmed.crash", "--policies", "jetsam", "--format",
        "json", "-o", scratch.path + "/replay2",
      ])
    #expect(json.output.contains("\"real_victims\": [\n        \"KodiMusicRemoteP\"\n      ]"))
  }

  /// docs/validation.md's table of the agreement is what `jetsim replay` gives on the shipped
  /// reports, with the doc's command: for every policy, its pressure kills, the decided kills,
  /// prefix and tau, the first victim, the victims chosen, the prefix, the pairs in order and tau
  /// of the freed-total mode (read from `replay-summary.csv`; a tau to the doc's three places);
  /// and so are the figures the README quotes from it (as replay prints them).
  @Test func theValidationDocsTableIsWhatReplayGives() throws {
    let scratch = try ScratchFolder()
    let binary = try jetsimBinary().path
    let run = try tool(
      "sh",
      [
        "-c",
        "'\(binary)' replay Profiles/jetsam-reports/*.crash Profiles/jetsam-reports/*.ips "
          + "Profiles/jetsam-reports/held-out/*.crash --out '\(scratch.file("replay"))'",
      ])
    #expect(run.status == 0, "\(run.errors)")
    let summary = try String(
      contentsOfFile: scratch.file("replay/replay-summary.csv"), encoding: .utf8)
    var measured: [String: [String: String]] = [:]
    let lines = summary.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
    for row in lines.dropFirst() {
      measured[row[0]] = Dictionary(uniqueKeysWithValues: zip(lines[0], row))
    }
    let doc = try String(contentsOfFile: packagePath("docs/validation.md"), encoding: .utf8)
    // The table's rows: ten cells, the ninth "pairs of pairs".
    let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `") }
      .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
      .filter { $0.count == 10 && $0[8].contains(" of ") }
    #expect(rows.count == measured.count, "a row for each policy replayed")
    for cells in rows {
      let policy = String(cells[0].split(separator: "`")[0])
      guard let figures = measured[policy] else {
        Issue.record("docs/validation.md: a row for \(policy), which replay does not give")
        continue
      }
      func tau(_ text: String) -> Double {
        Double(text.replacingOccurrences(of: "−", with: "-")) ?? .nan
      }
      let reports = figures["reports"] ?? ""
      let expected = [
        figures["kills"], figures["decided_kills"], figures["decided_prefix_matched"], nil,
        figures["first_victim_matches"] == reports ? "right" : "wrong", figures["victims_matched"],
        figures["prefix_matched"],
        "\(figures["pairs_in_order"] ?? "") of \(figures["pairs"] ?? "")",
        nil,
      ]
      for (index, value) in expected.enumerated() where value != nil {
        #expect(cells[index + 1] == value, "docs/validation.md, \(policy), column \(index + 2)")
      }
      for (index, key) in [(4, "decided_kendall_tau"), (9, "kendall_tau")] {
        let real = Double(figures[key] ?? "") ?? .nan
        #expect(abs(tau(cells[index]) - real) < 0.0006, "docs/validation.md, \(policy), \(key)")
      }
    }
    // The README's figures, as replay prints them: policy, reports, kills, decided kills "of"
    // kills, prefix, tau, first victim, victims, prefix, pairs in order, tau.
    var printed: [String: [String]] = [:]
    for line in run.output.split(separator: "\n") {
      let words = line.split(separator: " ").map(String.init)
      if words.count == 13, words[4] == "of" { printed[words[0]] = words }
    }
    func figure(_ policy: String, _ index: Int) -> String {
      (printed[policy]?[index] ?? "?").replacingOccurrences(of: "-", with: "−")
    }
    let readme = try String(contentsOfFile: packagePath("README.md"), encoding: .utf8)
      .split(whereSeparator: \.isNewline).joined(separator: " ")
    let claims = [
      "it kills \(figure("jetsam", 3)) where the kernel killed \(figure("jetsam", 2)), the kernel's "
        + "first \(figure("jetsam", 6)) in order (Kendall's tau \(figure("jetsam", 7)); "
        + "\(figure("jetsam-shuffled", 7)) for its control",
      "kills one large app and stops (tau \(figure("largest-first", 7)))",
      "(\(figure("lru", 3)) kills, the first \(figure("lru", 6)) in order, tau \(figure("lru", 7)))",
      "kills \(figure("lmkd", 3)), none in order (tau \(figure("lmkd", 7)))",
      "scores tau \(figure("list-order", 7)) on the same count and all \(figure("list-order", 10)) "
        + "in order (tau \(figure("list-order", 12)))",
    ]
    for claim in claims {
      let says = readme.contains(claim)
      #expect(says, "README.md should say: \(claim)")
    }
    #expect(figure("largest-first", 3) == "1" && figure("lmkd", 6) == "0", "README's words")
  }

  /// `replay --help`'s examples on the shipped reports run as a shell runs them (patterns
  /// expanded), and score a report: an example that scores nothing shows nothing of replay.
  @Test func theHelpExamplesOnTheShippedReportsScore() throws {
    let examples = ReplayOptions.spec.examples.filter { $0.contains("Profiles/") }
    #expect(!examples.isEmpty)
    for example in examples {
      let scratch = try ScratchFolder()
      let binary = try jetsimBinary().path
      let command = example.replacingOccurrences(of: "jetsim ", with: "'\(binary)' ")
      let result = try tool("sh", ["-c", "\(command) -o '\(scratch.file("replay"))'"])
      #expect(result.status == 0, "\(example): \(result.errors)")
      #expect(result.output.contains(": 1 scored (62 pressure kills)"), "\(example)")
    }
  }

  @Test func badReportsAreOneLineErrors() throws {
    let scratch = try ScratchFolder()
    let broken = try scratch.write("broken.ips", "{\"bug_type\":\"298\"}\n{\"memoryStatus\": {")
    let result = try jetsim(["import-jetsam", broken, "-o", scratch.path + "/out"])
    #expect(result.status == 65)
    #expect(
      result.errors
        == "jetsim: \(broken): not valid JSON: line 2, column 19: the text ends inside an object; add the closing '}' (the body looks truncated)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/out"), "nothing written")
    let replay = try jetsim(["replay", broken])
    #expect(replay.status == 65)
    #expect(try jetsim(["import-jetsam", broken]).status == 64, "--out is required")
    let unknown = try jetsim([
      "replay", "\(reports)/ios9-iphone6s-trimmed.crash", "--policies", "nope",
    ])
    #expect(unknown.status == 64)
  }

  /// A report given twice (two patterns that overlap, or one path written two ways) is a usage
  /// error: it would be scored twice. Nothing is written.
  @Test func replayRefusesAReportGivenTwice() throws {
    let scratch = try ScratchFolder()
    let report = "\(reports)/held-out/ios12-iphonexsmax-vm-pageshortage.crash"
    for second in [
      report, "\(reports)/./held-out/../held-out/ios12-iphonexsmax-vm-pageshortage.crash",
    ] {
      let result = try jetsim(["replay", report, second, "-o", scratch.file("r")])
      #expect(result.status == 64)
      #expect(
        result.errors
          == "jetsim: REPORT 2 ('\(second.excerpt(limit: 60))') is REPORT 1 again; give each report once (see 'jetsim replay --help')\n"
      )
      #expect(result.output == "")
    }
    #expect(try scratch.contents() == [])
  }

  /// A report with no app gives no scenario: import-jetsam says there is nothing to import and
  /// validate agrees, rather than writing a scenario.json that validate refuses.
  @Test(arguments: [
    ("empty", "[]", "'processes' is empty"),
    (
      "daemons", #"[{"name":"logd","pid":1,"rpages":100,"states":["daemon"]}]"#,
      "'processes' is 1 process, none of them an app"
    ),
  ])
  func aReportWithNoAppIsNotImported(name: String, processes: String, says: String) throws {
    let scratch = try ScratchFolder()
    let report = try scratch.write(
      "\(name).ips",
      "{\"bug_type\":\"298\"}\n{\"memoryStatus\":{\"pageSize\":16384},\"processes\":\(processes)}\n"
    )
    let imported = try jetsim(["import-jetsam", report, "-o", scratch.file("out")])
    #expect(imported.status == 65)
    #expect(imported.errors.hasPrefix("jetsim: \(report): \(says); expected at least one app"))
    #expect(imported.errors.hasSuffix("there is nothing to import\n"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("out")), "nothing written")
    let validated = try jetsim(["validate", report])
    #expect(validated.status == 65 && validated.errors == imported.errors)
  }

  /// 131,072 processes of 2^40 pages of 64 KB: each footprint once in range, their sum past
  /// `Int.max` (a crasher the reliability checks found). Each command now refuses the first
  /// footprint over 1 PB in one line.
  @Test func footprintsWhoseSumPassesIntMaxAreOneLineOfError() throws {
    let scratch = try ScratchFolder()
    var text =
      #"{"bug_type":"298","timestamp":"2020-10-15 17:29:58.79 +0100","os_version":"iPhone OS 14.2 (18B5061e)"}"#
    text += "\n{\"product\":\"iPhone12,1\",\"memoryStatus\":{\"pageSize\":65536},\"processes\":["
    text += (0..<131_072).map { #"{"name":"p\#($0)","pid":\#($0 + 1),"rpages":1099511627776}"# }
      .joined(separator: ",")
    text += "]}\n"
    let report = try scratch.write("sum-overflow.ips", text)
    let expected =
      "jetsim: \(report): 'processes[0].rpages' is 1099511627776; expected a whole number from 0 to 17179869184\n"
    for arguments in [
      ["validate", report], ["import-jetsam", report, "-o", scratch.file("i")],
      ["replay", report, "-o", scratch.file("r")],
    ] {
      let outcome = try jetsim(arguments)
      #expect(!outcome.signaled && outcome.status == 65, "\(arguments[0])")
      #expect(outcome.errors == expected, "\(arguments[0])")
    }
  }

  /// The shipped scenario that starts from a real device: under jetsam, the IDLE band is killed
  /// from its head, idle daemons, widgets and suspended apps in the order they entered it.
  @Test func theIdleBandDiesInEntryOrder() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/iphone-11-real-start.json")
    #expect(scenario.policy == .jetsam)
    let result = try Simulator.run(scenario)
    let names = result.summary.appIDs
    let idleBand = (scenario.snapshot?.entries ?? []).filter { $0.band == 0 }.map(\.process)
    let killed = result.kills.map { names[$0.app] }
    let killedIdle = killed.filter { idleBand.contains($0) }
    #expect(killedIdle.count > 200)
    #expect(Array(idleBand.prefix(killedIdle.count)) == killedIdle, "the head of the band first")
    #expect(killed.prefix(killedIdle.count).allSatisfy { idleBand.contains($0) })
    // Both kinds die: daemons and extensions (system processes) and suspended apps.
    let systemKills = result.kills.filter { $0.app >= result.summary.appCount }.count
    #expect(systemKills > 100)
    #expect(result.kills.count - systemKills > 10)
    #expect(result.summary.metrics.peakUsedKB <= scenario.device.memoryKB)
    #expect(result.events.allSatisfy { $0.freeKB >= 0 })
  }

  /// The same start under lmkd is over both of ActivityManager's limits: its trim at 0 s kills 43
  /// cached apps and 275 empty processes (docs/policies.md), every cached app first, as its walk
  /// of the LRU list meets every process with activities before any without.
  @Test func underLmkdTheTrimTakesTheCachedAppsFirst() throws {
    var scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/iphone-11-real-start.json")
    scenario.policy = .lmkd
    let trimmed = try Simulator.run(scenario).kills.filter { $0.timeMs == 0 }.map(\.reason)
    #expect(trimmed.filter { $0 == .amTooManyCached }.count == 43)
    #expect(trimmed.filter { $0 == .amTooManyEmpty }.count == 275)
    #expect(trimmed.prefix(43).allSatisfy { $0 == .amTooManyCached })
  }
}
