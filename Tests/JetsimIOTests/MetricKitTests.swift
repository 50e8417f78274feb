import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// MetricKit out and in (docs/metrickit.md): the mapping of jetsim's kills to MetricKit's exit
/// counters, the payload of a run, and reading payloads in the shape MetricKit writes them.
@Suite struct MetricKitTests {
  /// docs/metrickit.md's table, row by row: (reason, in the foreground?) → counter, or nil.
  @Test func everyKillMapsAsTheTableSays() {
    let table: [(KillReason, String?, String?)] = [
      (.vmPageshortage, nil, "background_memory_pressure"),
      (.longIdleExit, nil, "background_memory_pressure"),
      (.procThrashing, nil, "background_memory_pressure"),
      (.lowSwap, nil, "background_memory_pressure"),
      (.idleExit, nil, "background_memory_pressure"),
      (.sustainedPressure, nil, "background_memory_pressure"),
      (.highwater, "foreground_memory_resource_limit", "background_memory_resource_limit"),
      (.perProcessLimit, "foreground_memory_resource_limit", "background_memory_resource_limit"),
      (.watchdog, "foreground_app_watchdog", "background_app_watchdog"),
      (.backgroundTaskExpired, nil, "background_background_task_assertion_timeout"),
      (.exitOnSuspend, "foreground_normal_app", "background_normal_app"),
      (.userForceQuit, nil, nil), (.reboot, nil, nil),
      (.amTooManyCached, nil, nil), (.amTooManyEmpty, nil, nil), (.amTrimEmpty, nil, nil),
    ]
    // lmkd's reasons: memory pressure, counted in the background only.
    let lmkd: [(KillReason, String?, String?)] = KillReason.allCases.filter(\.isLmk).map {
      ($0, nil, "background_memory_pressure")
    }
    #expect((table + lmkd).count == KillReason.allCases.count)
    for (reason, foreground, background) in table + lmkd {
      #expect(
        MetricKitExit.counter(for: reason, foreground: true)?.column == foreground, "\(reason)")
      #expect(
        MetricKitExit.counter(for: reason, foreground: false)?.column == background, "\(reason)")
    }
    // Every counter a kill maps to is one MetricKit has.
    for reason in KillReason.allCases {
      for foreground in [true, false] {
        if let exit = MetricKitExit.counter(for: reason, foreground: foreground) {
          #expect(MetricKitExit.all.contains(exit))
        }
      }
    }
    #expect(MetricKitExit.all.count == 19)
    #expect(Set(MetricKitExit.all.map(\.column)).count == 19, "column names are distinct")
    #expect(
      MetricKitExit("background_cpu_resource_limit")?.key == "cumulativeCPUResourceLimitExitCount")
    #expect(
      MetricKitExit("background_background_url_session_completion_timeout")?.key
        == "cumulativeBackgroundURLSessionCompletionTimeoutExitCount")
  }

  /// notes is killed suspended for memory (background memory pressure), bank exits on suspend
  /// (background normal exit), maps is killed on screen over its own limit (foreground memory limit).
  @Test func aRunsPayloadCountsEachKillOnce() throws {
    let apps = [
      Fixture.app("maps", resident: 100, caches: 20, backing: 10) { $0.memoryLimitKB = mb(600) },
      Fixture.app("notes", resident: 50, caches: 10, backing: 10),
      Fixture.app("bank", resident: 60, caches: 10, backing: 10) { $0.exitsOnSuspend = true },
    ]
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(10), .open("bank")),
        TimedAction(sec(20), .open("maps")),
        TimedAction(sec(30), .allocate("maps", kilobytes: mb(700))),
      ], durationMs: sec(60))
    let payloads = (0..<3).map { MetricKitPayload(app: $0, of: result.summary) }
    let reasons = result.killOrder.map { "\($0.app) \($0.reason)" }
    #expect(reasons.contains("bank exit-on-suspend"))
    #expect(reasons.contains("maps per-process-limit"))
    #expect(payloads[2].count(MetricKitExit("background_normal_app")!) == 1)
    #expect(payloads[0].count(.foregroundMemoryResourceLimit) == 1)
    let total = payloads.reduce(0) { sum, payload in
      sum + MetricKitExit.all.reduce(0) { $0 + payload.count($1) }
        + payload.unmapped.values.reduce(0, +)
    }
    #expect(total == result.kills.count, "every kill is counted once, mapped or not")
    // notes was suspended from 10 s to the end at its resident footprint (caches and backing
    // stores purged), unless it was killed: either way its average is that footprint.
    #expect(payloads[1].averageSuspendedKB == mb(50))
    #expect(payloads[1].suspendedSamples == 1)
    #expect(payloads[0].peakMemoryKB == result.summary.apps[0].peakFootprintKB)
    #expect(payloads[0].durationMs == sec(60))
  }

  @Test func aPayloadRoundTripsThroughItsJSON() throws {
    var payload = MetricKitPayload(
      app: "com.example.a", device: "iPhone 12", durationMs: 93_784_000)
    payload.exits[.backgroundMemoryPressure] = 3
    payload.exits[.foregroundMemoryResourceLimit] = 1
    payload.peakMemoryKB = 512_000
    payload.averageSuspendedKB = 300_123
    payload.suspendedSamples = 7
    let scratch = try ScratchFolder()
    let path = try scratch.write("p.json", JSONText.render(payload.json))
    let text = try scratch.read("p.json")
    #expect(text.contains("\"timeStampEnd\": \"1970-01-02 02:03:04\""))
    #expect(text.contains("\"peakMemoryUsage\": \"512000 kB\""))
    let read = try MetricKitPayload.load(at: path)
    #expect(read.count == 1)
    #expect(read.first?.durationMs == payload.durationMs)
    #expect(read.first?.exits.filter { $0.value > 0 } == payload.exits)
    #expect(read.first?.peakMemoryKB == 512_000)
    #expect(read.first?.averageSuspendedKB == 300_123)
    #expect(read.first?.suspendedSamples == 7)
    #expect(read.first?.app == "com.example.a")
    // Leap years and month ends come back as they went.
    for ms in [0, 951_782_400_000, 1_709_164_800_000, 4_102_444_799_000] {
      #expect(
        try MetricKitPayload.time(
          ProfileFields(
            JSONParser.parse(Array("{\"t\": \"\(MetricKitPayload.timeStamp(ms))\"}".utf8)),
            allowed: nil), "t") == ms)
    }
    #expect(MetricKitPayload.timeStamp(951_782_400_000) == "2000-02-29 00:00:00")
  }

  /// A payload written straight to bytes (`metrickit.json` of a run) is the text of its JSON value
  /// (`what-if`'s and the reader's): with and without each optional part, counts in either list,
  /// names that need escapes.
  @Test func aPayloadWritesAsItsValueRenders() {
    var full = MetricKitPayload(app: "a\"b\\c\u{1}", device: "iPhone 12", durationMs: 93_784_000)
    full.exits[.backgroundMemoryPressure] = 3
    full.exits[.foregroundMemoryResourceLimit] = 12_345_678_901
    full.peakMemoryKB = 512_000
    full.averageSuspendedKB = -1
    full.suspendedSamples = Int.min
    var peakOnly = MetricKitPayload(app: nil, device: nil, durationMs: 0)
    peakOnly.peakMemoryKB = 0
    let payloads = [full, peakOnly, MetricKitPayload(app: "x", device: "d", durationMs: 1)]
    for payload in payloads {
      var bytes = JSONPrettyBytes()
      payload.write(to: &bytes)
      #expect(String(decoding: bytes.bytes, as: UTF8.self) + "\n" == JSONText.render(payload.json))
      var nested = JSONPrettyBytes(depth: 3)
      payload.write(to: &nested)
      var rendered: [UInt8] = []
      JSONText.render(payload.json, depth: 3, into: &rendered)
      #expect(nested.bytes == rendered)
    }
    #expect(
      JSONText.render(full.json).contains("\"cumulativeMemoryResourceLimitExitCount\": 12345678901")
    )
    #expect(
      JSONText.render(peakOnly.json).contains("\"memoryMetrics\": {\n    \"peakMemoryUsage\""))
    #expect(JSONText.render(payloads[2].json).contains("\"memoryMetrics\": {}"))
  }

  /// The hand-written samples of Profiles/metrickit, in the shape of Xcode's simulated payload.
  @Test func theShippedSamplesRead() throws {
    let day = try MetricKitPayload.load(
      at: "\(packageRoot)/Profiles/metrickit/photofeed-2026-11-17.json")
    let payload = try #require(day.first)
    #expect(payload.durationMs == (23 * 60 + 59) * 60_000)
    #expect(payload.peakMemoryKB == 512_000, "\"512,000 kB\"")
    #expect(payload.averageSuspendedKB == 300_000)
    #expect(payload.count(.backgroundMemoryPressure) == 2)
    #expect(payload.device == "iPhone13,2")
  }

  @Test(arguments: [
    (#"{"timeStampBegin": "2026-01-01 00:00:00"}"#, "timeStampEnd"),
    (
      #"{"timeStampBegin": "2026-01-02 00:00:00", "timeStampEnd": "2026-01-01 00:00:00"}"#,
      "timeStampEnd"
    ),
    (
      #"{"timeStampBegin": "2026-01-01 00:00:00", "timeStampEnd": "2026-13-01 00:00:00"}"#,
      "timeStampEnd"
    ),
    (
      #"{"timeStampBegin": "2026-01-01 00:00:00", "timeStampEnd": "2026-01-02 00:00:00", "memoryMetrics": {"peakMemoryUsage": "lots"}}"#,
      "memoryMetrics.peakMemoryUsage"
    ),
    (
      #"{"timeStampBegin": "2026-01-01 00:00:00", "timeStampEnd": "2026-01-02 00:00:00", "applicationExitMetrics": {"backgroundExitData": {"cumulativeMemoryPressureExitCount": -1}}}"#,
      "applicationExitMetrics.backgroundExitData.cumulativeMemoryPressureExitCount"
    ),
    ("[]", "(top level)"),
  ])
  func aBadPayloadIsOneLineNamingTheKey(text: String, key: String) throws {
    let scratch = try ScratchFolder()
    let path = try scratch.write("bad.json", text)
    do {
      _ = try MetricKitPayload.load(at: path)
      Issue.record("\(text) was accepted")
    } catch {
      let message = "\(error)"
      #expect(message.contains("bad.json"), "\(message)")
      #expect(message.contains(key), "\(message)")
      #expect(!message.contains("\n"))
    }
  }
}
