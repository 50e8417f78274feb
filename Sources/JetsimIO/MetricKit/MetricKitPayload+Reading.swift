import JetsimCore

extension MetricKitPayload {
  /// Reads the payloads in the file at `path`: one `MXMetricPayload.jsonRepresentation()` object,
  /// or a list of them (as `metrickit.json` holds). Keys jetsim does not read are ignored, as
  /// MetricKit adds keys from release to release; those it reads are checked, and an error names
  /// the file and key path.
  public static func load(at path: String) throws(JetsimError) -> [MetricKitPayload] {
    let bytes = try InputFile.bytes(at: path)
    do {
      let node = try JSONParser.parse(bytes)
      if let elements = node.elements {
        guard !elements.isEmpty, elements.count <= Units.maxPayloads else {
          throw FieldError(
            keyPath: "(top level)",
            kind: .invalid(
              value: "a list of \(elements.count.counted("payload"))",
              expected: "1 to \(Units.maxPayloads) payloads"))
        }
        return try elements.enumerated().map { index, element throws(FieldError) in
          try payload(element, at: "[\(index)]")
        }
      }
      return [try payload(node, at: "")]
    } catch let error as FieldError {
      throw error.located(in: path)
    } catch {
      throw .malformedJSON(path: path, detail: "\(error)")
    }
  }

  static func payload(_ node: JSONNode, at keyPath: String) throws(FieldError) -> MetricKitPayload {
    let fields = try ProfileFields(node, at: keyPath, allowed: nil)
    let begin = try time(fields, "timeStampBegin")
    let end = try time(fields, "timeStampEnd")
    guard end > begin, end - begin <= Units.maxMilliseconds else {
      throw fields.invalid(
        "timeStampEnd",
        end > begin ? "more than 139 years after timeStampBegin" : "not after timeStampBegin",
        "a time stamp after timeStampBegin, within 139 years of it")
    }
    let meta = try fields.object("metaData", allowed: nil)
    var payload = MetricKitPayload(
      app: try meta?.string("bundleIdentifier"), device: try meta?.string("deviceType"),
      durationMs: end - begin)
    if let memory = try fields.object("memoryMetrics", allowed: nil) {
      payload.peakMemoryKB = try measurement(memory, "peakMemoryUsage")
      if let average = try memory.object("averageSuspendedMemory", allowed: nil) {
        payload.averageSuspendedKB = try measurement(average, "averageValue")
        payload.suspendedSamples = try average.integer("sampleCount", in: 0...(1 << 40)) ?? 0
      }
    }
    if let exits = try fields.object("applicationExitMetrics", allowed: nil) {
      for (name, list) in [
        ("backgroundExitData", MetricKitExit.background),
        ("foregroundExitData", MetricKitExit.foregroundExits),
      ] {
        guard let data = try exits.object(name, allowed: nil) else { continue }
        for exit in list {
          if let count = try data.integer(exit.key, in: 0...(1 << 40)) {
            payload.exits[exit] = count
          }
        }
      }
    }
    return payload
  }

  /// A size as MetricKit writes a measurement: `"200000 kB"`, `"200,000 kB"`, `"195.3 MB"`,
  /// `"2 GB"`, `"1048576 bytes"`, or a bare number of bytes. In KB, rounded.
  static func measurement(_ fields: ProfileFields, _ key: String) throws(FieldError) -> Int? {
    guard let node = fields.node(key) else { return nil }
    let expected = "a size such as \"200000 kB\" or \"195 MB\""
    if let bytes = node.integer(in: 0...(1 << 50)) { return (bytes + 512) / 1024 }
    guard let text = node.string else { throw fields.invalid(key, node.summary, expected) }
    let parts = text.filter { $0 != "," }.split(separator: " ")
    let factors: [String: Double] = [
      "bytes": 1.0 / 1024, "B": 1.0 / 1024, "kB": 1, "KB": 1, "MB": 1024, "GB": 1_048_576,
    ]
    guard parts.count == 2, let number = Double(parts[0]), number >= 0, number < 1e15,
      let factor = factors[String(parts[1])], number * factor <= Double(1 << 40)
    else { throw fields.invalid(key, node.summary, expected) }
    return Int((number * factor).rounded())
  }

  /// A time stamp as MetricKit writes one, `yyyy-MM-dd HH:mm:ss` (a zone such as `+0000` may
  /// follow and is ignored), in milliseconds since 1970-01-01 00:00:00.
  static func time(_ fields: ProfileFields, _ key: String) throws(FieldError) -> Int {
    let text = try fields.required(try fields.string(key), key)
    let expected = "a time stamp such as \"2025-06-07 00:00:00\""
    let parts = text.split(separator: " ")
    let date = parts.first?.split(separator: "-").compactMap { Int($0) } ?? []
    let clock = parts.count > 1 ? parts[1].split(separator: ":").compactMap { Int($0) } : []
    guard date.count == 3, clock.count == 3, (1970...9999).contains(date[0]),
      (1...12).contains(date[1]), (1...31).contains(date[2]), (0...23).contains(clock[0]),
      (0...59).contains(clock[1]), (0...60).contains(clock[2])
    else { throw fields.invalid(key, text.excerpt(limit: 40), expected) }
    var days = 0
    for year in 1970..<date[0] { days += isLeap(year) ? 366 : 365 }
    let months = [31, isLeap(date[0]) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    days += months.prefix(date[1] - 1).reduce(0, +) + date[2] - 1
    return ((days * 24 + clock[0]) * 60 + clock[1]) * 60_000 + clock[2] * 1000
  }

  static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }
}
