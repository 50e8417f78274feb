import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// A device state built by hand, on which a policy is asked for evictions until it stops; kills and
/// purges are applied to the state as the simulation would.
///
/// Policies follow processes as they change (band entry order, the app that left the screen last),
/// so each process comes with a little history: the time it entered its current state, and whether
/// it was on screen before. The harness tells the policy of these changes in time order.
struct PolicyHarness {
  struct App {
    var id: String
    var state: AppState
    var footprintMB: Int
    var lastUsedMs = 0
    var cachesMB = 0
    var modes: [BackgroundMode] = []
    var working = false
    /// When it entered its current state (its band, for jetsam).
    var enteredMs = 0
    /// Whether it was on screen before it entered its current state.
    var leftScreen = false
    /// Whether it has been on screen in its present life (Android's "has shown UI"); nil: unless it
    /// is working in the background (woken). `leftScreen` makes it true.
    var shownUI: Bool?
    /// Whether it was on screen when the device last locked, until an app comes on screen.
    var behindLock = false
  }

  /// An app woken into the background at `atMs` and working there (a started service under
  /// ActivityManager): used, and in its state, since then.
  static func woken(_ id: String, footprintMB: Int, atMs: Int) -> App {
    App(
      id: id, state: .background, footprintMB: footprintMB, lastUsedMs: atMs, working: true,
      enteredMs: atMs)
  }

  var device: DeviceProfile
  var profiles: [AppProfile]
  var apps: [AppStatus]
  var history: [App]
  var nowMs: Int
  /// The process whose allocation waits for room, if any.
  var allocating: Int?

  init(device: DeviceProfile = Fixture.device, nowMs: Int = 100_000, _ apps: [App]) {
    self.device = device
    self.nowMs = nowMs
    history = apps
    profiles = apps.map {
      AppProfile(id: $0.id, residentKB: mb($0.footprintMB), backgroundModes: $0.modes)
    }
    let ranks = apps.map(\.id).sorted()
    self.apps = apps.map { app in
      var status = AppStatus(idRank: ranks.firstIndex(of: app.id) ?? 0, isSystemProcess: false)
      status.state = app.state
      status.footprintKB = mb(app.footprintMB)
      status.physicalKB = status.footprintKB
      status.lastUsedMs = app.lastUsedMs
      status.cachesKB = mb(app.cachesMB)
      status.holdsScreenMemory = app.state.isForeground
      status.activeModes = app.modes.reduce(0) { $0 | $1.bit }
      status.hasBackgroundWork = app.working
      status.enteredStateMs = app.enteredMs
      status.isBehindLock = app.behindLock
      if app.state.isResident, !app.state.isForeground, app.shownUI ?? !app.working {
        status.leftForegroundMs = app.lastUsedMs
      }
      return status
    }
  }

  /// Adds the device's next system process, idle (suspended) with `footprintMB`, which went idle
  /// at `enteredMs`.
  mutating func addIdleSystemProcess(footprintMB: Int, enteredMs: Int = 0) {
    let index = apps.count
    var process = AppStatus(idRank: index, isSystemProcess: true)
    process.state = .suspended
    process.footprintKB = mb(footprintMB)
    process.physicalKB = process.footprintKB
    apps.append(process)
    let name = device.systemProcesses[index - profiles.count].name
    history.append(
      .init(id: name, state: .suspended, footprintMB: footprintMB, enteredMs: enteredMs))
  }

  /// Available memory: usable memory less the apps' footprints.
  var availableKB: Int { device.usableKB - apps.reduce(0) { $0 + $1.footprintKB } }

  func view(seed: UInt64) -> DeviceView {
    DeviceView(
      device: device, profiles: profiles, apps: apps, nowMs: nowMs, availableKB: availableKB,
      level: device.level(availableKB: availableKB),
      foregroundApp: apps.firstIndex { $0.state.isForeground }, allocatingApp: allocating,
      seed: seed)
  }

  /// The policy after it has followed every process's history, in time order.
  func started<Policy: EvictionPolicy>(_ policy: Policy, seed: UInt64 = 1) -> Policy {
    var policy = policy
    policy.start(view(seed: seed))
    let order = history.indices.sorted {
      (history[$0].enteredMs, $0) < (history[$1].enteredMs, $1)
    }
    for index in order {
      if history[index].leftScreen {
        var before = apps[index]
        before.state = .active
        policy.appDidChange(index, before, nowMs: history[index].enteredMs)
      }
      policy.appDidChange(index, apps[index], nowMs: history[index].enteredMs)
    }
    return policy
  }

  /// The policy's decisions, as `"kill id (reason)"` or `"purge id"`, until it answers nil.
  mutating func decisions(_ policy: some EvictionPolicy, seed: UInt64 = 1) -> [String] {
    var policy = started(policy, seed: seed)
    var result: [String] = []
    while let eviction = policy.nextEviction(view(seed: seed)), result.count <= apps.count * 2 {
      let app = eviction.app
      let name =
        app < profiles.count ? profiles[app].id : device.systemProcesses[app - profiles.count].name
      if eviction.purgeOnly {
        apps[app].footprintKB -= apps[app].purgeableKB
        apps[app].cachesKB = 0
        result.append("purge \(name)")
      } else {
        apps[app].state = .notRunning
        apps[app].footprintKB = 0
        result.append("kill \(name) (\(eviction.reason))")
      }
      apps[app].physicalKB = apps[app].footprintKB
      policy.appDidChange(app, apps[app], nowMs: nowMs)
    }
    return result
  }
}
