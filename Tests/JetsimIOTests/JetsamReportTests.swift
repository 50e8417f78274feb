import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

let corpus = "\(packageRoot)/Profiles/jetsam-reports"

/// The JetsamEvent reader: every published shape of the real reports, and broken ones as one-line
/// errors.
@Suite struct JetsamReportTests {
  func load(_ name: String) throws -> JetsamReport {
    try JetsamReport.load(at: "\(corpus)/\(name)")
  }

  /// A report read from `text`.
  func parse(_ text: String) throws(JetsimError) -> JetsamReport {
    try JetsamReport.parse(Array(text.utf8), file: "report.ips")
  }

  /// The error reading `text` gives.
  func error(_ text: String) -> String? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func theIOS14ReportWithPriorities() throws {
    let report = try load("ios14-iphone11-highwater.ips")
    #expect(report.product == "iPhone12,1")
    #expect(report.osVersion == "iPhone OS 14.2 (18B5061e)")
    #expect(report.pageSize == 16384)
    #expect(report.processes.count == 442)
    #expect(report.memoryPages["free"] == 5142)
    #expect(report.freeKB == 5142 * 16)
    #expect(report.compressorPages == 96635)
    #expect(report.processes.allSatisfy { $0.priority != nil })
    #expect(report.usesFirstBandNumbering)
    #expect(report.victims.map { report.processes[$0].name } == ["wifianalyticsd", "dasd"])
    #expect(report.processes[0].name == "SBRendererService")
    #expect(report.processes[0].states == ["daemon", "idle"])
    #expect(report.footprintKB(report.processes[0]) == 229 * 16)
    #expect(!report.trimmed)
    #expect(report.warnings.isEmpty)
  }

  @Test func reportsWithoutPriorities() throws {
    let old = try load("ios10-iphone6-highwater.crash")
    #expect(old.pageSize == 4096)
    #expect(old.processes.count == 134)
    #expect(old.processes.allSatisfy { $0.priority == nil })
    #expect(old.victims.map { old.processes[$0].name } == ["SpringBoard"])
    let vnode = try load("ios11-iphone6-vnode-limit.crash")
    #expect(vnode.processes.count == 124)
    #expect(vnode.victims.map { vnode.processes[$0].reason } == ["vnode-limit"])
  }

  @Test func theKillOrderIsKillDelta() throws {
    let report = try load("held-out/ios12-iphonexsmax-vm-pageshortage.crash")
    let victims = report.victims.map { report.processes[$0].name }
    #expect(victims.count == 63)
    #expect(victims.first == "dataaccessd")
    #expect(victims.last == "Apollo")
    // backboardd is listed 99th, in its band, but was killed 15th.
    #expect(victims[14] == "backboardd")
  }

  @Test func aTrimmedReportKeepsItsCompleteEntries() throws {
    let report = try load("ios9-iphone6s-trimmed.crash")
    #expect(report.trimmed)
    #expect(report.processes.map(\.name) == ["KodiMusicRemoteP"])
    #expect(report.processes[0].reason == "vm-thrashing")
    #expect(report.product == "iPhone8,1")
    #expect(
      report.warnings == [
        "the process list was trimmed by whoever published it ('...' lines); 1 complete entry was kept"
      ])
  }

  @Test func theBodyAloneAndOnOneLine() throws {
    let text = try String(contentsOfFile: "\(corpus)/ios14-iphone11-highwater.ips", encoding: .utf8)
    let full = try parse(text)
    let body = String(text.drop { $0 != "\n" })
    var bodyOnly = try parse(body)
    bodyOnly.file = full.file
    #expect(bodyOnly == full)
    // JSON strings hold no line breaks, so joining the lines gives the compact form.
    let header = String(text.prefix { $0 != "\n" })
    var compact = try parse(header + "\n" + body.replacingOccurrences(of: "\n", with: " "))
    compact.file = full.file
    #expect(compact == full)
  }

  @Test func fieldsOfLaterReports() throws {
    let report = try parse(
      """
      {"bug_type":"298","os_version":"iPhone OS 17.4 (21E219)"}
      {"product":"iPhone15,2","memoryStatus":{"pageSize":16384,"memoryPages":{"free":100}},
       "processes":[
        {"name":"financed","pid":44,"states":["daemon","idle"],"priority":0,"rpages":804,
         "reason":"vm-pageshortage","killDelta":12,"freeze_skip_reason:":"none",
         "physicalPages":{"internal":[567,220]},"csFlags":570434305},
        {"name":"backboardd","pid":76,"states":["active"],"priority":170,"rpages":19240,
         "physicalPages":{"frozen_to_swap_pages":6344}}]}
      """)
    #expect(report.processes.map(\.name) == ["financed", "backboardd"])
    #expect(report.processes[1].priority == 170)
    #expect(!report.usesFirstBandNumbering)
    #expect(report.victims == [0])
  }

  /// A freeze skip reason is only a hint to the band predictor: one it cannot use is read as
  /// none, and the report is not refused for it.
  @Test(arguments: ["\"\"", "3", "null", "[\"disabled\"]"])
  func anUnusableFreezeSkipReasonIsNone(value: String) throws {
    let report = try parse(
      """
      {"memoryStatus":{"pageSize":16384},"processes":[
        {"name":"a","pid":7,"states":["daemon"],"rpages":1,"freeze_skip_reason:":\(value)},
        {"name":"b","pid":8,"states":["daemon"],"rpages":1,"freeze_skip_reason:":"disabled"}]}
      """)
    #expect(report.processes[0].freezeSkipReason == nil)
    #expect(report.processes[1].freezeSkipReason == "disabled")
  }

  @Test func reportsThatCanShowLittleGetAWarning() throws {
    #expect(
      try parse("{\"memoryStatus\":{\"pageSize\":4096},\"processes\":[]}").warnings
        == ["it lists no processes"])
    #expect(
      try parse(
        "{\"memoryStatus\":{\"pageSize\":4096},\"processes\":[{\"name\":\"a\",\"rpages\":1}]}"
      ).warnings == ["it records no kill"])
  }

  @Test(arguments: [
    (
      "{\"memoryStatus\":{\"pageSize\":4096},\"processes\":[{\"rpages\":1}]}",
      "report.ips: missing required key 'processes[0].name'; add it (see docs/profiles.md)"
    ),
    (
      "{\"memoryStatus\":{\"pageSize\":4096},\"processes\":[{\"name\":\"a\",\"rpages\":\"12\"}]}",
      "report.ips: 'processes[0].rpages' is \"12\"; expected a whole number from 0 to 274877906944"
    ),
    (
      "{\"memoryStatus\":{\"pageSize\":4096},\"processes\":[{\"name\":\"a\",\"rpages\":1e999}]}",
      "report.ips: 'processes[0].rpages' is 1e999; expected a whole number from 0 to 274877906944"
    ),
    (
      "{\"memoryStatus\":{\"pageSize\":4096},\"processes\":[{\"name\":\"a\",\"rpages\":99999999999999999999999}]}",
      "report.ips: 'processes[0].rpages' is 99999999999999999999999; expected a whole number from 0 to 274877906944"
    ),
    (
      "{\"memoryStatus\":{},\"processes\":[]}",
      "report.ips: missing required key 'memoryStatus.pageSize'; add it (see docs/profiles.md)"
    ),
    (
      "{\"memoryStatus\":{\"pageSize\":5000},\"processes\":[]}",
      "report.ips: 'memoryStatus.pageSize' is 5000; expected a page size in bytes: a power of two, 1024 to 65536"
    ),
    (
      "{\"memoryStatus\":{\"pageSize\":4096},\"processes\":{}}",
      "report.ips: 'processes' is an object; expected a list of processes"
    ),
    (
      "{\"memoryStatus\":{\"pageSize\":4096},\"processes\":[{\"name\":\"a\",\"rpages\":1,\"states\":[1]}]}",
      "report.ips: 'processes[0].states[0]' is 1; expected a string"
    ),
    (
      "{\"bug_type\":\"211\",\"os_version\":\"iPhone OS 13.2.2\"}\n{\"_marker\":\"<metadata>\"}\n",
      "report.ips: not valid JSON: its header says bug_type 211, not 298 (JetsamEvent); is it another kind of report?"
    ),
    (
      "{\"bug_type\":\"298\"}\n{\"memoryStatus\":{\"pageSize\":4096},\"processes\":[{\"name\":\"a\"",
      "report.ips: not valid JSON: line 2, column 59: the text ends inside an object; add the closing '}' (the body looks truncated)"
    ),
    (
      "{\"bug_type\":\"298\",\"os_version\":\"iPhone OS 14.2\"}",
      "report.ips: 'processes' is missing; expected a JetsamEvent body with memoryStatus and processes (only a header line, or another kind of report?)"
    ),
    ("", "report.ips: not valid JSON: the file is empty; is it a JetsamEvent report?"),
    (
      "Incident Identifier: 1\nCrashReporter Key: 2\n",
      "report.ips: not valid JSON: the plain-text JetsamEvent format of iOS 8 and earlier is not read; give a report in the JSON format of iOS 9 and later"
    ),
  ])
  func aBrokenReportIsOneLine(text: String, message: String) {
    #expect(error(text) == message)
  }

  @Test func mutatedReportsNeverTrap() throws {
    let bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: "\(corpus)/ios10-iphone6-highwater.crash")))
    var random = RandomStream(seed: 11, stream: 0)
    var outcomes = (read: 0, refused: 0)
    for round in 0..<300 {
      var mutated = bytes
      switch round % 3 {
      case 0: mutated.removeLast(Int(random.next() % UInt64(bytes.count)))
      case 1:
        for _ in 0..<4 {
          mutated[Int(random.next() % UInt64(bytes.count))] = UInt8(
            truncatingIfNeeded: random.next())
        }
      default:
        let at = Int(random.next() % UInt64(bytes.count))
        mutated.insert(contentsOf: Array("9999999999999999999999".utf8), at: at)
      }
      do {
        _ = try JetsamReport.parse(mutated, file: "mutated.crash")
        outcomes.read += 1
      } catch {
        #expect(!error.description.contains("\n"), "one line")
        #expect(error.description.count < 400)
        outcomes.refused += 1
      }
    }
    #expect(outcomes.refused > 50, "most mutations break the report")
  }

  @Test func theDeviceTableIsTheShippedOne() throws {
    let path = "\(packageRoot)/Profiles/ios-devices.csv"
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try DeviceCatalog.csv.write(toFile: path, atomically: true, encoding: .utf8)
    }
    let shipped = try String(contentsOfFile: path, encoding: .utf8)
    #expect(DeviceCatalog.csv == shipped)
    #expect(DeviceCatalog.model(productCode: "iPhone12,1")?.memoryMB == 3844)
    #expect(DeviceCatalog.model(productCode: "iPhone11,6")?.name == "iPhone XS Max")
    #expect(DeviceCatalog.model(productCode: "iPhone99,1") == nil)
  }

  /// Every iPhone from the 6 to the 17 family and the iPads of current iPadOS: no product code in
  /// two rows, estimates by their rule, and the M-series iPads with app swap.
  @Test func theDeviceTableCoversEveryCurrentDevice() throws {
    let codes = DeviceCatalog.models.flatMap(\.productCodes)
    #expect(Set(codes).count == codes.count, "a product code in two rows")
    for code in [
      "iPhone7,1", "iPhone13,2", "iPhone14,5", "iPhone14,7", "iPhone15,2", "iPhone16,1",
      "iPhone17,3", "iPhone17,5", "iPhone18,1", "iPhone18,4", "iPad16,3", "iPad13,16",
    ] {
      #expect(DeviceCatalog.model(productCode: code) != nil, "\(code)")
    }
    // iPhone 14 (iPhone14,7), the report that fell back to a guess: 6 GB, estimated.
    let fourteen = try #require(DeviceCatalog.model(productCode: "iPhone14,7"))
    #expect(fourteen.name == "iPhone 14" && fourteen.marketedGB == 6)
    #expect(fourteen.source == .estimated && fourteen.memoryMB == 6 * 1024 * 92 / 100)
    #expect(fourteen.foregroundLimitMB == fourteen.memoryMB * 54 / 100)
    for model in DeviceCatalog.models {
      #expect(model.appSwap == model.name.contains("(M"), "\(model.name): app swap on M-series")
      #expect(model.foregroundLimitMB < model.memoryMB)
    }
  }

  @Test func folderNamesDropTheReportSuffixes() {
    #expect(
      JetsamImport.folderName(for: "a/JetsamEvent-2020-10-15.ips.synced")
        == "JetsamEvent-2020-10-15")
    #expect(JetsamImport.folderName(for: "b.crash") == "b")
    #expect(JetsamImport.folderName(for: "c.ips") == "c")
    #expect(JetsamImport.folderName(for: ".ips") == "report")
  }
}
