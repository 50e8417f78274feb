import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct UserModelTests {
  let model = UserModel(
    apps: ["a", "b", "c", "d"], popularity: .zipf(exponent: 1), dwell: .exponential(meanMs: 60_000),
    gap: .exponential(meanMs: 600_000), homeShare: 0.5, lockShare: 0.2, interruptionShare: 0.1,
    interruption: .fixed(30_000), wakes: [UserModel.Wakes(app: "c", perHour: 6, durationMs: 10_000)]
  )

  @Test func openFrequenciesFollowZipf() {
    let actions = model.actions(durationMs: 2_000 * 3_600_000, seed: 3)
    // Count choices: an open is a choice of a new app; staying in the same app after a direct switch
    // makes no open, so compare shares among apps opened after home (which always opens).
    var afterHome: [String: Int] = [:]
    var wasHome = true
    for action in actions {
      switch action.action {
      case .home: wasHome = true
      case .open(let app):
        if wasHome { afterHome[app, default: 0] += 1 }
        wasHome = false
      default: break
      }
    }
    let total = Double(afterHome.values.reduce(0, +))
    #expect(total > 20_000)
    for (app, probability) in zip(model.apps, model.probabilities) {
      let observed = Double(afterHome[app] ?? 0) / total
      #expect(abs(observed - probability) < 0.01, "\(app): \(observed) vs \(probability)")
    }
    #expect(
      model.probabilities.map { Units.decimal($0, digits: 4) } == [
        "0.4800", "0.2400", "0.1600", "0.1200",
      ])
  }

  @Test func switchSharesInterruptionsAndWakesFollowTheirParameters() {
    let hours = 2_000
    let actions = model.actions(durationMs: hours * 3_600_000, seed: 5)
    let homes = Double(actions.filter { $0.action == .home }.count)
    let locks = Double(actions.filter { $0.action == .lock }.count)
    let interrupts = Double(
      actions.filter { if case .interrupt = $0.action { true } else { false } }.count)
    let wakes = Double(actions.filter { if case .wake = $0.action { true } else { false } }.count)
    // Every app use ends in one switch: home, lock or direct (with 0.5, 0.2, 0.3).
    let uses = homes / 0.5
    #expect(abs(locks / uses - 0.2) < 0.01)
    #expect(abs(interrupts / uses - 0.1) < 0.01)
    #expect(abs(wakes / Double(hours) - 6) < 0.2)
  }

  @Test func durationsHaveTheirMeans() {
    var random = RandomStream(seed: 11, stream: 2)
    for duration in [
      UserModel.Duration.exponential(meanMs: 90_000), .logNormal(medianMs: 60_000, sigma: 0.8),
      .fixed(5_000),
    ] {
      let draws = (0..<200_000).map { _ in Double(duration.draw(&random)) }
      let mean = draws.reduce(0, +) / Double(draws.count)
      #expect(abs(mean / duration.meanMs - 1) < 0.02, "\(duration): \(mean)")
    }
    var median = RandomStream(seed: 12, stream: 2)
    let sorted = (0..<100_001).map { _ in
      UserModel.Duration.logNormal(medianMs: 60_000, sigma: 0.8).draw(&median)
    }.sorted()
    #expect(abs(Double(sorted[50_000]) / 60_000 - 1) < 0.02)
  }

  @Test func eachSourceHasItsOwnStream() {
    var quiet = model
    quiet.wakes = []
    let user = { (actions: [TimedAction]) in
      actions.filter { if case .wake = $0.action { false } else { true } }
    }
    #expect(
      user(model.actions(durationMs: 36_000_000, seed: 9))
        == user(quiet.actions(durationMs: 36_000_000, seed: 9)))
    #expect(
      model.actions(durationMs: 36_000_000, seed: 9)
        != model.actions(durationMs: 36_000_000, seed: 10))
  }
}
