import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

@Suite struct ProfileWriterTests {
  /// The levels, the reaper, app swap and relaunch likelihoods are written as they are read.
  @Test func theKernelSettingsRoundTrip() throws {
    let scratch = try ScratchFolder()
    var device = DeviceProfile(
      name: "d", memoryKB: mb(4096), reservedKB: mb(900), criticalThresholdKB: mb(150),
      idleThresholdKB: mb(320))
    device.reaper.enabled = false
    device.reaper.minAgeMs = sec(60)
    device.reaper.periodMs = sec(90)
    device.appSwap = DeviceProfile.AppSwap(budgetKB: mb(2048), killsOnLowSwap: false)
    device.systemProcesses = [
      SystemProcess(
        name: "eager", kind: .idleDaemon, footprintKB: mb(5), relaunchLikelihood: .high),
      SystemProcess(
        name: "odd", kind: .idleDaemon, footprintKB: mb(5), relaunchLikelihood: .medium,
        agingTimeMs: 7_000),
      // Coalitions: a member whose role is its kind's default, one with another, and a leader.
      SystemProcess(name: "share", kind: .extension, footprintKB: mb(5), coalition: "hostd"),
      SystemProcess(
        name: "odd-one", kind: .activeDaemon, footprintKB: mb(5), coalition: "hostd",
        coalitionRole: .undefined),
      SystemProcess(name: "hostd", kind: .activeDaemon, footprintKB: mb(5)),
    ]
    let written = try scratch.write("d.json", ProfileWriter.json(device, standalone: true))
    let read = try ProfileLoader.device(at: written)
    #expect(read == device)
    #expect(read.warningThresholdKB == mb(150) * 15 / 4, "derived by ratio, written, read back")
    #expect(read.systemProcesses.prefix(2).map(\.agingTimeMs) == [10_000, 7_000])
    #expect(
      read.systemProcesses.map(\.coalitionRole) == [
        .leader, .leader, .extension, .undefined, .leader,
      ])
  }

  @Test func everyShippedProfileRoundTrips() throws {
    let folder = "\(packageRoot)/Profiles"
    let scratch = try ScratchFolder()
    var apps: [AppProfile] = []
    for file in try FileManager.default.contentsOfDirectory(atPath: folder + "/apps") {
      let app = try ProfileLoader.app(at: "\(folder)/apps/\(file)")
      apps.append(app)
      let written = try scratch.write(file, ProfileWriter.json(app, standalone: true))
      #expect(try ProfileLoader.app(at: written) == app, "\(file)")
    }
    for file in try FileManager.default.contentsOfDirectory(atPath: folder + "/devices")
    where file.hasSuffix(".json") {
      let device = try ProfileLoader.device(at: "\(folder)/devices/\(file)")
      let written = try scratch.write(file, ProfileWriter.json(device, standalone: true))
      #expect(try ProfileLoader.device(at: written) == device, "\(file)")
    }
    // Inline in a scenario, apps are written with only what differs from the defaults.
    let device = try ProfileLoader.device(at: "\(folder)/devices/iphone-11-ios14.json")
    let snapshot = Snapshot([.init(process: apps[0].id, state: .suspended, band: 0)])
    let scenario = try scratch.write(
      "scenario.json",
      ProfileWriter.scenarioJSON(
        name: "round-trip", description: "", device: .inline(device), apps: apps,
        snapshot: snapshot))
    let loaded = try ProfileLoader.scenario(at: scenario)
    #expect(loaded.apps == apps)
    #expect(loaded.device == device)
    #expect(loaded.snapshot == snapshot)
    #expect(
      ProfileWriter.json(AppProfile(id: "a", residentKB: 1024))
        == "{\"id\": \"a\", \"resident\": \"1MB\"}")
  }
}
