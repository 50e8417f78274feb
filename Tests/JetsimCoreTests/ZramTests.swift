import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// zram, Android's swap (docs/model.md, "Memory"): a suspended app's memory goes to swap as it
/// suspends and its compressed copy stays in RAM, so swapping frees only (1 − 1/ratio) of it;
/// `SwapTotal` is the zram disk's size and `SwapFree` its size less the memory swapped,
/// uncompressed. lmkd reads both, and available memory, which the compressed copies shrink
/// (lmkd.cpp at AOSP platform/system/memory/lmkd 767ae2336a12f0c474b19dbd86d5bd5164dbf912:
/// `meminfo_parse`, line 1990, `easy_available`; `get_free_swap`, line 2001).
@Suite struct ZramTests {
  /// 900 MB usable on a 4 GB device whose page cache and watermarks are `LmkdPressureTests`'s
  /// (free target and high watermark 80 MB, low 60, min 40; a file working set of 200 MB): with
  /// A available, free pages are A − 200 MB below 280 MB. a and b (300 MB) and c (250 MB) open at
  /// 0, 10 and 30 s; each suspends 5 s after it leaves the screen.
  static func scenario(_ swap: (inout DeviceProfile) -> Void) -> Scenario {
    var device = DeviceProfile(name: "4 GB", memoryKB: mb(4096), reservedKB: mb(4096 - 900))
    device.fileCache = DeviceProfile.FileCache(
      freeTargetKB: mb(80), workingSetKB: mb(200), refaultCostMs: 4)
    swap(&device)
    var scenario = Scenario(
      name: "zram", device: device,
      apps: [
        Fixture.app("a", resident: 300), Fixture.app("b", resident: 300),
        Fixture.app("c", resident: 250),
      ],
      actions: [
        TimedAction(0, .open("a")), TimedAction(sec(10), .open("b")),
        TimedAction(sec(30), .open("c")),
      ], policy: .lmkd, durationMs: sec(120))
    scenario.policySettings = PolicySettings([
      "lmkd": ["watermarks": .numbers([mb(40), mb(60), mb(80)])]
    ])
    return scenario
  }

  /// a's 300 MB go to 1 GB of zram at 3:1 at 15 s: its copy keeps 100 MB of RAM, 500 MB stay
  /// available. c's launch at 30 s leaves 250 MB: free pages 50 MB, below the low watermark, and
  /// a is cached now (b is the previous app): LOW_MEM kills a, freeing the 100 MB its copy held;
  /// lmkd counted free swap as `easy_available`, 250 MB, less than the 724 MB zram has left. App
  /// swap of the same size, on storage, leaves 600 MB, then 350 MB: no kill.
  @Test func zramKeepsACompressedCopyInRAMAndLmkdSeesIt() throws {
    let zram = try Simulator.run(
      Self.scenario { $0.zram = DeviceProfile.Zram(sizeKB: mb(1024), compressionPermille: 3_000) })
    let swapOut = try #require(zram.events.first { $0.kind == .swapOut })
    #expect(swapOut.timeMs == sec(15) && swapOut.availableKB == mb(500))
    #expect(zram.kills.count == 1)
    let kill = try #require(zram.kills.first)
    #expect(kill.app == 0 && kill.reason == .lmkLowMem && kill.timeMs == sec(30))
    #expect(kill.freedKB == mb(100) && kill.lmkd?.swapFreeKB == mb(250))

    let storage = try Simulator.run(
      Self.scenario { $0.appSwap = DeviceProfile.AppSwap(budgetKB: mb(1024)) })
    #expect(storage.events.first { $0.kind == .swapOut }?.availableKB == mb(600))
    #expect(storage.kills.isEmpty)
  }

  /// The ratio sets what swapping frees: at 2:1 (the default), a's copy holds 150 MB, 450 MB stay
  /// available; at 1:1 it frees nothing.
  @Test(arguments: [(nil, 450), (1_000, 300)] as [(Int?, Int)])
  func theRatioSetsWhatSwappingFrees(permille: Int?, availableMB: Int) throws {
    let zram = DeviceProfile.Zram(
      sizeKB: mb(1024),
      compressionPermille: permille ?? DeviceProfile.Zram.defaultCompressionPermille)
    let run = try Simulator.run(Self.scenario { $0.zram = zram })
    #expect(run.events.first { $0.kind == .swapOut }?.availableKB == mb(availableMB))
  }

  /// The ledger: the compressed copy is compressed memory, the swap holds the footprint, and
  /// free + file-backed + anonymous + compressed + wired is physical memory.
  @Test func theLedgerAddsUp() {
    var device = DeviceProfile(name: "4 GB", memoryKB: mb(4096), reservedKB: mb(1000))
    device.zram = DeviceProfile.Zram(sizeKB: mb(2048), compressionPermille: 2_500)
    var memory = DeviceMemory(device: device)
    memory.hold(mb(500), compressed: false)
    memory.hold(
      DeviceProfile.Zram.storedKB(footprintKB: mb(300), compressionPermille: memory.zramPermille),
      compressed: true)
    memory.swappedKB = mb(300)
    #expect(memory.compressedKB == mb(120))
    #expect(memory.swapFreeKB == mb(2048 - 300))
    #expect(
      memory.freeKB + memory.fileBackedKB + memory.anonymousKB + memory.compressedKB
        + memory.wiredKB == memory.physicalKB)
    #expect(memory.availableKB == mb(4096 - 1000 - 500 - 120))
  }

  /// A profile's zram: a size above 0, and one swap device.
  @Test func aBadZramProfileNamesItsKey() {
    var device = DeviceProfile(name: "phone", memoryKB: mb(4096), reservedKB: mb(1000))
    device.zram = DeviceProfile.Zram(sizeKB: 0)
    device.appSwap = DeviceProfile.AppSwap(budgetKB: mb(100))
    #expect(device.problems().map(\.key) == ["zram.size", "zram"])
    device.appSwap = nil
    device.zram?.sizeKB = mb(1024)
    #expect(device.problems().isEmpty)
  }

  /// A suspended app occupies footprint ÷ the device's compressionRatio; a zram that compresses
  /// less would make a swap-out take memory: 8:1 on the device and 1:1 in zram would hold 400 MB
  /// of a 400 MB app, where it held 50 MB suspended.
  @Test func zramCompressesAtLeastAsMuchAsTheDevice() {
    var device = DeviceProfile(name: "phone", memoryKB: mb(4096), reservedKB: mb(1000))
    device.zram = DeviceProfile.Zram(sizeKB: mb(1024), compressionPermille: 1_000)
    device.compressionPermille = 8_000
    let problems = device.problems()
    #expect(problems.map(\.key) == ["zram.compressionRatio"])
    #expect(problems.first?.value == "1")
    #expect(problems.first?.expected.contains("compressionRatio (8)") == true)
    device.zram?.compressionPermille = 8_000
    #expect(device.problems().isEmpty)
  }
}
