import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

@Suite struct ProfileWriterTests {
  @Test func everyShippedProfileRoundTrips() throws {
    let folder = "\(packageRoot)/Profiles"
    let scratch = try ScratchFolder()
    for file in try FileManager.default.contentsOfDirectory(atPath: folder + "/apps") {
      let app = try ProfileLoader.app(at: "\(folder)/apps/\(file)")
      let written = try scratch.write(
        file, "{\"version\": 1, " + ProfileWriter.json(app).dropFirst())
      #expect(try ProfileLoader.app(at: written) == app, "\(file)")
    }
    for file in try FileManager.default.contentsOfDirectory(atPath: folder + "/devices") {
      let device = try ProfileLoader.device(at: "\(folder)/devices/\(file)")
      let written = try scratch.write(
        file, "{\"version\": 1, " + ProfileWriter.json(device).dropFirst())
      #expect(try ProfileLoader.device(at: written) == device, "\(file)")
    }
  }
}
