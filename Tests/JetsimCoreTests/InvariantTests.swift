import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// Invariants over many seeded random workloads: each run's event log is replayed by an independent
/// reconstruction of the device, and every row is checked against docs/model.md.
@Suite struct InvariantTests {
  static let apps = Fixture.stressApps

  static func device(for seed: Int) -> DeviceProfile {
    var device = Fixture.device
    switch seed % 3 {
    case 0: break
    case 1:
      device = DeviceProfile(
        name: "1 GB", memoryKB: mb(1024), reservedKB: mb(250), foregroundLimitKB: mb(645))
    default: device.compressionPermille = 2000
    }
    return device
  }

  @Test(arguments: 0..<10)
  func everyRowObeysTheModel(batch: Int) throws {
    for seed in (batch * 100)..<(batch * 100 + 100) {
      let device = Self.device(for: seed)
      let scenario = Scenario(
        name: "random-\(seed)", device: device, apps: Self.apps, actions: [], seed: UInt64(seed))
      var workload = RandomWorkload(seed: UInt64(seed), apps: Self.apps, count: 300)
      var log = EventLog()
      _ = try Simulator.run(
        scenario, policy: LargestFirstPolicy(), workload: &workload, observer: &log)
      try check(log, device: device, seed: seed)
    }
  }

  func check(_ log: EventLog, device: DeviceProfile, seed: Int) throws {
    let count = Self.apps.count
    let ids = Self.apps.map(\.id)
    var state = [AppState](repeating: .notRunning, count: count)
    var footprint = [Int](repeating: 0, count: count)
    var lastUsed = [Int](repeating: 0, count: count)
    func physical(_ app: Int) -> Int {
      state[app] == .suspended && device.compressionPermille > 1000
        ? footprint[app] * 1000 / device.compressionPermille : footprint[app]
    }
    var kills = log.kills.makeIterator()
    for (position, row) in log.events.enumerated() {
      let context = Comment(rawValue: "seed \(seed), seq \(row.seq)")
      #expect(row.seq == position + 1, context)
      if row.app >= 0 {
        let from = try #require(row.from, context)
        let to = try #require(row.to, context)
        #expect(from == state[row.app], "rows continue from the app's state; \(context)")
        if from != to { #expect(from.canMove(to: to), "illegal \(from)>\(to); \(context)") }
        #expect(
          from != .suspended || row.callback == nil,
          "a suspended app got a callback; \(context)")
        #expect(to != .suspended || row.callback == nil, context)
        if row.kind == .kill {
          let nextKill = kills.next()
          let kill = try #require(nextKill, context)
          #expect(kill.seq == row.seq && kill.app == row.app && kill.reason == row.reason, context)
          #expect(kill.freedKB == physical(row.app), context)
          if kill.reason == .vmPageshortage {
            #expect(
              kill.freeBeforeKB < device.criticalThresholdKB, "kill above critical; \(context)")
            #expect(
              row.app == expectedVictim(state, footprint, lastUsed, ids), "wrong victim; \(context)"
            )
            #expect(kill.callback == (from == .background ? .willTerminate : nil), context)
          }
        }
        if to == .background && from != .background { lastUsed[row.app] = row.timeMs }
        state[row.app] = to
        footprint[row.app] = row.footprintKB
        #expect(to != .notRunning || row.footprintKB == 0, context)
      }
      let used = (0..<count).reduce(0) { $0 + physical($1) }
      #expect(row.freeKB == device.usableKB - used, "memory not conserved; \(context)")
      #expect(row.pressure == device.level(freeKB: row.freeKB), context)
      #expect(state.filter(\.isForeground).count <= 1, "two apps on screen; \(context)")
      // A pressure kill that leaves free memory below critical is followed by another, or a shortfall.
      if row.reason == .vmPageshortage, row.freeKB < device.criticalThresholdKB {
        let next = log.events[(position + 1)...].first { $0.kind != .pressure }
        #expect(
          next?.reason == .vmPageshortage || next?.kind == .shortfall,
          "kills stopped early; \(context)")
      }
    }
    let extra = kills.next()
    #expect(extra == nil, "every kill has its event row")
  }

  /// docs/model.md §6, computed from the reconstructed states.
  func expectedVictim(_ state: [AppState], _ footprint: [Int], _ lastUsed: [Int], _ ids: [String])
    -> Int?
  {
    for tier in [AppState.suspended, .background] {
      let candidates = state.indices.filter { state[$0] == tier }
      if let best = candidates.min(by: { a, b in
        if footprint[a] != footprint[b] { return footprint[a] > footprint[b] }
        if lastUsed[a] != lastUsed[b] { return lastUsed[a] < lastUsed[b] }
        return ids[a] < ids[b]
      }) {
        return best
      }
    }
    return state.indices.first { state[$0].isForeground }
  }

  @Test func theSweepReachesEveryKillReasonAndEveryCallback() throws {
    var reasons = Set<KillReason>()
    var callbacks = Set<Callback>()
    for seed in 0..<60 {
      let scenario = Scenario(
        name: "r", device: Self.device(for: seed), apps: Self.apps, actions: [])
      var workload = RandomWorkload(seed: UInt64(seed), apps: Self.apps, count: 300)
      var log = EventLog()
      _ = try Simulator.run(
        scenario, policy: LargestFirstPolicy(), workload: &workload, observer: &log)
      reasons.formUnion(log.kills.map(\.reason))
      callbacks.formUnion(log.events.compactMap(\.callback))
    }
    let core: Set<KillReason> = [
      .vmPageshortage, .perProcessLimit, .userForceQuit, .exitOnSuspend, .watchdog,
      .backgroundTaskExpired, .reboot,
    ]
    #expect(core.isSubset(of: reasons))
    #expect(callbacks == Set(Callback.allCases))
  }
}
