import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// A JetsamEvent report in jetsim's terms: the device, its system processes, its apps and the
/// snapshot, as docs/validation.md describes.
@Suite struct JetsamImportTests {
  func imported(_ name: String) throws -> ImportedReport {
    JetsamImport.convert(try JetsamReport.load(at: "\(corpus)/\(name)"))
  }

  @Test func theIOS14Report() throws {
    let result = try imported("ios14-iphone11-highwater.ips")
    let report = result.report
    #expect(result.device.memoryKB == 3844 * 1024, "from the device table")
    #expect(result.device.foregroundLimitKB == 2068 * 1024)
    #expect(result.device.compressionPermille == 257_255 * 1000 / 96_635)
    #expect(result.apps.count + result.device.systemProcesses.count == 442)
    #expect(result.snapshot.entries.map(\.process) == result.names)
    #expect(Set(result.names).count == 442, "every name unique")
    #expect(result.names.contains("MTLCompilerService#417"))
    // Priorities are in XNU's first numbering: the import multiplies them by 10.
    let wifi = try #require(report.processes.firstIndex { $0.name == "wifianalyticsd" })
    #expect(report.processes[wifi].priority == 1)
    #expect(result.bands[wifi] == 10)
    // The first process on screen is the app on screen; SpringBoard an active daemon.
    let onScreen = result.snapshot.entries.filter { $0.state == .active }
    #expect(onScreen.map(\.process) == ["app"])
    let springBoard = try #require(result.device.systemProcesses.first { $0.name == "SpringBoard" })
    #expect(springBoard.kind == .activeDaemon)
    #expect(springBoard.band == 160)
    #expect(
      result.device.systemProcesses.first { $0.name == "TVWidgetExtension" }?.kind == .extension)
    #expect(result.apps.contains { $0.id == "AppStore" })
    // The snapshot is the state of a real device: it fits, with the free memory the report gives.
    let scenario = result.scenario(name: "ios14")
    try scenario.checkSnapshot()
    var simulation = Simulation(
      device: scenario.device, apps: scenario.apps, policy: JetsamPolicy(),
      observer: DiscardingObserver(), seed: 1, snapshot: scenario.snapshot)
    try simulation.placeForReplay()
    #expect(simulation.availableKB == report.availableKB)
  }

  /// Without priorities each band is predicted from the process's states and kind alone, never
  /// from its place in the list (which would hand the kernel's order back to a replay).
  @Test func withoutPrioritiesBandsArePredictedFromStates() throws {
    let result = try imported("ios10-iphone6-highwater.crash")
    let snapchat = try #require(result.names.firstIndex(of: "Snapchat"))
    #expect(result.report.processes[snapchat].isFrontmost)
    #expect(result.bands[snapchat] == JetsamPriority.foreground)
    for (process, band) in zip(result.report.processes, result.bands) {
      #expect(band == BandPredictor.band(of: process))
    }
    // The same process list in reverse order gets the same bands, process by process.
    var reversed = result.report
    reversed.processes.reverse()
    #expect(JetsamImport.convert(reversed).bands == result.bands.reversed())
    #expect(result.device.memoryKB == 1024 * 1024)
  }

  @Test func anUnknownProductTakesItsMemoryFromThePages() throws {
    let report = try JetsamReport.parse(
      Array(
        """
        {"product":"iPhone99,9","memoryStatus":{"pageSize":16384,"compressorSize":1000,
         "memoryPages":{"free":100,"active":1000,"inactive":500,"wired":400}},
         "processes":[{"name":"big","states":["frontmost"],"rpages":1500,"reason":"vm-pageshortage"}]}
        """.utf8), file: "new.ips")
    let result = JetsamImport.convert(report)
    #expect(result.device.memoryKB == (100 + 1000 + 500 + 400 + 1000) * 16)
    #expect(
      result.warnings.first?.hasPrefix("product iPhone99,9 is not in the device table") == true)
    #expect(result.apps.map(\.id) == ["big"])
  }

  /// The iPhone 14 (iPhone14,7), whose reports fell back to a guess from their pages: now from
  /// the device table.
  @Test func anIPhone14ReportTakesItsMemoryFromTheTable() throws {
    let report = try JetsamReport.parse(
      Array(
        """
        {"product":"iPhone14,7","memoryStatus":{"pageSize":16384,
         "memoryPages":{"free":100,"active":1000,"inactive":500,"wired":400}},
         "processes":[{"name":"big","states":["frontmost"],"rpages":1500,"reason":"vm-pageshortage"}]}
        """.utf8), file: "fourteen.ips")
    let result = JetsamImport.convert(report)
    let table = try #require(DeviceCatalog.model(productCode: "iPhone14,7"))
    #expect(result.device.memoryKB == table.memoryMB * 1024)
    #expect(!result.warnings.contains { $0.contains("not in the device table") })
    #expect(result.device.name.hasPrefix("iPhone 14 "))
  }

  /// The shipped M-series iPad profile has app swap: suspended apps go to swap in a run.
  @Test func theShippedMSeriesIPadSwapsSuspendedApps() throws {
    let device = try ProfileLoader.device(at: "\(packageRoot)/Profiles/devices/ipad-pro-11-m4.json")
    #expect(device.appSwap?.budgetKB == 8 * 1_048_576)
    var scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    scenario.device = device
    scenario.policy = .jetsam
    let result = try Simulator.run(scenario)
    #expect(result.events.contains { $0.kind == .swapOut })
  }

  @Test func anAppAboveTheDeviceLimitKeepsItsSize() throws {
    let report = try JetsamReport.parse(
      Array(
        """
        {"product":"iPhone7,2","memoryStatus":{"pageSize":4096,"memoryPages":{"free":100}},
         "processes":[{"name":"huge","states":["frontmost"],"rpages":200000}]}
        """.utf8), file: "huge.ips")
    let result = JetsamImport.convert(report)
    #expect(result.apps[0].memoryLimitKB == 800_000, "645 MB would have killed it")
  }

  @Test func theWrittenFilesLoadAsTheyWereImported() throws {
    let scratch = try ScratchFolder()
    let result = try imported("ios14-iphone11-highwater.ips")
    try JetsamImport.write([("iphone", result)], to: scratch.path + "/out")
    let loaded = try ProfileLoader.scenario(at: scratch.path + "/out/iphone/scenario.json")
    #expect(loaded.device == result.device)
    #expect(loaded.apps == result.apps)
    #expect(loaded.snapshot == result.snapshot)
    let table = try String(contentsOfFile: scratch.path + "/out/imported.csv", encoding: .utf8)
    #expect(
      table.hasSuffix(
        "ios14-iphone11-highwater.ips,iphone,\"iPhone12,1\",iPhone 11 (iPhone OS 14.2 (18B5061e)),442,60,382,2,\n"
      ))
    // Written again over itself: jetsim replaces what it wrote.
    try JetsamImport.write([("iphone", result)], to: scratch.path + "/out")
  }
}
