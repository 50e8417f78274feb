import JetsimCore

extension JetsamReport {
  /// Reads the report at `path`: a JSON header line then the JSON body (`.ips`, `.ips.synced`, the
  /// older `.crash` naming), or the body alone; pretty-printed or not. Fields jetsim does not use
  /// are ignored; those it uses are checked (a missing name, a size that is not a whole number, a
  /// number out of range is a one-line error naming the field). A process list cut by hand (`...`
  /// lines) keeps its complete entries, and `warnings` says so.
  public static func load(at path: String) throws(JetsimError) -> JetsamReport {
    try parse(InputFile.bytes(at: path), file: path)
  }

  /// Reads a report from `bytes`; `file` names it in errors.
  public static func parse(_ bytes: [UInt8], file: String) throws(JetsimError) -> JetsamReport {
    let text = try InputFile.text(bytes, path: file)
    let body = try Self.body(of: Array(text.utf8), file: file)
    do {
      let node: JSONNode
      var trimmed = false
      do {
        node = try JSONParser.parse(body)
      } catch {
        guard let salvaged = Salvage.trimmedBody(body) else {
          throw JetsimError.malformedJSON(path: file, detail: Self.describe(error, body: body))
        }
        node = salvaged
        trimmed = true
      }
      var report = try Self.report(from: node, file: file)
      report.trimmed = trimmed
      return report
    } catch let error as JetsimError {
      throw error
    } catch let error as FieldError {
      throw error.located(in: file)
    } catch {
      throw .malformedJSON(path: file, detail: "\(error)")
    }
  }

  /// The body of the report: what follows the header line, or the whole text if there is no
  /// header. A header that names another kind of report (`bug_type` other than 298) is an error.
  static func body(of bytes: [UInt8], file: String) throws(JetsimError) -> ArraySlice<UInt8> {
    let start = bytes.firstIndex { !Self.isSpace($0) } ?? bytes.endIndex
    guard start < bytes.endIndex else {
      throw .malformedJSON(path: file, detail: "the file is empty; is it a JetsamEvent report?")
    }
    guard bytes[start] == UInt8(ascii: "{") else {
      if bytes[start...].starts(with: Array("Incident Identifier:".utf8)) {
        throw .malformedJSON(
          path: file,
          detail:
            "the plain-text JetsamEvent format of iOS 8 and earlier is not read; give a report in the JSON format of iOS 9 and later"
        )
      }
      throw .malformedJSON(
        path: file, detail: "it does not start with '{'; is it a JetsamEvent report (.ips)?")
    }
    let lineEnd = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let rest = bytes[lineEnd...]
    guard let header = try? JSONParser.parse(bytes[start..<lineEnd]), header.members != nil,
      rest.contains(where: { !Self.isSpace($0) })
    else {
      // No header line: the whole text is the body (or a header alone, which `report` refuses).
      return bytes[start...]
    }
    guard header["processes"] == nil, header["memoryStatus"] == nil else {
      return bytes[start..<lineEnd]  // a compact body on one line, then something else
    }
    if let type = header["bug_type"]?.string, type != "298" {
      throw .malformedJSON(
        path: file,
        detail:
          "its header says bug_type \(type.excerpt(limit: 20)), not 298 (JetsamEvent); is it another kind of report?"
      )
    }
    return rest
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// A syntax error in words; a body that stops short says it looks truncated.
  static func describe(_ error: any Error, body: ArraySlice<UInt8>) -> String {
    let text = (error as? JSONParser.SyntaxError)?.description ?? "\(error)"
    if text.contains("the text ends") { return "\(text) (the body looks truncated)" }
    return text
  }

  /// The report in the parsed body `node`.
  static func report(from node: JSONNode, file: String) throws(FieldError) -> JetsamReport {
    let fields = try ProfileFields(node, allowed: nil)
    guard fields.has("processes") || fields.has("memoryStatus") else {
      throw FieldError(
        keyPath: "processes",
        kind: .invalid(
          value: "missing",
          expected:
            "a JetsamEvent body with memoryStatus and processes (only a header line, or another kind of report?)"
        ))
    }
    let status = try fields.object("memoryStatus", allowed: nil)
    let pageSizes = [1024, 2048, 4096, 8192, 16384, 32768, 65536]
    let pageSizeNode = status?.has("pageSize") == true ? status : fields
    let pageSize = try pageSizeNode?.integer("pageSize", in: 1024...65536)
    guard let pageSize, pageSizes.contains(pageSize) else {
      throw FieldError(
        keyPath: pageSizeNode?.has("pageSize") == true
          ? (pageSizeNode?.path("pageSize") ?? "pageSize") : "memoryStatus.pageSize",
        kind: pageSize == nil && pageSizeNode?.has("pageSize") != true
          ? .missing
          : .invalid(
            value: "\(pageSize ?? 0)",
            expected: "a page size in bytes: a power of two, 1024 to 65536"))
    }
    // A page count is at most jetsim's largest size (1 PB) at this page size.
    let pageRange = 0...(Units.maxKilobytes / (pageSize / 1024))
    var pages: [String: Int] = [:]
    if let memoryPages = try status?.object("memoryPages", allowed: nil) {
      for key in memoryPages.keys {
        pages[key] = try memoryPages.integer(key, in: pageRange)
      }
    }
    let entries =
      try fields.list("processes", expected: "a list of processes", maxCount: Units.maxProcesses)
      ?? []
    var processes: [Process] = []
    processes.reserveCapacity(entries.count)
    for (keyPath, processNode) in entries {
      processes.append(try Self.process(processNode, at: keyPath, pageRange: pageRange))
    }
    try Self.checkDistinctPIDs(processes, keyPaths: entries.map(\.keyPath))
    var report = JetsamReport(
      file: file, pageSize: pageSize, processes: processes, memoryPages: pages)
    report.product = try fields.name("product", maxLength: 64)
    report.osVersion = try fields.name("build", maxLength: 100)
    report.kernel = try fields.name("kernel", maxLength: 300)
    report.date = try fields.name("date", maxLength: 64)
    report.incident = try fields.name("incident", maxLength: 64)
    report.largestProcess = try fields.name("largestProcess")
    report.compressorPages = try status?.integer("compressorSize", in: pageRange)
    report.uncompressedPages = try status?.integer("uncompressed", in: pageRange)
    try report.checkTotals()
    return report
  }

  /// Refuses a report that lists one pid twice: a snapshot holds each process once, and replay
  /// pairs kills with processes by their entries. The error names the pid and both entries.
  ///
  /// - Complexity: O(*n*) for *n* processes.
  static func checkDistinctPIDs(_ processes: [Process], keyPaths: [String]) throws(FieldError) {
    var seen: [Int: Int] = [:]
    seen.reserveCapacity(processes.count)
    for (index, process) in processes.enumerated() {
      guard let pid = process.pid else { continue }
      if let first = seen.updateValue(index, forKey: pid) {
        throw FieldError(
          keyPath: "\(keyPaths[index]).pid",
          kind: .invalid(
            value: "\(pid), the pid of \(keyPaths[first]) too",
            expected: "each pid once: a snapshot lists every process once"))
      }
    }
  }

  /// Refuses a report whose totals pass jetsim's largest memory (1 PB), though each number is in
  /// range: the processes' footprints with the free memory, and the counted memory pages. Neither
  /// sum can overflow: at most 2^20 processes of at most 2^40 KB each.
  func checkTotals() throws(FieldError) {
    let occupiedKB = processes.reduce(0) { $0 + footprintKB($1) } + (freeKB ?? 0)
    if occupiedKB > Units.maxKilobytes {
      throw FieldError(
        keyPath: "processes",
        kind: .invalid(
          value: "footprints (rpages) and free pages of \(Units.megabytes(occupiedKB)) in all",
          expected: "at most 1 PB together, jetsim's largest memory"))
    }
    if kilobytes(pages: countedPages) > Units.maxKilobytes {
      throw FieldError(
        keyPath: "memoryStatus.memoryPages",
        kind: .invalid(
          value: "\(Units.megabytes(kilobytes(pages: countedPages))) of pages in all",
          expected: "at most 1 PB together, jetsim's largest memory"))
    }
  }

  static func process(_ node: JSONNode, at keyPath: String, pageRange: ClosedRange<Int>)
    throws(FieldError) -> Process
  {
    let fields = try ProfileFields(node, at: keyPath, allowed: nil)
    var process = Process(
      name: try fields.required(fields.name("name"), "name"),
      residentPages: try fields.required(fields.integer("rpages", in: pageRange), "rpages"))
    process.pid = try fields.integer("pid", in: 0...Int(Int32.max))
    process.states = try fields.strings("states", expected: "a list of states") ?? []
    process.priority = try fields.integer("priority", in: 0...1000)
    process.lifetimeMaxPages = try fields.integer("lifetimeMax", in: pageRange)
    process.reason = try fields.name("reason", maxLength: 64)
    process.killDelta = try fields.integer("killDelta", in: 0...(1 << 62))
    process.coalition = try fields.integer("coalition", in: 0...(1 << 62))
    process.idleDelta = try fields.integer("idleDelta", in: 0...(1 << 62))
    process.frozenToSwapPages = try fields.object("physicalPages", allowed: nil)?.integer(
      "frozen_to_swap_pages", in: pageRange)
    // Only a hint to the band predictor: a reason it cannot use (empty, not a string) is no reason,
    // not a report refused.
    process.freezeSkipReason = try? fields.name("freeze_skip_reason:", maxLength: 64)
    return process
  }
}

/// Recovers what it can of a report whose process list a person cut by hand: the body's fields
/// before `"processes"`, and every complete process entry after it.
enum Salvage {
  /// The body with its complete process entries, or nil if `body` has no `...` line (it is then
  /// simply broken) or nothing can be recovered. Reads at most 4 MB (the scan may look at every
  /// brace).
  static func trimmedBody(_ body: ArraySlice<UInt8>) -> JSONNode? {
    guard body.count <= 4 << 20, hasEllipsisLine(body) else { return nil }
    let key = Array("\"processes\"".utf8)
    guard let keyStart = firstIndex(of: key, in: body) else { return nil }
    // The fields before the list: drop the trailing comma and close the object.
    var head = Array(body[body.startIndex..<keyStart])
    while let last = head.last, JetsamReport.isSpace(last) || last == UInt8(ascii: ",") {
      head.removeLast()
    }
    head.append(UInt8(ascii: "}"))
    guard let top = try? JSONParser.parse(head), var members = top.members else { return nil }
    let processes = completeObjects(in: body[(keyStart + key.count)...]).filter {
      $0["name"] != nil
    }
    members.append(JSONMember(key: "processes", node: JSONNode(.array(processes))))
    return JSONNode(.object(members), line: top.line)
  }

  static func hasEllipsisLine(_ body: ArraySlice<UInt8>) -> Bool {
    body.split(separator: UInt8(ascii: "\n")).contains { line in
      let trimmed = line.drop { JetsamReport.isSpace($0) }.reversed().drop {
        JetsamReport.isSpace($0) || $0 == UInt8(ascii: ",")
      }
      let text = Array(trimmed.reversed())
      return text == Array("...".utf8) || text == Array("…".utf8)
    }
  }

  static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    var index = haystack.startIndex
    while index + needle.count <= haystack.endIndex {
      if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }

  /// Every complete, well-formed object in `bytes` that is not inside another one, in order: one
  /// pass that pairs braces outside strings, parsing the pairs at most three deep (process entries
  /// sit one or two deep in a cut list), so the work stays linear whatever the nesting.
  static func completeObjects(in bytes: ArraySlice<UInt8>) -> [JSONNode] {
    var objects: [(start: Int, end: Int, node: JSONNode)] = []
    var open: [Int] = []
    var inString = false
    var escaped = false
    for index in bytes.indices {
      let byte = bytes[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: "{") {
        open.append(index)
      } else if byte == UInt8(ascii: "}"), let start = open.popLast(), open.count < 3,
        let node = try? JSONParser.parse(bytes[start...index])
      {
        // An object found earlier inside this one is part of it.
        while let last = objects.last, last.start > start { objects.removeLast() }
        objects.append((start, index, node))
      }
    }
    return objects.map(\.node)
  }
}
