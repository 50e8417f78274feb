import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// A device state built by hand, on which a policy is asked for evictions until it stops; kills and
/// purges are applied to the state as the simulation would.
struct PolicyHarness {
  struct App {
    var id: String
    var state: AppState
    var footprintMB: Int
    var lastUsedMs = 0
    var cachesMB = 0
    var modes: [BackgroundMode] = []
    var working = false
    var leftForegroundMs: Int?
  }

  var device: DeviceProfile
  var profiles: [AppProfile]
  var apps: [AppStatus]
  var nowMs: Int

  init(device: DeviceProfile = Fixture.device, nowMs: Int = 100_000, _ apps: [App]) {
    self.device = device
    self.nowMs = nowMs
    profiles = apps.map {
      AppProfile(id: $0.id, residentKB: mb($0.footprintMB), backgroundModes: $0.modes)
    }
    let ranks = apps.map(\.id).sorted()
    self.apps = apps.map { app in
      var status = AppStatus(idRank: ranks.firstIndex(of: app.id) ?? 0)
      status.state = app.state
      status.footprintKB = mb(app.footprintMB)
      status.physicalKB = status.footprintKB
      status.lastUsedMs = app.lastUsedMs
      status.cachesKB = mb(app.cachesMB)
      status.holdsScreenMemory = app.state.isForeground
      status.activeModes = app.modes.reduce(0) { $0 | $1.bit }
      status.hasBackgroundWork = app.working
      status.leftForegroundMs = app.leftForegroundMs
      return status
    }
  }

  /// Free memory: usable memory less the apps' footprints.
  var freeKB: Int { device.usableKB - apps.reduce(0) { $0 + $1.footprintKB } }

  func view(seed: UInt64) -> DeviceView {
    DeviceView(
      device: device, profiles: profiles, apps: apps, nowMs: nowMs, freeKB: freeKB,
      level: device.level(freeKB: freeKB),
      foregroundApp: apps.firstIndex { $0.state.isForeground }, seed: seed)
  }

  /// The policy's decisions, as `"kill id (reason)"` or `"purge id"`, until it answers nil.
  mutating func decisions(_ policy: some EvictionPolicy, seed: UInt64 = 1) -> [String] {
    var policy = policy
    policy.start(view(seed: seed))
    for index in apps.indices { policy.appDidChange(index, apps[index], nowMs: nowMs) }
    var result: [String] = []
    while let eviction = policy.nextEviction(view(seed: seed)), result.count <= apps.count * 2 {
      let app = eviction.app
      if eviction.purgeOnly {
        apps[app].footprintKB -= apps[app].purgeableKB
        apps[app].cachesKB = 0
        result.append("purge \(profiles[app].id)")
      } else {
        apps[app].state = .notRunning
        apps[app].footprintKB = 0
        result.append("kill \(profiles[app].id) (\(eviction.reason))")
      }
      apps[app].physicalKB = apps[app].footprintKB
      policy.appDidChange(app, apps[app], nowMs: nowMs)
    }
    return result
  }
}
