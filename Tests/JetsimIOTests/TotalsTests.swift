import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// Many values, each in range, whose total is not (docs/hardening.md, "Totals"): every such input
/// is a one-line error naming the file and the field, before any sum could overflow.
@Suite struct TotalsTests {
  /// A JetsamEvent body with `count` processes of `rpages` pages of `pageSize` bytes.
  func report(count: Int, rpages: Int, pageSize: Int = 65536, free: Int = 0) -> [UInt8] {
    let processes = (0..<count).map {
      "{\"name\":\"p\($0)\",\"pid\":\($0 + 1),\"rpages\":\(rpages),\"states\":[\"suspended\"]}"
    }
    return Array(
      """
      {"product":"iPhone12,1","memoryStatus":{"pageSize":\(pageSize),"memoryPages":{"free":\(free)}},
       "processes":[\(processes.joined(separator: ","))]}
      """.utf8)
  }

  func error(_ bytes: [UInt8]) -> String? {
    do {
      _ = try JetsamReport.parse(bytes, file: "r.ips")
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aPageCountIsAtMostOnePetabyteAtItsPageSize() throws {
    // 2^34 pages of 64 KB are 1 PB: accepted; one more page is not.
    #expect(error(report(count: 1, rpages: 1 << 34)) == nil)
    #expect(
      error(report(count: 1, rpages: (1 << 34) + 1))
        == "r.ips: 'processes[0].rpages' is 17179869185; expected a whole number from 0 to 17179869184"
    )
    // At 16 KB pages the same bound is 2^36 pages.
    #expect(error(report(count: 1, rpages: 1 << 36, pageSize: 16384)) == nil)
  }

  @Test func footprintsEachInRangeWhoseTotalPassesOnePetabyteAreRefused() throws {
    // 1,025 processes of 2^40 KB each: each the largest size jetsim accepts, together 1,025 PB.
    let message = try #require(error(report(count: 1025, rpages: 1 << 34)))
    #expect(message.hasPrefix("r.ips: 'processes' is footprints (rpages) and free pages of "))
    #expect(message.hasSuffix("; expected at most 1 PB together, jetsim's largest memory"))
    #expect(!message.contains("\n"))
    // Two are 2 PB: refused too. One with no free memory is exactly 1 PB: accepted, and the
    // import's device memory stays within what a device profile accepts.
    #expect(error(report(count: 2, rpages: 1 << 34))?.contains("'processes' is footprints") == true)
    let exact = try JetsamReport.parse(report(count: 1, rpages: 1 << 34), file: "r.ips")
    let imported = JetsamImport.convert(exact)
    #expect(imported.device.memoryKB == Units.maxKilobytes)
  }

  @Test func freeMemoryCountsInTheTotal() throws {
    let message = error(report(count: 1, rpages: 1 << 34, free: 1))
    #expect(message?.contains("'processes' is footprints (rpages) and free pages") == true)
  }

  @Test func memoryPagesWhoseTotalPassesOnePetabyteAreRefused() throws {
    let pages = (1 << 34) / 2 + 1
    let body = Array(
      """
      {"memoryStatus":{"pageSize":65536,"memoryPages":{"active":\(pages),"inactive":\(pages)}},
       "processes":[]}
      """.utf8)
    #expect(
      error(body)?.hasPrefix("r.ips: 'memoryStatus.memoryPages' is ") == true,
      "\(error(body) ?? "accepted")")
  }

  @Test func aListOfProcessesHasAtMostItsLimit() throws {
    let node = try JSONParser.parse(Array("{\"apps\": [1, 2, 3]}".utf8))
    let fields = try ProfileFields(node, allowed: nil)
    #expect(try fields.list("apps", expected: "a list", maxCount: 3)?.count == 3)
    #expect(throws: FieldError.self) { try fields.list("apps", expected: "a list", maxCount: 2) }
    do {
      _ = try fields.list("apps", expected: "a list", maxCount: 2)
    } catch {
      #expect(
        error.located(in: "s.json").description
          == "s.json: 'apps' is 3 entries; expected at most 2 entries")
    }
    // The limit keeps every sum over processes in range: 2^20 processes of 2^40 KB each.
    #expect(
      Units.maxProcesses.multipliedReportingOverflow(by: Units.maxKilobytes).overflow == false)
    #expect(
      Units.maxProcesses.multipliedReportingOverflow(by: Units.maxMilliseconds).overflow == false)
  }
}
