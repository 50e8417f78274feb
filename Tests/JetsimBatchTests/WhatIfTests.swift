import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

/// what-if changes what it says it changes: sizes relative to today, the footprint of a process a
/// snapshot lists, and a paired difference from the app as it is.
@Suite struct WhatIfTests {
  @Test func sizesAreAbsoluteOrChangesOfToday() {
    #expect(WhatIf.Size.parse("300MB") == .absolute(kilobytes: 300 * 1024))
    #expect(WhatIf.Size.parse("+30%") == .percent(30))
    #expect(WhatIf.Size.parse("-100MB") == .delta(kilobytes: -100 * 1024))
    #expect(WhatIf.Size.parse("+0%") == nil && WhatIf.Size.parse("big") == nil)
    #expect(WhatIf.Size.parse("-25%")?.kilobytes(today: 1000) == 750)
    #expect(WhatIf.Size.parse("+30%")?.kilobytes(today: 1000) == 1300)
    #expect(WhatIf.Size.parse("-100MB")?.kilobytes(today: 200 * 1024) == 100 * 1024)
    #expect(WhatIf.Size.parse("-100MB")?.kilobytes(today: 50 * 1024) == nil)
    #expect(WhatIf.Size.parse("-100MB")?.description == "-100MB")
    #expect(WhatIf.Size.parse("+30%")?.description == "+30%")
  }

  /// An app a snapshot lists starts at the size tried, not at the snapshot's footprint; today's
  /// size is the snapshot's.
  @Test func theSizeReplacesTheSnapshotsFootprint() throws {
    var scenario = Scenario(
      name: "s", device: Fixture.device,
      apps: [
        Fixture.app("notes", resident: 50, caches: 10, backing: 10),
        Fixture.app("mail", resident: 60, caches: 10, backing: 10),
      ], actions: [TimedAction(sec(10), .open("mail"))])
    scenario.snapshot = Snapshot([
      Snapshot.Entry(process: "notes", state: .suspended, footprintKB: mb(70))
    ])
    #expect(WhatIf.todayKB(of: 0, in: scenario) == mb(70))
    let resized = WhatIf.resized(scenario, app: 0, residentKB: mb(120))
    #expect(resized.apps[0].residentKB == mb(120))
    let summary = try Simulator.run(resized).summary
    #expect(summary.apps[0].peakFootprintKB == mb(120), "placed at the size tried")
    let asItIs = try Simulator.run(scenario).summary
    #expect(asItIs.apps[0].peakFootprintKB == mb(70))
  }

  @Test func eachPointCarriesItsPairedDifferenceFromToday() throws {
    let day = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/photofeed-day.json")
    let points = try WhatIf.run(
      day, app: "com.example.photofeed", residentsKB: [mb(450), mb(100)], devices: [],
      seeds: Array(1...6), jobs: 2)
    #expect(points.map(\.residentKB) == [mb(450), mb(100)], "today's size is run, not returned")
    let exit = MetricKitExit.backgroundMemoryPressure
    for point in points {
      #expect(point.todayKB == day.apps.first { $0.id == "com.example.photofeed" }?.residentKB)
      let paired = try #require(point.vsToday(exit))
      let means =
        try #require(point.summary(exit)).mean - SampleSummary(point.todayPerDay[exit] ?? [])!.mean
      #expect(abs(paired.mean - means) < 1e-9)
    }
    let bigger = try #require(points[0].vsToday(exit)).mean
    let smaller = try #require(points[1].vsToday(exit)).mean
    #expect(bigger >= smaller, "more memory is not fewer exits")
  }

  @Test func aSystemProcessIsNotAnApp() throws {
    var device = DeviceProfile(name: "d", memoryKB: mb(2048), reservedKB: mb(400))
    device.systemProcesses = [
      SystemProcess(name: "backboardd", kind: .activeDaemon, footprintKB: mb(20))
    ]
    let scenario = Scenario(
      name: "s", device: device, apps: [Fixture.app("notes", resident: 50, caches: 1, backing: 1)],
      actions: [TimedAction(0, .open("notes"))])
    #expect(throws: JetsimError.self) { try WhatIf.index(of: "backboardd", in: scenario) }
    do {
      _ = try WhatIf.index(of: "backboardd", in: scenario)
    } catch {
      #expect("\(error)".contains("a system process of the device"))
    }
    // A name the scenario lacks is named, with the nearest app and the apps there are.
    #expect(
      throws: JetsimError.invalidEntry(
        path: scenario.origin, keyPath: "apps",
        message: "no app 'note' to change; did you mean 'notes'? its apps are notes")
    ) { try WhatIf.index(of: "note", in: scenario) }
    #expect(WhatIf.hasWorkload(scenario))
    var bare = scenario
    bare.actions = []
    #expect(!WhatIf.hasWorkload(bare))
  }
}
