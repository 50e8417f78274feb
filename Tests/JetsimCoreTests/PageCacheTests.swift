import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// docs/model.md §3, "Where every page is": the page cache, available memory, refaults and stalls.
@Suite struct PageCacheTests {
  /// 1,200 MB with 200 MB wired; a free target of 32 MB, a working set of 100 MB, 4 ms a megabyte.
  static var device: DeviceProfile {
    var device = Fixture.device
    device.fileCache = DeviceProfile.FileCache(
      freeTargetKB: mb(32), workingSetKB: mb(100), refaultCostMs: 4)
    return device
  }

  @Test func theCacheTakesEveryPageAboveTheFreeTargetAndShrinksFirst() {
    var memory = DeviceMemory(device: Self.device)
    #expect(memory.freeKB == mb(32) && memory.fileBackedKB == mb(968))
    #expect(memory.availableKB == mb(1000))
    memory.hold(mb(900), compressed: false)
    #expect(memory.freeKB == mb(32) && memory.fileBackedKB == mb(68), "the cache gave 900 MB")
    memory.hold(mb(90), compressed: true)
    #expect(memory.freeKB == mb(10) && memory.fileBackedKB == 0, "then free pages below the target")
    #expect(memory.compressedKB == mb(90) && memory.anonymousKB == mb(900))
    #expect(
      memory.freeKB + memory.fileBackedKB + memory.anonymousKB + memory.compressedKB
        + memory.wiredKB == memory.physicalKB)
    memory.hold(-mb(900), compressed: false)
    #expect(memory.fileBackedKB == mb(878), "memory given back fills the cache again")
  }

  @Test func refaultsAndStallsFollowTheShortfall() {
    var memory = DeviceMemory(device: Self.device)
    #expect(memory.refaultKBPerSecond == 0 && memory.stallPermille == 0)
    memory.hold(mb(900), compressed: false)  // 68 MB of cache for a 100 MB working set
    #expect(memory.refaultKBPerSecond == mb(32))
    #expect(memory.stallPermille == 128, "32 MB a second at 4 ms each: 128 ms a second")
    memory.hold(mb(90), compressed: false)  // no cache at all: 100 MB a second, 400 ‰
    #expect(memory.stallPermille == 400)
    var slow = Self.device
    slow.fileCache.refaultCostMs = 20
    var thrashing = DeviceMemory(device: slow)
    thrashing.hold(mb(990), compressed: false)
    #expect(thrashing.stallPermille == 1000, "2,000 ms a second is all the time")
  }

  /// An app of 800 MB on screen for 10 s: 168 MB of cache for a 300 MB working set.
  @Test func aRunCountsItsRefaultsAndStalls() throws {
    var device = Self.device
    device.fileCache.workingSetKB = mb(300)
    let app = Fixture.app("a", resident: 800)
    let result = try Fixture.run(
      [app], [TimedAction(0, .open("a"))], device: device, durationMs: sec(10))
    let last = try #require(result.events.last)
    #expect(last.availableKB == mb(200) && last.fileBackedKB == mb(168) && last.freeKB == mb(32))
    #expect(result.summary.metrics.refaultKB == mb(132) * 10, "132 MB a second for 10 s")
    #expect(result.summary.metrics.stallMs == 528 * 10, "132 × 4 = 528 ms a second")
    #expect(result.summary.metrics.minAvailableKB == mb(200))
    #expect(result.summary.metrics.minFreeKB == mb(32))
  }

  /// The levels are compared with available memory: a free target larger than what is left
  /// leaves free memory below it and no cache, and still no warning while available memory is
  /// above the warning level.
  @Test func theLevelsReadAvailableMemoryNotFree() throws {
    var device = Self.device
    device.fileCache.freeTargetKB = mb(500)
    let app = Fixture.app("a", resident: 700)
    let result = try Fixture.run([app], [TimedAction(0, .open("a"))], device: device)
    let last = try #require(result.events.last)
    #expect(last.freeKB == mb(300) && last.fileBackedKB == 0)
    #expect(last.pressure == .normal && !result.events.contains { $0.kind == .memoryWarning })
  }

  @Test func impossibleSettingsAreRefusedByKey() {
    var device = Self.device
    device.fileCache.freeTargetKB = mb(1000)
    device.fileCache.workingSetKB = mb(1300)
    let keys = device.problems().map(\.key)
    #expect(keys.contains("fileCache.freeTarget") && keys.contains("fileCache.workingSet"))
    #expect(Self.device.problems().isEmpty)
  }
}
