import Foundation
import JetsimTestSupport
import Testing

/// `jetsim plan` and `jetsim what-if` at their edges: devices whose plans would share a folder,
/// an answer at the smallest size tried, sizes a device does not validate at, the seeds' cap,
/// and an app over its own memory limit.
@Suite struct PlanEdgeTests {
  /// Two device files of one name would plan into one folder, the second plan replacing the
  /// first: refused before anything runs, naming both files.
  @Test func devicesPlanningIntoOneFolderAreRefused() throws {
    let scratch = try ScratchFolder()
    let device = try String(
      contentsOfFile: packagePath("Profiles/devices/iphone-8.json"), encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: scratch.file("a"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: scratch.file("b"), withIntermediateDirectories: true)
    let first = try scratch.write("a/iphone-8.json", device)
    let second = try scratch.write("b/iphone-8.json", device)
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "kills-per-hour<=1", "--devices",
      "\(first),\(second)", "--out", scratch.file("p"),
    ])
    #expect(result.status == 64)
    #expect(result.errors.contains("'\(first)' and '\(second)' would both plan into the folder"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("p")))
  }

  /// A file's name up to `.json` names its folder: `a.v1.json` and `a.v2.json` do not collide.
  @Test func dottedFileNamesPlanIntoFoldersOfTheirOwn() throws {
    let scratch = try ScratchFolder()
    let device = try String(
      contentsOfFile: packagePath("Profiles/devices/iphone-8.json"), encoding: .utf8)
    let first = try scratch.write("a.v1.json", device)
    let second = try scratch.write("a.v2.json", device)
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "warm-resume-ratio>=0.9", "--seeds", "2",
      "--min", "1GB", "--max", "2GB", "--precision", "512MB", "--devices", "\(first),\(second)",
      "--out", scratch.file("p"), "--quiet",
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(try scratch.contents("p") == ["a.v1", "a.v2"])
  }

  /// `cold_launches` counts only the opens that reached the screen, so it falls as memory
  /// starves: the plan says its answer is the smallest size tried, with no interval below it, and
  /// names the failed opens and pressure kills there, in the text and in plan.json.
  @Test func anAnswerAtTheSmallestSizeTriedIsSaidPlainly() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "cold_launches<20", "--seeds", "5",
      "--out", scratch.file("p"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    let lines = result.output.split(separator: "\n")
    #expect(lines.first?.contains("576MB, the smallest size tried, for cold_launches") == true)
    #expect(!result.output.contains("95 % interval 576MB to 576MB"))
    #expect(result.output.contains("opens a run failed (the app died before reaching the screen)"))
    #expect(result.output.contains("so cold_launches may not grow with memory"))
    let plan =
      try JSONSerialization.jsonObject(
        with: Data(try scratch.read("p/plan.json").utf8)) as? [String: Any]
    #expect(plan?["answer_is_smallest_tried"] as? Bool == true)
    #expect((plan?["warning"] as? String)?.contains("memory pressure killed") == true)
    let curve = plan?["curve"] as? [[String: Any]]
    #expect((curve?.first?["failed_opens"] as? Int ?? 0) > 0)
  }

  /// A plan whose answer is above the smallest size tried has no such warning.
  @Test func anAnswerAboveTheSmallestSizeHasNoWarning() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "warm-resume-ratio>=0.9", "--seeds", "3",
      "--precision", "256MB", "--out", scratch.file("p"), "--format", "json",
    ])
    #expect(result.status == 0, "\(result.errors)")
    let plan = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    #expect(plan?["answer_is_smallest_tried"] as? Bool == false)
    #expect(plan?["warning"] is NSNull)
  }

  /// `run` prints the opens that failed (neither a cold launch nor a warm resume) when there are
  /// any, and not otherwise; summary.csv gains no column for them.
  @Test func runPrintsTheOpensThatFailed() throws {
    let scratch = try ScratchFolder()
    let device = try String(
      contentsOfFile: packagePath("Profiles/devices/iphone-6s.json"), encoding: .utf8
    ).replacingOccurrences(of: #""memory": "2048MB""#, with: #""memory": "640MB""#)
    let devicePath = try scratch.write("small.json", device)
    let scenario = try String(contentsOfFile: scenarioPath("light-user-2gb"), encoding: .utf8)
      .replacingOccurrences(of: "\"../devices/iphone-6s.json\"", with: "\"\(devicePath)\"")
      .replacingOccurrences(of: "\"../", with: "\"\(packageRoot)/Profiles/")
    let path = try scratch.write("small-day.json", scenario)
    let result = try jetsim(["run", path, "--out", scratch.file("r"), "--no-html"])
    #expect(result.status == 0, "\(result.errors)")
    #expect(
      result.output.contains(
        "  opens            41 (cold launches 6, warm resumes 0, failed 35: died before reaching the screen)"
      ))
    let summary = try scratch.read("r/summary.csv").split(separator: "\n")
    let header = summary[0].split(separator: ",", omittingEmptySubsequences: false)
    let row = summary[1].split(separator: ",", omittingEmptySubsequences: false)
    #expect(!header.contains("failed_opens"))
    #expect(row[header.firstIndex(of: "opens") ?? 0] == "41")
    let plain = try jetsim(["run", scenarioPath("light-user-2gb"), "--out", scratch.file("plain")])
    #expect(plain.output.contains("  opens            54 (cold launches 6, warm resumes 48)\n"))
  }

  /// An imported device whose system processes need 1.6 GB beside its reserved memory: the plan's
  /// smallest size is the smallest `validate` accepts on its grid, not the reserved memory plus a
  /// step; a `--min` below it is refused naming the scenario, the size and the smallest that runs.
  @Test func planTriesOnlySizesTheDeviceValidatesAt() throws {
    let scratch = try ScratchFolder()
    #expect(
      try jetsim([
        "import-jetsam", "Profiles/jetsam-reports/ios14-iphone11-highwater.ips", "--out",
        scratch.file("imp"), "--quiet",
      ]).status == 0)
    let imported = scratch.file("imp/ios14-iphone11-highwater")
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "kills-per-hour<=1", "--seeds", "2",
      "--devices", "\(imported)/device.json", "--out", scratch.file("p"), "--quiet",
    ])
    #expect(result.status == 0, "\(result.errors)")
    let plan =
      try JSONSerialization.jsonObject(with: Data(try scratch.read("p/plan.json").utf8))
      as? [String: Any]
    let smallest = try #require((plan?["curve"] as? [[String: Any]])?.first?["memory_kb"] as? Int)
    #expect(smallest == 2496 * 1024)
    let device = try scratch.read("imp/ios14-iphone11-highwater/device.json")
    for (memory, status) in [("2432MB", Int32(65)), ("2496MB", 0)] {
      let resized = device.replacingOccurrences(
        of: #""memory": "3844MB""#, with: "\"memory\": \"\(memory)\"")
      let path = try scratch.write("device-\(memory).json", resized)
      #expect(try jetsim(["validate", path]).status == status, "validate at \(memory)")
    }
    let snapshot = try jetsim([
      "plan", "\(imported)/scenario.json", "--target", "kills<=10", "--seeds", "2", "--out",
      scratch.file("s"), "--quiet",
    ])
    #expect(snapshot.status == 0, "\(snapshot.errors)")
    let below = try jetsim([
      "plan", "\(imported)/scenario.json", "--target", "kills<=10", "--seeds", "2", "--min", "1GB",
      "--out", scratch.file("b"),
    ])
    #expect(below.status == 65)
    #expect(below.errors.hasPrefix("jetsim: \(imported)/scenario.json: 'memory range' is "))
    #expect(below.errors.contains("(at 1GB, 'systemProcesses' is 1657.8 MB in all; expected"))
    #expect(
      below.errors.hasSuffix(
        "the smallest on the grid is 3264MB; set the range with --min and --max\n"))
  }

  /// `--max-seeds` below the first round's 20 seeds caps them, and the plan says no second round
  /// was run; below the seeds `--seeds` gives, it is refused.
  @Test func maxSeedsCapsTheFirstRound() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "kills-per-hour<=1", "--max-seeds", "3",
      "--precision", "256MB", "--out", scratch.file("p"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("; 3 seeds; iPhone 6s"))
    #expect(
      result.output.contains(
        " (--max-seeds 3 leaves no room for a second round, so whether the answer settles is not known)"
      ))
    #expect(!result.output.contains("the seeds given"))
    let plan =
      try JSONSerialization.jsonObject(with: Data(try scratch.read("p/plan.json").utf8))
      as? [String: Any]
    #expect((plan?["seeds"] as? [Int]) == [1, 2, 3])
    #expect(plan?["max_seeds"] as? Int == 3)
    let refused = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "kills-per-hour<=1", "--seeds", "10",
      "--max-seeds", "5",
    ])
    #expect(refused.status == 64)
    #expect(refused.errors.contains("--max-seeds 5 is below the 10 seeds of --seeds"))
  }

  /// A resident size over the app's memory limit (iPhone 12's foreground limit, 2034 MB) has it
  /// killed at every launch: its pressure exits fall to 0, which is no saving, so the row shows the
  /// memory-limit exits with their paired difference and a warning says why; the headline counts
  /// the runs at today's size too.
  @Test func whatIfOverTheAppsLimitSaysSo() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "what-if", "Profiles/scenarios/photofeed-day.json", "--app", "com.example.photofeed",
      "--resident", "5GB,300MB", "--seeds", "2", "--out", scratch.file("w"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    let lines = result.output.split(separator: "\n")
    #expect(
      lines.first?.hasPrefix(
        "photofeed-day: com.example.photofeed at 2 points × 2 seeds and at today's size on each device, 6 runs,"
      ) == true)
    let big = try #require(lines.first { $0.hasPrefix("  iPhone 12  5120.0 MB") })
    #expect(big.contains("; memory-limit exits per 24 h 210.00 ± 38.12, vs today +210.00 ± 38.12"))
    #expect(
      result.output.contains(
        "  warning: at 5120.0 MB on iPhone 12, com.example.photofeed is over its memory limit, 2034.0 MB (the device's foreground limit): every launch is killed"
      ))
    let small = try #require(lines.first { $0.hasPrefix("  iPhone 12   300.0 MB") })
    #expect(!small.contains("memory-limit"))
    #expect(!result.output.contains("at 300.0 MB on iPhone 12"))
    let json = try jetsim([
      "what-if", "Profiles/scenarios/photofeed-day.json", "--app", "com.example.photofeed",
      "--resident", "5GB", "--seeds", "2", "--out", scratch.file("j"), "--format", "json",
    ])
    let document =
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    #expect(document?["runs"] as? Int == 4)
    let point = (document?["points"] as? [[String: Any]])?.first
    #expect(point?["over_memory_limit"] as? Bool == true)
    #expect(point?["memory_limit_kb"] as? Int == 2034 * 1024)
  }

  /// With today's size among those asked for, no run is added, and the count says none is.
  @Test func whatIfWithTodaysSizeCountsNoExtraRuns() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "what-if", "Profiles/scenarios/photofeed-day.json", "--app", "com.example.photofeed",
      "--resident", "210MB,300MB", "--seeds", "2", "--out", scratch.file("w"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.hasPrefix("photofeed-day: com.example.photofeed at 2 points × 2 seeds,"))
  }
}
