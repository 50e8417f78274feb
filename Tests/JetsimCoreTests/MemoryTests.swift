import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// docs/model.md §3 and §5: footprints, purges, pressure levels, warnings and per-app limits.
@Suite struct MemoryTests {
  @Test func theFootprintDependsOnTheState() throws {
    let app = Fixture.app("a", resident: 300, caches: 100, backing: 50)
    let result = try Fixture.run([app], [TimedAction(0, .open("a")), TimedAction(sec(10), .home)])
    #expect(result.footprint("a", atMs: 0) == mb(450))
    #expect(result.footprint("a", atMs: sec(10)) == mb(300))  // caches and backing stores purged
    #expect(result.footprint("a", atMs: sec(15)) == mb(300))  // suspended keeps resident memory
    let purge = try #require(result.events.first { $0.kind == .purge })
    #expect(purge.footprintKB == mb(300))
    #expect(purge.availableKB == Fixture.device.usableKB - mb(300))
  }

  @Test func cachesComeBackWithTheForeground() throws {
    let app = Fixture.app("a", resident: 300, caches: 100, backing: 50)
    let result = try Fixture.run(
      [app],
      [TimedAction(0, .open("a")), TimedAction(sec(10), .home), TimedAction(sec(60), .open("a"))])
    #expect(result.footprint("a", atMs: sec(60)) == mb(450))
  }

  @Test func aKilledAppHoldsNothing() throws {
    let app = Fixture.app("a", resident: 300)
    let result = try Fixture.run(
      [app],
      [
        TimedAction(0, .open("a")), TimedAction(sec(1), .home),
        TimedAction(sec(9), .forceQuit("a")),
      ])
    #expect(result.footprint("a", atMs: sec(9)) == 0)
    #expect(result.events.last?.availableKB == Fixture.device.usableKB)
  }

  @Test func pressureLevelsFollowTheThresholds() {
    let device = Fixture.device
    #expect(device.level(availableKB: mb(200)) == .normal)
    #expect(device.level(availableKB: mb(200) - 1) == .warning)
    #expect(device.level(availableKB: mb(100)) == .warning)
    #expect(device.level(availableKB: mb(100) - 1) == .critical)
  }

  @Test(arguments: [
    (2048, 15, 5), (3072, 15, 5), (3754, 15, 4), (6144, 15, 4), (8192, 12, 4),
  ])
  func defaultThresholdsFollowXNUTiers(memoryMB: Int, warning: Int, critical: Int) {
    let device = DeviceProfile(name: "d", memoryKB: mb(memoryMB), reservedKB: mb(100))
    #expect(device.warningThresholdKB == mb(memoryMB) * warning / 100)
    #expect(device.criticalThresholdKB == mb(memoryMB) * critical / 100)
  }

  @Test func warningsGoToRunningAppsOnlyAndOnlyOnEnteringWarning() throws {
    let apps = [
      Fixture.app("a", resident: 300), Fixture.app("b", resident: 300),
      Fixture.app("c", resident: 280),
      Fixture.app("d", resident: 10),
    ]
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("a")), TimedAction(sec(60), .open("b")),
        TimedAction(sec(120), .open("c")),
        // Still at warning: no second round of warnings.
        TimedAction(sec(180), .open("d")),
      ])
    // At 120 s c's launch would leave 1000 - 300 - 300 - 280 = 120 MB: warning. The warnings go out
    // before it lands, to the apps running then: b, in its background time (a is suspended since
    // 65 s, c not launched yet).
    #expect(result.warned(atMs: sec(120)) == ["b"])
    #expect(result.warned(atMs: sec(180)).isEmpty)
    #expect(result.summary.metrics.memoryWarnings == 1)
  }

  @Test func aWarningFreesTheAppsShareOfItsCaches() throws {
    let app = Fixture.app("cache", resident: 100, caches: 100) { $0.memoryWarningFreesPercent = 40 }
    let result = try Fixture.run(
      [app],
      [TimedAction(0, .open("cache")), TimedAction(sec(1), .allocate("cache", kilobytes: mb(650)))])
    // 800 MB free; the allocation would leave 150 MB: warning. The app frees 40 % of its 100 MB
    // caches before its allocation lands: 840 MB free, then 190 MB.
    let warning = try #require(result.events.first { $0.callback == .didReceiveMemoryWarning })
    #expect(warning.footprintKB == mb(160))
    #expect(warning.availableKB == mb(840))
    #expect(warning.pendingKB == mb(650))
    #expect(result.events.last?.availableKB == mb(190))
  }

  @Test func warningsGoOutBeforeKillsAndTheirMemoryCounts() throws {
    // One allocation crosses both thresholds; the warnings (to both running apps) go out first and
    // free enough to avoid any kill (docs/model.md §10).
    let apps = [
      Fixture.app("old", resident: 100),
      Fixture.app("new", resident: 300, caches: 250) { $0.memoryWarningFreesPercent = 100 },
    ]
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("old")), TimedAction(sec(5), .open("new")),
        TimedAction(sec(6), .allocate("new", kilobytes: mb(300))),
      ])
    // At 6 s: 350 MB free; the allocation would leave 50 MB, below critical. old (in its background
    // time) and new get the warning; new frees its 250 MB of caches: 600 MB, then 300 MB.
    #expect(result.warned(atMs: sec(6)) == ["old", "new"])
    #expect(result.kills.isEmpty)
    #expect(result.events.last?.availableKB == mb(300))
  }

  @Test func anAppThatWouldPassItsLimitIsKilledInsteadWithNoCallback() throws {
    let app = Fixture.app("leaky", resident: 100) { $0.memoryLimitKB = mb(150) }
    let result = try Fixture.run(
      [app],
      [TimedAction(0, .open("leaky")), TimedAction(sec(1), .allocate("leaky", kilobytes: mb(60)))])
    #expect(result.killTexts == ["leaky per-process-limit"])
    let kill = try #require(result.kills.first)
    #expect(kill.callback == nil)
    #expect(kill.state == .active)
    // Killed instead of the allocation landing: its footprint without it, the allocation pending.
    #expect(kill.footprintKB == mb(100))
    #expect(kill.pendingKB == mb(60))
    #expect(!result.events.contains { $0.kind == .allocate })
  }

  @Test func theDeviceForegroundLimitAppliesWithoutAnOverride() throws {
    let app = Fixture.app("game", resident: 900)
    let result = try Fixture.run(
      [app],
      [TimedAction(0, .open("game")), TimedAction(sec(1), .allocate("game", kilobytes: mb(101)))])
    #expect(result.killTexts == ["game per-process-limit"])
  }

  @Test func allocateAndFreeChangeTheFootprintOfRunningAppsOnly() throws {
    let app = Fixture.app("a", resident: 100)
    let result = try Fixture.run(
      [app],
      [
        TimedAction(0, .open("a")), TimedAction(sec(1), .allocate("a", kilobytes: mb(50))),
        TimedAction(sec(2), .free("a", kilobytes: mb(80))), TimedAction(sec(3), .home),
        TimedAction(sec(60), .allocate("a", kilobytes: mb(50))),
      ])
    #expect(result.footprint("a", atMs: sec(1)) == mb(150))
    #expect(result.footprint("a", atMs: sec(2)) == mb(100))  // never below what it allocated
    #expect(result.footprint("a", atMs: sec(60)) == mb(100))  // suspended: runs no code
  }

  @Test func theLaunchPeakLastsTheColdLaunch() throws {
    let app = Fixture.app("cam", resident: 100) {
      $0.launchPeakKB = mb(80)
      $0.coldLaunchMs = 1500
    }
    let result = try Fixture.run([app], [TimedAction(0, .open("cam"))])
    #expect(result.footprint("cam", atMs: 0) == mb(180))
    #expect(result.trail("cam", atMs: 1500) == ["launch-peak-end active>active"])
    #expect(result.footprint("cam", atMs: 1500) == mb(100))
  }

  @Test func growthWhileActiveUpToItsCap() throws {
    let app = Fixture.app("feed", resident: 100) {
      $0.growthPerMinuteKB = mb(6)
      $0.maxGrowthKB = mb(3)
    }
    let result = try Fixture.run(
      [app], [TimedAction(0, .open("feed")), TimedAction(sec(100), .home)])
    #expect(result.footprint("feed", atMs: sec(10)) == mb(101))
    #expect(result.footprint("feed", atMs: sec(30)) == mb(103))
    #expect(result.events.filter { $0.kind == .grow }.count == 3)
  }

  @Test func compressionShrinksSuspendedAppsPhysicalMemoryOnly() throws {
    var device = Fixture.device
    device.compressionPermille = 2000
    let app = Fixture.app("a", resident: 300)
    let result = try Fixture.run(
      [app], [TimedAction(0, .open("a")), TimedAction(sec(1), .home)], device: device)
    let suspend = try #require(result.events.first { $0.kind == .suspend })
    #expect(suspend.footprintKB == mb(300))
    #expect(suspend.availableKB == device.usableKB - mb(150))
  }
}

/// docs/model.md §5: an allocation waits for room.
@Suite struct AllocationTests {
  @Test func killsComeBeforeTheAllocationTheyMakeRoomFor() throws {
    let apps = [Fixture.app("s", resident: 300), Fixture.app("p", resident: 100)]
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("s")), TimedAction(sec(1), .open("p")),
        TimedAction(sec(30), .allocate("p", kilobytes: mb(550))),
      ])
    // 600 MB free; 550 more would leave 50 MB, below critical: s (suspended) dies first, then the
    // allocation lands.
    let kill = try #require(result.kills.first)
    #expect(result.summary.appIDs[kill.app] == "s")
    #expect(kill.pendingKB == mb(550))
    #expect(kill.availableBeforeKB == mb(600) && kill.availableAfterKB == mb(900))
    let rows = result.events.filter { $0.timeMs == sec(30) }.map(\.kind)
    #expect(rows.firstIndex(of: .kill)! < rows.firstIndex(of: .allocate)!)
    #expect(result.events.last?.availableKB == mb(350))
  }

  @Test func freeMemoryIsNeverNegative() throws {
    let apps = (0..<6).map { Fixture.app("a\($0)", resident: 250, caches: 50, backing: 40) }
    let actions = (0..<30).map { TimedAction(sec(10 * $0), .open("a\($0 % 6)")) }
    for policy in PolicyName.all {
      let scenario = Scenario(
        name: "n", device: Fixture.device, apps: apps, actions: actions, policy: policy)
      let result = try Simulator.run(scenario)
      #expect(result.events.allSatisfy { $0.availableKB >= 0 }, "\(policy)")
      #expect(
        result.kills.allSatisfy { $0.availableBeforeKB >= 0 && $0.availableAfterKB >= 0 },
        "\(policy)")
      #expect(result.summary.metrics.peakUsedKB <= Fixture.device.memoryKB, "\(policy)")
      #expect(result.summary.metrics.minFreeKB >= 0, "\(policy)")
    }
  }

  @Test func anAllocationThatCannotFitKillsTheAllocatingAppAndNothingLands() throws {
    var device = Fixture.device
    device.foregroundLimitKB = mb(5000)
    let apps = [Fixture.app("other", resident: 100), Fixture.app("greedy", resident: 200)]
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("other")), TimedAction(sec(10), .open("greedy")),
        TimedAction(sec(20), .allocate("greedy", kilobytes: mb(900))),
      ], device: device)
    // 700 MB free: other (suspended) dies first, and 800 MB is still not enough for 900 MB: the
    // frontmost app is the last victim, and its allocation never lands.
    #expect(result.killTexts == ["other vm-pageshortage", "greedy vm-pageshortage"])
    let last = try #require(result.kills.last)
    #expect(last.state == .active && last.pendingKB == mb(900) && last.rank == 2)
    #expect(!result.events.contains { $0.kind == .allocate })
    #expect(result.events.allSatisfy { $0.availableKB >= 0 })
  }

  @Test func aColdLaunchThatCannotFitStartsWithNothingAndDies() throws {
    var device = Fixture.device
    device.foregroundLimitKB = mb(5000)
    let result = try Fixture.run(
      [Fixture.app("huge", resident: 1100)], [TimedAction(0, .open("huge"))], device: device)
    #expect(
      result.trail("huge") == [
        "launch notRunning>inactive willFinishLaunching",
        "kill inactive>notRunning (vm-pageshortage)",
      ])
    #expect(result.kills.first?.footprintKB == 0)
    #expect(result.kills.first?.pendingKB == mb(1100))
    // The open counts; the launch it failed to make does not (docs/reports.md: `opens` less
    // `cold_launches` and `warm_resumes` is the opens whose app died before reaching the screen).
    #expect(result.summary.metrics.opens == 1)
    #expect(result.summary.metrics.coldLaunches == 0)
    #expect(result.summary.metrics.warmResumes == 0)
  }

  /// Once its allocation has landed, the allocating app is an ordinary
  /// candidate in the same instant; a landed allocation never leaves free memory below critical
  /// while anything is left to kill.
  @Test func theAllocatingAppIsAnOrdinaryCandidateOnceItLands() throws {
    let apps = [Fixture.app("a", resident: 100), Fixture.app("huge", resident: 950)]
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("a")), TimedAction(sec(60), .open("huge"))])
    // a dies first to make room; huge's 950 MB then fit, leaving 50 MB, below critical: huge, on
    // screen and the last one left, dies in the same instant. The shortfall is the moment its
    // allocation waited with no one else to kill.
    #expect(result.killTexts == ["a vm-pageshortage", "huge vm-pageshortage"])
    #expect(result.kills.map(\.timeMs) == [sec(60), sec(60)])
    #expect(result.kills.last?.pendingKB == 0, "killed after landing, not for room")
    #expect(result.state("huge") == .notRunning)
    #expect(result.summary.metrics.shortfalls == 1)
  }

  @Test func aRampedLaunchBringsItsMemoryInStepsAndKillsInterleave() throws {
    let apps = [
      Fixture.app("s", resident: 300),
      Fixture.app("game", resident: 800) {
        $0.launchSteps = 4
        $0.coldLaunchMs = 4_000
      },
    ]
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("s")), TimedAction(sec(10), .open("game"))])
    // 200 MB at launch (500 MB free after), then 200 MB a second: at 12 s 100 MB is left, at the
    // critical level but not below it; the step at 13 s would leave -100 MB, so s (still in its
    // background time) dies in the middle of the launch, and the step lands.
    let steps = result.events.filter { $0.kind == .launchStep }
    #expect(steps.map(\.timeMs) == [sec(11), sec(12), sec(13)])
    #expect(result.footprint("game", atMs: sec(10)) == mb(200))
    #expect(result.footprint("game", atMs: sec(13)) == mb(800))
    let kill = try #require(result.kills.first)
    #expect(result.summary.appIDs[kill.app] == "s")
    #expect(kill.timeMs > sec(10) && kill.timeMs <= sec(13))
    #expect(kill.pendingKB == mb(200))
  }

  @Test func aLaunchThatWaitedIsCounted() throws {
    let apps = [Fixture.app("s", resident: 500), Fixture.app("b", resident: 600)]
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("s")), TimedAction(sec(10), .open("b"))])
    #expect(result.summary.metrics.launchesWaited == 1)
    #expect(result.summary.metrics.coldLaunches == 2)
  }

  @Test func aWarmResumeOfACompressedAppWaitsForItsMemory() throws {
    var device = Fixture.device
    device.compressionPermille = 2000
    let apps = [
      Fixture.app("a", resident: 400), Fixture.app("b", resident: 500),
      Fixture.app("c", resident: 200),
    ]
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("a")), TimedAction(sec(10), .open("b")),
        TimedAction(sec(20), .open("c")), TimedAction(sec(30), .open("a")),
      ], device: device)
    // Suspended apps take half their footprint: at 30 s, 1000 - 200 (a) - 250 (b) - 200 (c) = 350 MB
    // free; a coming back needs its other 200 MB, which fits: no kill, and the resume shows its
    // whole footprint.
    #expect(result.events.allSatisfy { $0.availableKB >= 0 })
    let resume = try #require(result.events.first { $0.kind == .resume && $0.timeMs == sec(30) })
    #expect(resume.footprintKB == mb(400))
    #expect(resume.availableKB == mb(150))
    #expect(result.kills.isEmpty)
  }
}

/// docs/model.md §10, row by row.
@Suite struct WorkedExampleTests {
  let result: RunResult

  init() throws {
    result = try Fixture.run(
      Fixture.workedExampleApps,
      [
        TimedAction(0, .open("a")), TimedAction(sec(60), .open("b")),
        TimedAction(sec(120), .open("c")),
        TimedAction(sec(180), .open("d")),
      ], durationMs: sec(190))
  }

  func free(atMs time: Int) -> Int? { result.events.last { $0.timeMs <= time }?.availableKB }

  @Test func freeMemoryAfterEachStep() {
    #expect(free(atMs: 0) == mb(550))
    #expect(free(atMs: sec(60)) == mb(350))
    #expect(free(atMs: sec(65)) == mb(350))
    #expect(free(atMs: sec(120)) == mb(150))
    #expect(free(atMs: sec(180)) == mb(100))
    #expect(free(atMs: sec(185)) == mb(100))
  }

  @Test func suspensionsFiveSecondsAfterLeaving() {
    #expect(result.trail("a", atMs: sec(65)) == ["suspend background>suspended"])
    #expect(result.trail("b", atMs: sec(125)) == ["suspend background>suspended"])
    #expect(result.trail("c", atMs: sec(185)) == ["suspend background>suspended"])
  }

  @Test func warningsAtTwoMinutesAndThree() {
    // Before the launch that causes them lands: to the apps running at that moment.
    #expect(result.warned(atMs: sec(120)) == ["b"])
    #expect(result.warned(atMs: sec(180)) == ["c"])
  }

  @Test func levelGoesBackToNormalWhenCLeaves() {
    let levels = result.events.filter { $0.kind == .pressure && $0.timeMs == sec(180) }.map(
      \.pressure)
    #expect(levels == [.normal, .critical, .warning])
  }

  @Test func theKillRow() throws {
    #expect(result.kills.count == 1)
    let kill = try #require(result.kills.first)
    #expect(result.summary.appIDs[kill.app] == "a")
    #expect(kill.reason == .vmPageshortage)
    #expect(kill.rank == 1)
    #expect(kill.state == .suspended)
    #expect(kill.footprintKB == 307_200)
    #expect(kill.freedKB == 307_200)
    #expect(kill.availableBeforeKB == 256_000)
    #expect(kill.availableAfterKB == 563_200)
    #expect(kill.pendingKB == 460_800)
    #expect(kill.callback == nil)
    #expect(kill.timeMs == sec(180))
  }
}
