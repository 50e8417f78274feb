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
    #expect(purge.freeKB == Fixture.device.usableKB - mb(300))
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
    #expect(result.events.last?.freeKB == Fixture.device.usableKB)
  }

  @Test func pressureLevelsFollowTheThresholds() {
    let device = Fixture.device
    #expect(device.level(freeKB: mb(200)) == .normal)
    #expect(device.level(freeKB: mb(200) - 1) == .warning)
    #expect(device.level(freeKB: mb(100)) == .warning)
    #expect(device.level(freeKB: mb(100) - 1) == .critical)
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
    // At 120 s free is 1000 - 300 - 300 - 280 = 120 MB: warning. a is suspended (since 65 s), b is in
    // its background time.
    #expect(result.warned(atMs: sec(120)) == ["b", "c"])
    #expect(result.warned(atMs: sec(180)).isEmpty)
    #expect(result.summary.metrics.memoryWarnings == 2)
  }

  @Test func aWarningFreesTheAppsShareOfItsCaches() throws {
    let apps = [
      Fixture.app("big", resident: 700),
      Fixture.app("cache", resident: 100, caches: 100) { $0.memoryWarningFreesPercent = 40 },
    ]
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("big")), TimedAction(sec(60), .open("cache"))])
    // 1000 - 700 - 200 = 100 MB free: warning; the app frees 40 % of its 100 MB caches.
    let warning = try #require(
      result.events.first { $0.callback == .didReceiveMemoryWarning && $0.app == 1 })
    #expect(warning.footprintKB == mb(160))
    #expect(warning.freeKB == mb(140))
  }

  @Test func warningsGoOutBeforeKillsAndTheirMemoryCounts() throws {
    // One change crosses both thresholds; the warnings (to both running apps) free enough to avoid
    // any kill.
    let apps = [
      Fixture.app("old", resident: 400),
      Fixture.app("new", resident: 300, caches: 250) { $0.memoryWarningFreesPercent = 100 },
    ]
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("old")), TimedAction(sec(60), .open("new"))])
    #expect(result.warned(atMs: sec(60)) == ["old", "new"])
    #expect(result.kills.isEmpty)
    #expect(result.events.last?.freeKB == mb(300))
  }

  @Test func anAppOverItsLimitIsKilledAtOnceWithNoCallback() throws {
    let app = Fixture.app("leaky", resident: 100) { $0.memoryLimitKB = mb(150) }
    let result = try Fixture.run(
      [app],
      [TimedAction(0, .open("leaky")), TimedAction(sec(1), .allocate("leaky", kilobytes: mb(60)))])
    #expect(result.killTexts == ["leaky per-process-limit"])
    #expect(result.kills.first?.callback == nil)
    #expect(result.kills.first?.state == .active)
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
    #expect(suspend.freeKB == device.usableKB - mb(150))
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

  func free(atMs time: Int) -> Int? { result.events.last { $0.timeMs <= time }?.freeKB }

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
    #expect(result.warned(atMs: sec(120)) == ["b", "c"])
    #expect(result.warned(atMs: sec(180)) == ["c", "d"])
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
    #expect(kill.freeBeforeKB == -204_800)
    #expect(kill.freeAfterKB == 102_400)
    #expect(kill.callback == nil)
    #expect(kill.timeMs == sec(180))
  }
}
