import Dispatch
import Jetsim

/// The JetsamEvent case: reading, importing and replaying a 600-process report (docs/performance.md),
/// the size of the largest real reports.
enum ReportBenchmark {
  /// The report did not read as it was written.
  struct Unexpected: Error { var victims: Int }

  /// A report as iOS 17 writes it: 600 processes (idle daemons, suspended apps, daemons in higher
  /// bands, the app on screen), the first 40 killed under pressure.
  static func text(processes: Int = 600) -> String {
    var random = RandomStream(seed: 7, stream: 1)
    var entries: [String] = []
    for index in 0..<processes {
      let (states, priority): (String, Int) =
        switch index {
        case ..<300: ("\"daemon\",\"idle\"", 0)
        case ..<400: ("\"suspended\"", 0)
        case ..<599: ("\"daemon\"", 30 + Int(random.next() % 160))
        default: ("\"frontmost\"", 100)
        }
      let kill =
        index < 40 && index % 4 != 3
        ? ", \"reason\" : \"vm-pageshortage\", \"killDelta\" : \(1000 + index * 37)" : ""
      let digits = String(index)
      let uuidTail = String(repeating: "0", count: 12 - digits.count) + digits
      entries.append(
        """
          {
            "uuid" : "00000000-0000-0000-0000-\(uuidTail)",
            "states" : [\(states)],
            "priority" : \(priority),
            "rpages" : \(100 + random.next() % 4000),
            "lifetimeMax" : \(5000 + random.next() % 4000),
            "pid" : \(100 + index),
            "name" : "process\(index)",
            "age" : \(random.next() % 4_000_000_000_000),
            "cpuTime" : 0.5,
            "physicalPages" : { "internal" : [3, 400] },
            "freeze_skip_reason:" : "none"\(kill)
          }
        """)
    }
    return """
      {"bug_type":"298","timestamp":"2026-11-20 10:15:00.00 +0000","os_version":"iPhone OS 17.4 (21E219)"}
      {
        "product" : "iPhone12,1",
        "build" : "iPhone OS 17.4 (21E219)",
        "memoryStatus" : {
          "pageSize" : 16384, "compressorSize" : 90000, "uncompressed" : 250000,
          "memoryPages" : { "free" : 3000, "active" : 45000, "inactive" : 40000, "wired" : 49000 }
        },
        "largestProcess" : "process0",
        "processes" : [
      \(entries.joined(separator: ",\n"))
        ]
      }

      """
  }

  /// A report of `processes` processes where kills grow with the list, as in the replay that was
  /// quadratic: a third idle daemons, the rest suspended apps, one in seven killed for
  /// `vm-pageshortage`, the last on screen.
  static func growthText(processes: Int) -> String {
    var random = RandomStream(seed: 11, stream: 1)
    var entries: [String] = []
    entries.reserveCapacity(processes)
    for index in 0..<processes {
      let states =
        index == processes - 1
        ? "\"frontmost\"" : index % 3 == 0 ? "\"daemon\",\"idle\"" : "\"suspended\""
      let kill =
        index % 7 == 0 && index != processes - 1
        ? ", \"reason\" : \"vm-pageshortage\", \"killDelta\" : \(index)" : ""
      entries.append(
        """
        {"states" : [\(states)], "priority" : \(index == processes - 1 ? 100 : 0), \
        "rpages" : \(100 + random.next() % 400), "pid" : \(100 + index), \
        "name" : "process\(index)", "age" : \(index)\(kill)}
        """)
    }
    return """
      {"bug_type":"298","timestamp":"2026-11-20 10:15:00.00 +0000","os_version":"iPhone OS 17.4 (21E219)"}
      {"product" : "iPhone12,1", "build" : "iPhone OS 17.4 (21E219)",
       "memoryStatus" : {"pageSize" : 16384, "compressorSize" : 90000, "uncompressed" : 250000,
         "memoryPages" : {"free" : 3000, "active" : 45000, "inactive" : 40000, "wired" : 49000}},
       "processes" : [\(entries.joined(separator: ",\n"))]}

      """
  }

  /// Milliseconds to replay (under every built-in policy) a `growthText` report of `processes`
  /// processes, once, and its scored kills. A replay of a small report goes first, so that what the
  /// runtime sets up once in a process is not counted.
  static func replayOnce(processes: Int) throws -> (replay: Double, kills: Int) {
    let small = try JetsamReport.parse(Array(growthText(processes: 70).utf8), file: "s.ips")
    _ = try Replay.replay(JetsamImport.convert(small), policies: PolicyName.all)
    let report = try JetsamReport.parse(Array(growthText(processes: processes).utf8), file: "g.ips")
    let imported = JetsamImport.convert(report)
    let start = DispatchTime.now().uptimeNanoseconds
    let replay = try Replay.replay(imported, policies: PolicyName.all)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    return (elapsed, replay.realVictims.count)
  }

  /// Milliseconds to read, import and replay (under every built-in policy) the report, the best of
  /// `rounds`.
  static func measure(processes: Int = 600, rounds: Int = 20) throws -> (
    read: Double, importing: Double, replay: Double
  ) {
    let bytes = Array(text(processes: processes).utf8)
    var best = (read: Double.infinity, importing: Double.infinity, replay: Double.infinity)
    for _ in 0..<rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      let report = try JetsamReport.parse(bytes, file: "bench.ips")
      let read = DispatchTime.now().uptimeNanoseconds
      let imported = JetsamImport.convert(report)
      let converted = DispatchTime.now().uptimeNanoseconds
      let replay = try Replay.replay(imported, policies: PolicyName.all)
      let done = DispatchTime.now().uptimeNanoseconds
      guard replay.realVictims.count == 30 else {
        throw Unexpected(victims: replay.realVictims.count)
      }
      best.read = min(best.read, Double(read - start) / 1e6)
      best.importing = min(best.importing, Double(converted - read) / 1e6)
      best.replay = min(best.replay, Double(done - converted) / 1e6)
    }
    return best
  }
}
