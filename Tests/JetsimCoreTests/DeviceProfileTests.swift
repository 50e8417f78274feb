import JetsimTestSupport
import Testing

@testable import JetsimCore

/// A device's thresholds and foreground limit are given or derived from its memory, whichever way
/// the profile is changed.
@Suite struct DeviceProfileTests {
  let device = DeviceProfile(name: "d", memoryKB: mb(2048), reservedKB: mb(400))

  @Test func aThresholdSetIsGivenAndKeptByWithMemory() {
    var device = device
    device.warningThresholdKB = mb(300)
    let resized = device.withMemory(mb(4096))
    #expect(resized.warningThresholdKB == mb(300))
    #expect(resized.criticalThresholdKB == mb(4096) * 4 / 100, "not given: derived again")
    #expect(resized.foregroundLimitKB == mb(4096) - mb(400))
  }

  @Test func aCriticalLevelSetLeadsTheLevelsNotGiven() {
    var device = device
    device.criticalThresholdKB = mb(90)
    let built = DeviceProfile(
      name: "d", memoryKB: mb(2048), reservedKB: mb(400), criticalThresholdKB: mb(90))
    #expect(device == built)
    #expect(device.reaperThresholdKB == mb(360), "XNU's ratio: 4× the critical level")
  }

  @Test func memoryAndReservedMemorySetDeriveAgainWhatWasNotGiven() {
    var device = device
    device.memoryKB = mb(4096)
    #expect(device == self.device.withMemory(mb(4096)))
    device.reservedKB = mb(1000)
    #expect(device.foregroundLimitKB == mb(3096))
    device.foregroundLimitKB = mb(2000)
    device.reservedKB = mb(500)
    #expect(device.foregroundLimitKB == mb(2000), "given: kept")
  }

  @Test func profilesThatGiveWhatOthersDeriveDiffer() {
    let given = DeviceProfile(
      name: "d", memoryKB: mb(2048), reservedKB: mb(400),
      warningThresholdKB: device.warningThresholdKB)
    #expect(given.warningThresholdKB == device.warningThresholdKB)
    #expect(given != device, "they differ once resized")
    #expect(
      given.withMemory(mb(4096)).warningThresholdKB
        != device.withMemory(mb(4096)).warningThresholdKB)
  }
}
