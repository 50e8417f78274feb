import JetsimTestSupport
import Testing

@testable import JetsimCore

/// `Simulator.run` runs each built-in policy in a simulation compiled for it and any other behind
/// `AnyEvictionPolicy`; jetsam also says where it may act now (`actsNowBelowFreeKB`), so that the
/// simulation asks it nothing between its levels. Neither may change a decision: over the invariant
/// sweep's seeded workloads, a built-in policy run as a user's own (behind a forwarding wrapper,
/// so through `AnyEvictionPolicy`) makes the same events and kills, with its narrower level
/// forwarded or not.
@Suite struct PolicyDispatchTests {
  /// How many times the simulation asked for an eviction.
  final class Questions: @unchecked Sendable {
    var count = 0
  }

  /// A built-in policy as a user's own: every requirement forwarded, `actsNowBelowFreeKB` only
  /// when `narrows`; the questions counted.
  struct Forwarding: EvictionPolicy {
    var base: any EvictionPolicy
    let narrows: Bool
    let questions: Questions
    var name: String { base.name }

    mutating func start(_ device: DeviceView) { base.start(device) }
    mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
      base.appDidChange(app, status, nowMs: nowMs)
    }
    mutating func pressureDidChange(to level: PressureLevel, nowMs: Int) {
      base.pressureDidChange(to: level, nowMs: nowMs)
    }
    mutating func nextEviction(_ device: DeviceView) -> Eviction? {
      questions.count += 1
      return base.nextEviction(device)
    }
    func actsBelowFreeKB(_ device: DeviceProfile) -> Int { base.actsBelowFreeKB(device) }
    func actsNowBelowFreeKB(nowMs: Int) -> Int {
      narrows ? base.actsNowBelowFreeKB(nowMs: nowMs) : .max
    }
    func reconsiderAtMs(_ device: DeviceView) -> Int? { base.reconsiderAtMs(device) }
    func band(of app: Int, nowMs: Int) -> Int? { base.band(of: app, nowMs: nowMs) }
    var hasBands: Bool { base.hasBands }
    var isActing: Bool { base.isActing }
  }

  static let seeds = 0..<24

  /// The invariant sweep's scenario and workload of `seed` under `policy` (a name), run by
  /// `running`. Without the freezer: it works with `JetsamPolicy` itself only, so a user's wrapper
  /// around jetsam runs without it.
  static func run(seed: Int, policy: String, running: any EvictionPolicy) throws -> EventLog {
    var scenario = InvariantTests.scenario(seed: seed, policy: policy)
    scenario.device.freezer = nil
    var workload = PriorityMix(
      RandomWorkload(seed: UInt64(seed), apps: InvariantTests.apps, count: 300),
      seed: UInt64(seed), scenario: scenario)
    var log = EventLog()
    _ = try Simulator.run(scenario, policy: running, workload: &workload, observer: &log)
    return log
  }

  @Test(arguments: PolicyRegistry.names)
  func aBuiltInPolicyDecidesAlikeCompiledForOrBehindAnyEvictionPolicy(policy: String) throws {
    for seed in Self.seeds {
      let made = try InvariantTests.scenario(seed: seed, policy: policy).makePolicy()
      let direct = try Self.run(seed: seed, policy: policy, running: made)
      let wrapped = Forwarding(base: made, narrows: true, questions: Questions())
      let forwarded = try Self.run(seed: seed, policy: policy, running: wrapped)
      #expect(direct.events == forwarded.events, "\(policy), seed \(seed)")
      #expect(direct.kills == forwarded.kills, "\(policy), seed \(seed)")
    }
  }

  /// jetsam's narrower level skips only questions it would answer nil: with it and without it the
  /// runs are the same, and it does skip some (else this test would prove nothing).
  @Test func jetsamsLevelOfTheMomentSkipsOnlyQuestionsItWouldAnswerNil() throws {
    var asked = (narrowed: 0, all: 0)
    for seed in Self.seeds {
      var runs: [(EventLog, Int)] = []
      for narrows in [true, false] {
        let questions = Questions()
        let policy = Forwarding(base: JetsamPolicy(), narrows: narrows, questions: questions)
        runs.append((try Self.run(seed: seed, policy: "jetsam", running: policy), questions.count))
      }
      #expect(runs[0].0.events == runs[1].0.events, "seed \(seed)")
      #expect(runs[0].0.kills == runs[1].0.kills, "seed \(seed)")
      asked.narrowed += runs[0].1
      asked.all += runs[1].1
    }
    #expect(asked.narrowed < asked.all, "\(asked)")
  }
}
