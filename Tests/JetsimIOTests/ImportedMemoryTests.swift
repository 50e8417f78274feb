import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// An imported JetsamEvent report is a device in jetsim's memory model (docs/model.md §3): its free
/// and file-backed pages are the report's, so the available memory jetsim starts from is the one
/// XNU compared with its levels, and a launch from the snapshot kills only when available memory
/// less the launch falls below a level.
@Suite struct ImportedMemoryTests {
  static let reports = [
    "ios9-iphone6s-trimmed.crash", "ios10-iphone6-highwater.crash",
    "ios11-iphone6-vnode-limit.crash", "ios14-iphone11-highwater.ips",
    "held-out/ios12-iphonexsmax-vm-pageshortage.crash",
  ]

  /// The snapshot placed on the imported device, before any kill.
  static func placed(_ result: ImportedReport) throws -> Simulation<JetsamPolicy> {
    let scenario = result.scenario(name: "placed")
    var simulation = Simulation(
      device: scenario.device, apps: scenario.apps, policy: JetsamPolicy(),
      observer: DiscardingObserver(), seed: 1, snapshot: scenario.snapshot)
    try simulation.placeForReplay()
    return simulation
  }

  @Test(arguments: reports)
  func importedAndReplayedAvailableMemoryAgreeToThePage(_ name: String) throws {
    let report = try JetsamReport.load(at: "\(corpus)/\(name)")
    let result = JetsamImport.convert(report)
    let memory = try Self.placed(result).memory
    let available = try #require(report.availableKB, "every shipped report gives its pages")
    #expect(memory.availableKB == available)
    #expect(memory.freeKB == report.freeKB)
    #expect(memory.fileBackedKB == report.kilobytes(pages: report.memoryPages["fileBacked"] ?? 0))
    #expect(
      memory.freeKB + memory.fileBackedKB + memory.heldKB + memory.wiredKB == memory.physicalKB)
  }

  /// The iPhone 11 report (iOS 14.2): 612 MB available (80 MB free and 532 MB of file-backed
  /// pages), warning level 577 MB, idle level 346 MB, critical 154 MB. A 20 MB launch fits without
  /// a kill, as it would on the phone; when free memory alone was compared (jetsim 0.3), 80 − 20 MB
  /// was below critical and jetsam killed. A 400 MB launch goes below the idle level: jetsam kills,
  /// never the kernel or launchd, and only while available memory less the launch is below a level.
  @Test(arguments: [(20, false), (400, true)])
  func aLaunchFromTheSnapshotKillsOnlyBelowALevel(launchMB: Int, kills: Bool) throws {
    let result = JetsamImport.convert(
      try JetsamReport.load(at: "\(corpus)/ios14-iphone11-highwater.ips"))
    var scenario = result.scenario(name: "what-if")
    scenario.device.reaper.enabled = false  // the reaper's own level is not the question here
    scenario.apps.append(AppProfile(id: "NewApp", residentKB: launchMB * 1024))
    scenario.actions = [TimedAction(1, .open("NewApp"))]
    scenario.durationMs = 2_000
    let device = scenario.device
    let available = try Self.placed(result).availableKB
    // The premise: the small launch leaves available memory above every level, the large one not.
    #expect((available - launchMB * 1024 < device.warningThresholdKB) == kills)
    #expect(available - launchMB * 1024 >= device.idleThresholdKB || kills)
    let run = try Simulator.run(scenario, policy: JetsamPolicy())
    #expect(!run.kills.isEmpty == kills)
    let names = scenario.processNames
    for kill in run.kills {
      #expect(!["kernel_task", "launchd"].contains(names[kill.app]))
      #expect(kill.availableBeforeKB - kill.pendingKB < device.warningThresholdKB)
    }
  }
}
