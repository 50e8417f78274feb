import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

@Suite struct PlannerTests {
  @Test func theAnswerIsTheEdgeASweepFinds() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/light-user-2gb.json")
    let target = try #require(CapacityTarget.parse("warm-resume-ratio>=0.9").target)
    let seeds: [UInt64] = [1, 2, 3, 4, 5]
    let plan = try Planner.plan(
      scenario, target: target, seeds: seeds, minKB: mb(800), maxKB: mb(4096), precisionKB: mb(64),
      jobs: 2)
    let answer = try #require(plan.answerKB)
    // A sweep over the answer and one step below agrees: all seeds meet the target at the answer,
    // not all one step below.
    for (memory, expected) in [(answer, true), (answer - mb(64), false)] {
      var sized = scenario
      sized.device = scenario.device.withMemory(memory)
      let met = try seeds.allSatisfy { seed in
        var run = sized
        run.seed = seed
        return target.holds(target.metric.value(try Simulator.run(run).summary.metrics))
      }
      #expect(met == expected, "\(memory / 1024) MB")
    }
    #expect(plan.probes.map(\.memoryKB) == plan.probes.map(\.memoryKB).sorted())
  }

  /// An app that exits on suspend keeps warm_resume_ratio below 1 at any size: the plan says so,
  /// names the app, and the pressure-only metric is met.
  @Test func aTargetNoMemoryMeetsSaysWhichKillsRemainAndWhy() throws {
    let apps = [
      Fixture.app("notes", resident: 50, caches: 10, backing: 10),
      Fixture.app("bank", resident: 60, caches: 10, backing: 10) { $0.exitsOnSuspend = true },
    ]
    let actions = [
      TimedAction(0, .open("notes")), TimedAction(sec(10), .open("bank")),
      TimedAction(sec(20), .open("notes")), TimedAction(sec(30), .open("bank")),
      TimedAction(sec(40), .open("notes")),
    ]
    let scenario = Scenario(name: "bank", device: Fixture.device, apps: apps, actions: actions)
    let plain = try #require(CapacityTarget.parse("warm-resume-ratio>=0.9").target)
    let plan = try Planner.plan(
      scenario, target: plain, seeds: [1], minKB: mb(400), maxKB: mb(2048), precisionKB: mb(64),
      jobs: 1)
    #expect(plan.answerKB == nil)
    #expect(
      plan.remainingKills == [CapacityPlan.AppKills(app: "bank", reason: .exitOnSuspend, count: 2)])
    #expect(
      KillReason.exitOnSuspend.whyMemoryDoesNotHelp?.contains("exits on suspend each time") == true)
    #expect(plan.probes.last?.kills(.exitOnSuspend) == 2)
    let pressure = try #require(CapacityTarget.parse("pressure-warm-resume-ratio>=0.9").target)
    let met = try Planner.plan(
      scenario, target: pressure, seeds: [1], minKB: mb(400), maxKB: mb(2048), precisionKB: mb(64),
      jobs: 1)
    #expect(met.answerKB != nil)
    #expect(met.remainingKills.isEmpty, "only a missed target has kills to explain")
  }

  @Test func targets() {
    #expect(
      CapacityTarget.parse("warm-resume-ratio >= 0.9").target?.description
        == "warm_resume_ratio >= 0.9000")
    #expect(CapacityTarget.parse("kills_per_hour<1").target?.holds(0.5) == true)
    #expect(CapacityTarget.parse("kills_per_hour<1").target?.holds(nil) == false)
    #expect(
      CapacityTarget.parse("warm-resume-ration>=0.9").problem?.contains(
        "did you mean 'warm_resume_ratio'?") == true)
    #expect(CapacityTarget.parse("warm-resume-ratio>=lots").problem == "'lots' is not a number")
    #expect(CapacityTarget.parse("warm-resume-ratio").problem?.hasPrefix("write it as") == true)
  }

  @Test func withMemoryRederivesOnlyWhatWasDerived() {
    let derived = DeviceProfile(name: "d", memoryKB: mb(2048), reservedKB: mb(400))
    let bigger = derived.withMemory(mb(4096))
    #expect(
      bigger.warningThresholdKB == mb(4096) * 15 / 100
        && bigger.criticalThresholdKB == mb(4096) * 4 / 100)
    #expect(bigger.foregroundLimitKB == mb(4096) - mb(400))
    let given = DeviceProfile(
      name: "d", memoryKB: mb(2048), reservedKB: mb(400), foregroundLimitKB: mb(1000),
      warningThresholdKB: mb(300))
    let resized = given.withMemory(mb(4096))
    #expect(resized.foregroundLimitKB == mb(1000) && resized.warningThresholdKB == mb(300))
    #expect(resized.criticalThresholdKB == mb(4096) * 4 / 100)
  }
}
