import JetsimCore

extension MetricKitPayload {
  /// The payload as `MXMetricPayload.jsonRepresentation()` shapes it (the keys of Xcode's simulated
  /// payload): `timeStampBegin` and `timeStampEnd` (simulated time, from 1970-01-01 00:00:00),
  /// `metaData`, `memoryMetrics` (sizes as `"N kB"`), and `applicationExitMetrics` with every
  /// background and foreground counter.
  package var json: JSONValue {
    var tree = JSONTreeBuilder()
    write(to: &tree)
    return tree.value ?? .fields([])
  }

  /// Writes the payload (`json`) to `sink`.
  package func write<Sink: JSONSink>(to sink: inout Sink) {
    write(to: &sink, timeStampEnd: Self.timeStamp(durationMs))
  }

  /// Writes the payload with `timeStampEnd` given: the same for every app of a run, so a run's
  /// payloads work it out once.
  fileprivate func write<Sink: JSONSink>(to sink: inout Sink, timeStampEnd: String) {
    sink.beginObject()
    sink.member("timeStampBegin", Self.epoch)
    sink.member("timeStampEnd", timeStampEnd)
    sink.member("metaData") { sink in
      sink.member("bundleIdentifier", app ?? "")
      sink.member("deviceType", device ?? "")
      sink.member("osVersion", Self.osVersion)
    }
    sink.member("memoryMetrics") { sink in
      if let peakMemoryKB { sink.member("peakMemoryUsage", "\(peakMemoryKB) kB") }
      if let averageSuspendedKB {
        sink.member("averageSuspendedMemory") { sink in
          sink.member("averageValue", "\(averageSuspendedKB) kB")
          sink.member("standardDeviation", integer: 0)
          sink.member("sampleCount", integer: suspendedSamples)
        }
      }
    }
    sink.member("applicationExitMetrics") { sink in
      writeCounts("backgroundExitData", MetricKitExit.background, to: &sink)
      writeCounts("foregroundExitData", MetricKitExit.foregroundExits, to: &sink)
    }
    sink.endObject()
  }

  /// The member `key`: the count of each of `list`'s counters, in its order.
  private func writeCounts<Sink: JSONSink>(
    _ key: String, _ list: [MetricKitExit], to sink: inout Sink
  ) {
    let counts = counts(of: list)
    sink.member(key) { sink in
      for (exit, count) in zip(list, counts) { sink.member(exit.key, integer: count) }
    }
  }

  /// `timeStampBegin`: the start of simulated time.
  static let epoch = timeStamp(0)
  /// `metaData.osVersion`.
  static let osVersion = "jetsim \(JetsimVersion.current) simulation"

  /// The count of each of `list`'s counters, in its order: one pass over the few counts held, not
  /// a lookup (a hash of the key) for each counter.
  private func counts(of list: [MetricKitExit]) -> [Int] {
    var counts = [Int](repeating: 0, count: list.count)
    for (exit, count) in exits {
      if let index = list.firstIndex(of: exit) { counts[index] = count }
    }
    return counts
  }

  /// `metrickit.json`: one payload for each app of a run, in the scenario's order.
  package static func runJSON(_ summary: RunSummary) -> String {
    var text: [UInt8] = []
    writeRunJSON(summary) { text += $0 }
    return String(decoding: text, as: UTF8.self)
  }

  /// `metrickit.json` (`runJSON`), handed to `write` some 64 KB at a time as each app's payload is
  /// rendered: the document is never whole in memory, which for a run of 10,000 apps was tens of
  /// megabytes. A run's payloads are of two shapes (with or without `averageSuspendedMemory`), so
  /// they are written through a `JSONStamp`: their keys once, their values each time.
  package static func writeRunJSON(
    _ summary: RunSummary, to write: (UnsafeRawBufferPointer) -> Void
  ) {
    var text = JSONStamp(depth: 1)
    text.bytes.reserveCapacity(1 << 16 + 4096)
    text.bytes += summary.appCount == 0 ? "[]".utf8 : "[\n".utf8
    let end = timeStamp(summary.metrics.durationMs)
    for app in 0..<summary.appCount {
      text.bytes += "  ".utf8
      text.append(InRun(payload: MetricKitPayload(app: app, of: summary), timeStampEnd: end))
      text.bytes += app < summary.appCount - 1 ? ",\n".utf8 : "\n]".utf8
      if text.bytes.count >= 1 << 16 {
        text.bytes.withUnsafeBytes(write)
        text.bytes.removeAll(keepingCapacity: true)
      }
    }
    text.bytes += "\n".utf8
    text.bytes.withUnsafeBytes(write)
  }

  /// A payload of a run, whose `timeStampEnd` the run works out once.
  private struct InRun: JSONDocument {
    let payload: MetricKitPayload
    let timeStampEnd: String

    func write<Sink: JSONSink>(to sink: inout Sink) {
      payload.write(to: &sink, timeStampEnd: timeStampEnd)
    }
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
    // Written as bytes: interpolating them cost more than the rest of a payload.
    var text = Array(String(year).utf8)
    for (separator, value) in [
      ("-", month), ("-", days + 1), (" ", rest / 3600), (":", rest / 60 % 60), (":", rest % 60),
    ] as [(Unicode.Scalar, Int)] {
      text.append(UInt8(ascii: separator))
      if (0...99).contains(value) {
        text.append(UInt8(ascii: "0") + UInt8(value / 10))
        text.append(UInt8(ascii: "0") + UInt8(value % 10))
      } else {
        text += (value < 10 ? "0\(value)" : "\(value)").utf8
      }
    }
    return String(decoding: text, as: UTF8.self)
  }
}
