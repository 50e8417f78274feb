import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

@Suite struct ProfileWriterTests {
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
