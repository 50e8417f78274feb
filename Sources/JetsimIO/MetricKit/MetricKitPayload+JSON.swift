import JetsimCore

extension MetricKitPayload {
  /// The payload as `MXMetricPayload.jsonRepresentation()` shapes it (the keys of Xcode's simulated
  /// payload): `timeStampBegin` and `timeStampEnd` (simulated time, from 1970-01-01 00:00:00),
  /// `metaData`, `memoryMetrics` (sizes as `"N kB"`), and `applicationExitMetrics` with every
  /// background and foreground counter.
  package var json: JSONValue {
    func counters(_ list: [MetricKitExit]) -> JSONValue {
      .fields(list.map { ($0.key, .integer(count($0))) })
    }
    var memory: [(String, JSONValue)] = []
    if let peakMemoryKB { memory.append(("peakMemoryUsage", .string("\(peakMemoryKB) kB"))) }
    if let averageSuspendedKB {
      memory.append(
        (
          "averageSuspendedMemory",
          .fields([
            ("averageValue", .string("\(averageSuspendedKB) kB")),
            ("standardDeviation", .integer(0)),
            ("sampleCount", .integer(suspendedSamples)),
          ])
        ))
    }
    return .fields([
      ("timeStampBegin", .string(Self.timeStamp(0))),
      ("timeStampEnd", .string(Self.timeStamp(durationMs))),
      (
        "metaData",
        .fields([
          ("bundleIdentifier", .string(app ?? "")), ("deviceType", .string(device ?? "")),
          ("osVersion", .string("jetsim \(JetsimVersion.current) simulation")),
        ])
      ),
      ("memoryMetrics", .fields(memory)),
      (
        "applicationExitMetrics",
        .fields([
          ("backgroundExitData", counters(MetricKitExit.background)),
          ("foregroundExitData", counters(MetricKitExit.foregroundExits)),
        ])
      ),
    ])
  }

  /// `metrickit.json`: one payload for each app of a run, in the scenario's order.
  package static func runJSON(_ summary: RunSummary) -> String {
    var text: [UInt8] = []
    writeRunJSON(summary) { text += $0 }
    return String(decoding: text, as: UTF8.self)
  }

  /// `metrickit.json` (`runJSON`), handed to `write` some 64 KB at a time as each app's payload is
  /// rendered: the document is never whole in memory, which for a run of 10,000 apps was tens of
  /// megabytes.
  package static func writeRunJSON(
    _ summary: RunSummary, to write: (UnsafeRawBufferPointer) -> Void
  ) {
    var out: [UInt8] = []
    out.reserveCapacity(1 << 16 + 4096)
    out += summary.appCount == 0 ? "[]".utf8 : "[\n".utf8
    for app in 0..<summary.appCount {
      out += "  ".utf8
      JSONText.render(MetricKitPayload(app: app, of: summary).json, depth: 1, into: &out)
      out += app < summary.appCount - 1 ? ",\n".utf8 : "\n]".utf8
      if out.count >= 1 << 16 {
        out.withUnsafeBytes(write)
        out.removeAll(keepingCapacity: true)
      }
    }
    out += "\n".utf8
    out.withUnsafeBytes(write)
  }

  /// `milliseconds` after 1970-01-01 00:00:00 as MetricKit writes a time stamp
  /// (`yyyy-MM-dd HH:mm:ss`), in the proleptic Gregorian calendar.
  static func timeStamp(_ milliseconds: Int) -> String {
    let seconds = milliseconds / 1000
    var days = seconds / 86_400
    let rest = seconds % 86_400
    var year = 1970
    while days >= (isLeap(year) ? 366 : 365) {
      days -= isLeap(year) ? 366 : 365
      year += 1
    }
    let february = isLeap(year) ? 29 : 28
    var month = 1
    for days0 in [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] {
      if days < days0 { break }
      days -= days0
      month += 1
    }
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(year)-\(two(month))-\(two(days + 1)) \(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
  }
}
