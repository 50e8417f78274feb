import Foundation
import JetsimTestSupport
import Testing

/// The app engineer's loop from the command line: what-if, import-metrickit, and their errors.
@Suite struct MetricKitEndToEndTests {
  let photofeed = "Profiles/scenarios/photofeed-day.json"

  /// docs/metrickit.md's worked example, smaller: two sizes on two devices. A smaller resident
  /// size shows in the payloads' average suspended memory, and every point has its row.
  @Test func whatIfWritesItsFilesAndTable() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "what-if", photofeed, "--app", "com.example.photofeed", "--resident", "300MB,150MB",
      "--devices", "Profiles/devices/iphone-12.json,Profiles/devices/iphone-16.json", "--seeds",
      "4", "--out", scratch.file("w"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("photofeed-day: com.example.photofeed at 4 points × 4 seeds"))
    #expect(result.output.contains("  iPhone 16   150.0 MB  "))
    #expect(result.output.contains("vs today "))
    #expect(
      try scratch.contents("w") == [".jetsim", "metrickit.json", "what-if.csv", "what-if.html"])
    let rows = try scratch.read("w/what-if.csv").split(separator: "\n")
    #expect(rows.count == 5)
    #expect(
      rows[0].hasPrefix(
        "app,device,resident_kb,today_kb,seeds,simulated_days,background_memory_pressure_per_24h_simulated,"
      ))
    let suspended = rows.dropFirst().map { Int($0.split(separator: ",").last ?? "") ?? 0 }
    #expect(suspended[0] > suspended[1], "300 MB resident is suspended bigger than 150 MB")
    #expect(suspended[0] - suspended[1] >= 100 * 1024)
    let payloads =
      try JSONSerialization.jsonObject(
        with: Data(try scratch.read("w/metrickit.json").utf8)) as? [[String: Any]]
    #expect(payloads?.count == 4)
  }

  @Test func importMetricKitChecksFillsAndCompares() throws {
    let scratch = try ScratchFolder()
    let result = try jetsim([
      "import-metrickit", "Profiles/metrickit/photofeed-2026-11-17.json",
      "Profiles/metrickit/photofeed-2026-11-18.json", "--app", "com.example.photofeed",
      "--profile", "Profiles/apps/photofeed.json", "--out", scratch.file("filled.json"),
      "--scenario", photofeed, "--seeds", "2",
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("com.example.photofeed: 2 payloads covering 2.0 days"))
    // (300000 × 38 + 290000 × 42) / 80 = 294750 KB.
    #expect(result.output.contains("average suspended  payloads 287.8 MB (80 samples)"))
    #expect(result.output.contains("    background_memory_pressure                     1.50"))
    #expect(result.output.contains("payloads cannot give: caches, backingStores"))
    let filled = try scratch.read("filled.json")
    #expect(filled.contains("\"caches\": \"200MB\""), "the rest stays the profile's")
    let valid = try jetsim(["validate", scratch.file("filled.json")])
    #expect(valid.status == 0, "\(valid.errors)")
  }

  /// The `simulated_average_suspended_kb`, `wrote_resident_kb` and `average_suspended_kb` of an
  /// import-metrickit run of the two sample payloads on photofeed-day, two seeds.
  func imported(profile: String, out: String? = nil, scenario: Bool = true) throws -> [String: Int]
  {
    var arguments = [
      "import-metrickit", "Profiles/metrickit/photofeed-2026-11-17.json",
      "Profiles/metrickit/photofeed-2026-11-18.json", "--app", "com.example.photofeed",
      "--profile", profile, "--seeds", "2", "--format", "json",
    ]
    if scenario { arguments += ["--scenario", photofeed] }
    if let out { arguments += ["--out", out] }
    let result = try jetsim(arguments)
    #expect(result.status == 0, "\(result.errors)")
    var numbers: [String: Int] = [:]
    for key in ["simulated_average_suspended_kb", "wrote_resident_kb", "average_suspended_kb"] {
      let line = result.output.split(separator: "\n").first { $0.contains("\"\(key)\": ") }
      numbers[key] = line.flatMap { Int($0.split(separator: " ").last?.filter(\.isNumber) ?? "") }
    }
    return numbers
  }

  @Test func withoutAScenarioOutWritesThePayloadsAverage() throws {
    let scratch = try ScratchFolder()
    let numbers = try imported(
      profile: "Profiles/apps/photofeed.json", out: scratch.file("f.json"), scenario: false)
    // (300000 × 38 + 290000 × 42) / 80 = 294750 KB.
    #expect(numbers["average_suspended_kb"] == 294_750 && numbers["wrote_resident_kb"] == 294_750)
    #expect(try scratch.read("f.json").contains("\"resident\": \"294750KB\""))
  }

  @Test func theScenarioRunsTheProfileGivenAndOutFitsItsSuspendedMemory() throws {
    let scratch = try ScratchFolder()
    // The simulated column is the profile's given with --profile, not the scenario's own copy.
    let shipped = try imported(profile: "Profiles/apps/photofeed.json")
    var text = try String(
      contentsOfFile: packagePath("Profiles/apps/photofeed.json"), encoding: .utf8)
    text = text.replacingOccurrences(of: "\"resident\": \"210MB\"", with: "\"resident\": \"100MB\"")
    try #require(text.contains("\"resident\": \"100MB\""))
    let smaller = try imported(profile: try scratch.write("small.json", text))
    let (a, b) = (
      try #require(shipped["simulated_average_suspended_kb"]),
      try #require(smaller["simulated_average_suspended_kb"])
    )
    #expect(b < a, "a profile 110 MB smaller simulates smaller: \(a) KB, then \(b) KB")
    // With --out, the profile written simulates the payloads' average suspended memory (resident
    // plus growth), within 1 %; checked again from the file written.
    let fitted = try imported(profile: "Profiles/apps/photofeed.json", out: scratch.file("f.json"))
    let target = try #require(fitted["average_suspended_kb"])
    let resident = try #require(fitted["wrote_resident_kb"])
    #expect(resident < target, "growth taken off")
    #expect(try scratch.read("f.json").contains("\"resident\": \"\(resident)KB\""))
    let again = try #require(
      try imported(profile: scratch.file("f.json"))["simulated_average_suspended_kb"])
    #expect(abs(again - target) <= max(1024, target / 100), "\(again) KB against \(target) KB")
  }

  @Test(arguments: [
    (["--app", "com.example.other"], Int32(65), "metaData.bundleIdentifier"),
    (
      ["--app", "com.example.photofeed", "--scenario", "Profiles/scenarios/daily-commute.json"], 65,
      ""
    ),
    (["--app", "com.example.photofeed", "--profile", "nope.json"], 66, "nope.json: no such file"),
  ])
  func importMetricKitErrorsAreOneLine(extra: [String], status: Int32, words: String) throws {
    var arguments = ["import-metrickit", "Profiles/metrickit/photofeed-2026-11-17.json"] + extra
    if !extra.contains("--profile") { arguments += ["--profile", "Profiles/apps/photofeed.json"] }
    let result = try jetsim(arguments)
    if extra.contains("Profiles/scenarios/daily-commute.json") {
      // daily-commute has photofeed too: this one works.
      #expect(result.status == 0, "\(result.errors)")
      return
    }
    #expect(result.status == status, "\(result.errors)")
    #expect(result.errors.contains(words), "\(result.errors)")
    #expect(result.errors.split(separator: "\n").count == 1)
  }

  /// A payload file given twice (two patterns that overlap, or one path written two ways) is a
  /// usage error: its payloads would weigh twice.
  @Test func importMetricKitRefusesAFileGivenTwice() throws {
    let payload = "Profiles/metrickit/photofeed-2026-11-17.json"
    for second in [
      payload, "\(packageRoot)/\(payload)", "Profiles//metrickit/./\(payload.dropFirst(19))",
    ] {
      let result = try jetsim([
        "import-metrickit", payload, "Profiles/metrickit/photofeed-2026-11-18.json", second,
        "--app", "com.example.photofeed", "--profile", "Profiles/apps/photofeed.json",
      ])
      #expect(result.status == 64)
      #expect(result.errors.hasPrefix("jetsim: PAYLOAD 3 ('"), "\(result.errors)")
      #expect(
        result.errors.hasSuffix(
          "') is PAYLOAD 1 again; give each payload file once (see 'jetsim import-metrickit --help')\n"
        ), "\(result.errors)")
      #expect(result.errors.split(separator: "\n").count == 1)
      #expect(result.output == "")
    }
  }

  /// Another app's profile is refused, naming the file and its id, and nothing is written: it
  /// would be filled with (or checked against) this app's memory.
  @Test func anotherAppsProfileIsRefused() throws {
    let scratch = try ScratchFolder()
    for out in [[], ["--out", scratch.file("x.json")]] {
      let result = try jetsim(
        [
          "import-metrickit", "Profiles/metrickit/photofeed-2026-11-17.json", "--app",
          "com.example.photofeed", "--profile", "Profiles/apps/maps.json",
        ] + out)
      #expect(result.status == 65)
      #expect(
        result.errors
          == "jetsim: Profiles/apps/maps.json: 'id' is 'com.example.maps'; expected com.example.photofeed, the app given with --app; give that app's profile with --profile (or --app com.example.maps for this profile's payloads)\n"
      )
      #expect(result.output == "")
    }
    #expect(try scratch.contents() == [])
  }

  /// Payloads all of other apps: the error names every file (the first, and how many more) and
  /// the apps they are of, in the payloads of all of them.
  @Test func payloadsOfOtherAppsAreNamedAsTheyAre() throws {
    let two = try jetsim([
      "import-metrickit", "Profiles/metrickit/photofeed-2026-11-17.json",
      "Profiles/metrickit/photofeed-2026-11-18.json", "--app", "com.example.nope", "--profile",
      "Profiles/apps/photofeed.json",
    ])
    #expect(two.status == 65)
    #expect(
      two.errors
        == "jetsim: Profiles/metrickit/photofeed-2026-11-17.json (and 1 more): 'metaData.bundleIdentifier' is com.example.photofeed in all 2 payloads; expected a payload of com.example.nope, the app given with --app\n"
    )
    let one = try jetsim([
      "import-metrickit", "Profiles/metrickit/photofeed-2026-11-17.json", "--app",
      "com.example.nope", "--profile", "Profiles/apps/photofeed.json",
    ])
    #expect(
      one.errors
        == "jetsim: Profiles/metrickit/photofeed-2026-11-17.json: 'metaData.bundleIdentifier' is com.example.photofeed in the payload; expected a payload of com.example.nope, the app given with --app\n"
    )
  }

  @Test func whatIfErrorsAreOneLine() throws {
    let unknown = try jetsim([
      "what-if", photofeed, "--app", "com.example.nobody", "--resident", "100MB",
    ])
    #expect(unknown.status == 65)
    #expect(
      unknown.errors.contains(
        "'apps': no app 'com.example.nobody' to change; its apps are com.example.photofeed,"))
    let size = try jetsim([
      "what-if", photofeed, "--app", "com.example.photofeed", "--resident", "big",
    ])
    #expect(size.status == 64)
    #expect(size.errors.contains("--resident 'big' is not"))
    let missing = try jetsim(["what-if", photofeed, "--resident", "100MB"])
    #expect(missing.status == 64)
    #expect(missing.errors.contains("'what-if' needs --app ID"))
  }

  /// A profile that cannot be written names the file asked for, not a temporary one, and nothing
  /// is left behind.
  @Test func anUnwritableOutIsOneLine() throws {
    let scratch = try ScratchFolder()
    let target = scratch.file("missing/filled.json")
    let result = try jetsim([
      "import-metrickit", "Profiles/metrickit/photofeed-2026-11-17.json", "--app",
      "com.example.photofeed", "--profile", "Profiles/apps/photofeed.json", "--out", target,
    ])
    #expect(result.status == 73)
    #expect(result.errors.hasPrefix("jetsim: \(target): cannot write"), "\(result.errors)")
    #expect(result.errors.split(separator: "\n").count == 1)
    #expect(try scratch.contents() == [])
  }
}

/// what-if on an imported JetsamEvent report: a snapshot needs a workload, any app of it can be
/// resized, and the size changes the figures.
@Suite struct WhatIfSnapshotTests {
  @Test func aSnapshotNeedsAWorkloadAndTheSizeChangesTheFigures() throws {
    let scratch = try ScratchFolder()
    let imported = try jetsim([
      "import-jetsam", "Profiles/jetsam-reports/ios14-iphone11-highwater.ips", "--out",
      scratch.file("imp"),
    ])
    #expect(imported.status == 0, "\(imported.errors)")
    let scenario = scratch.file("imp/ios14-iphone11-highwater/scenario.json")
    let bare = try jetsim([
      "what-if", scenario, "--app", "FindMy", "--resident", "50MB,800MB", "--policy", "jetsam",
      "--out", scratch.file("bare"),
    ])
    #expect(bare.status == 65)
    #expect(bare.errors.contains("give --user-model FILE"))
    #expect(bare.errors.split(separator: "\n").count == 1)
    let result = try jetsim([
      "what-if", scenario, "--app", "com.apple.WebKit.Networking", "--resident", "50MB,800MB",
      "--policy", "jetsam", "--user-model", "Profiles/user-models/everyday.json", "--seeds", "4",
      "--out", scratch.file("w"),
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("each run 24.0 h simulated"))
    let rows = try scratch.read("w/what-if.csv").split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    #expect(rows[0][6] == "background_memory_pressure_per_24h_simulated")
    #expect(rows[0][8] == "background_memory_pressure_vs_today_per_24h_simulated")
    #expect(rows.count == 3)
    #expect(rows[1][6] != rows[2][6], "50 MB and 800 MB give different exits a day")
    #expect(rows[1].last != rows[2].last, "and different suspended footprints")
    let system = try jetsim([
      "what-if", scenario, "--app", "launchd", "--resident", "+30%", "--user-model",
      "Profiles/user-models/everyday.json", "--out", scratch.file("s"),
    ])
    #expect(system.status == 65 && system.errors.contains("a system process of the device"))
    let tooBig = try jetsim([
      "what-if", scenario, "--app", "FindMy", "--resident", "3GB", "--user-model",
      "Profiles/user-models/everyday.json", "--seeds", "1", "--out", scratch.file("big"),
    ])
    #expect(tooBig.status == 65)
    #expect(tooBig.errors.contains("leave room for the snapshot's other processes at time 0"))
  }
}
