import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// One test per row of the table in docs/model.md §2.
@Suite struct LifecycleTests {
  let apps = [
    Fixture.app("maps", resident: 100, caches: 20, backing: 10) {
      $0.backgroundModes = [.location, .fetch]
    },
    Fixture.app("notes", resident: 50, caches: 10, backing: 10),
    Fixture.app("bank", resident: 60, caches: 10, backing: 10) { $0.exitsOnSuspend = true },
  ]

  @Test func coldLaunch() throws {
    let result = try Fixture.run(apps, [TimedAction(0, .open("notes"))])
    #expect(
      result.trail("notes") == [
        "launch notRunning>inactive willFinishLaunching",
        "finish-launching inactive>inactive didFinishLaunching",
        "become-active inactive>active didBecomeActive",
      ])
    #expect(result.summary.metrics.coldLaunches == 1)
  }

  @Test func backgroundLaunchThenSuspendWhenTheWorkEnds() throws {
    let result = try Fixture.run(apps, [TimedAction(0, .wake("maps", durationMs: sec(10)))])
    #expect(
      result.trail("maps") == [
        "launch notRunning>background willFinishLaunching",
        "finish-launching background>background didFinishLaunching",
        "suspend background>suspended",
      ])
    #expect(result.events.last?.timeMs == sec(10))
    #expect(result.summary.metrics.opens == 0)
  }

  @Test func leavingTheForegroundGoesThroughInactiveAndBackgroundToSuspended() throws {
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("notes")), TimedAction(sec(10), .home)])
    #expect(
      result.trail("notes", atMs: sec(10)) == [
        "resign-active active>inactive willResignActive",
        "enter-background inactive>background didEnterBackground",
        "purge background>background",
      ])
    #expect(result.trail("notes", atMs: sec(15)) == ["suspend background>suspended"])
  }

  @Test func warmResumeFromSuspended() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(10), .home),
        TimedAction(sec(60), .open("notes")),
      ])
    #expect(
      result.trail("notes", atMs: sec(60)) == [
        "resume suspended>background",
        "enter-foreground background>inactive willEnterForeground",
        "become-active inactive>active didBecomeActive",
      ])
    #expect(result.summary.metrics.warmResumes == 1)
    #expect(result.summary.metrics.warmResumeRatio == 1)
  }

  @Test func resumeOfAnAppStillRunningInTheBackground() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(10), .home),
        TimedAction(sec(12), .open("notes")),
      ])
    #expect(
      result.trail("notes", atMs: sec(12)) == [
        "enter-foreground background>inactive willEnterForeground",
        "become-active inactive>active didBecomeActive",
      ])
    // The suspension scheduled when it left is void: it stays active.
    #expect(result.state("notes") == .active)
  }

  @Test func anInterruptionMakesTheAppInactiveUntilItEnds() throws {
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("notes")), TimedAction(sec(5), .interrupt(durationMs: sec(20)))])
    #expect(
      result.trail("notes", atMs: sec(5)) == ["resign-active active>inactive willResignActive"])
    #expect(
      result.trail("notes", atMs: sec(25)) == ["become-active inactive>active didBecomeActive"])
  }

  @Test func lockSendsTheAppToTheBackgroundAndUnlockBringsItBack() throws {
    let result = try Fixture.run(
      apps,
      [TimedAction(0, .open("notes")), TimedAction(sec(5), .lock), TimedAction(sec(60), .unlock)])
    #expect(
      result.trail("notes", atMs: sec(5)).first == "resign-active active>inactive willResignActive")
    #expect(result.state("notes", atMs: sec(30)) == .suspended)
    #expect(
      result.trail("notes", atMs: sec(60)).last == "become-active inactive>active didBecomeActive")
    #expect(result.summary.metrics.warmResumes == 1)
  }

  @Test func lockDuringAnInterruptionSkipsTheSecondResign() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(5), .interrupt(durationMs: sec(20))),
        TimedAction(sec(6), .lock),
      ])
    #expect(
      result.trail("notes", atMs: sec(6)).first
        == "enter-background inactive>background didEnterBackground")
    // The interruption's end finds the app gone from the screen and does nothing.
    #expect(result.trail("notes", atMs: sec(25)).isEmpty)
  }

  @Test func anAppThatExitsOnSuspendTerminatesWhenItLeaves() throws {
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("bank")), TimedAction(sec(10), .home)])
    #expect(
      result.trail("bank", atMs: sec(10)) == [
        "resign-active active>inactive willResignActive",
        "enter-background inactive>background didEnterBackground",
        "purge background>background",
        "kill background>notRunning willTerminate (exit-on-suspend)",
      ])
    #expect(result.killTexts == ["bank exit-on-suspend"])
  }

  @Test func theSystemTerminatesABackgroundAppWithWillTerminate() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(10), .home),
        TimedAction(sec(11), .forceQuit("notes")),
      ])
    #expect(
      result.trail("notes", atMs: sec(11)) == [
        "kill background>notRunning willTerminate (user-force-quit)"
      ])
    #expect(result.kills.first?.callback == .willTerminate)
  }

  @Test func aSuspendedAppIsKilledWithNoCallback() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(10), .home),
        TimedAction(sec(60), .forceQuit("notes")),
      ])
    #expect(result.trail("notes", atMs: sec(60)) == ["kill suspended>notRunning (user-force-quit)"])
    #expect(result.kills.first?.callback == nil)
  }

  @Test func rebootStopsEveryAppWithNoCallbacks() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(10), .open("maps")),
        TimedAction(sec(12), .wake("bank", durationMs: sec(20))), TimedAction(sec(13), .reboot),
      ])
    let rows = result.events.filter { $0.timeMs == sec(13) && $0.kind == .kill }
    #expect(rows.count == 3)
    #expect(rows.allSatisfy { $0.callback == nil && $0.reason == .reboot && $0.to == .notRunning })
    #expect(Set(rows.map(\.from)) == [.background, .active])
  }

  @Test func onlyOneAppIsInTheForegroundAtATime() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(1), .open("maps")),
        TimedAction(sec(2), .open("notes")),
      ])
    // The app leaving reaches the background before the next one starts.
    let atOne = result.events.filter { $0.timeMs == sec(1) }.map {
      "\(result.summary.appIDs[$0.app]) \($0.kind)"
    }
    #expect(
      atOne.prefix(4) == [
        "notes resign-active", "notes enter-background", "notes purge", "maps launch",
      ])
  }

  @Test func openingTheAppOnScreenDoesNothing() throws {
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("notes")), TimedAction(sec(1), .open("notes"))])
    #expect(result.trail("notes").count == 3)
    #expect(result.summary.metrics.opens == 1)
  }

  @Test func everyTransitionInTheTableIsLegalAndNothingElseIs() {
    let legal: Set<String> = [
      "notRunning>inactive", "notRunning>background", "inactive>active", "inactive>background",
      "active>inactive", "background>inactive", "background>suspended", "background>notRunning",
      "suspended>background", "suspended>notRunning", "active>notRunning", "inactive>notRunning",
    ]
    for from in AppState.allCases {
      for to in AppState.allCases where from != to {
        #expect(from.canMove(to: to) == legal.contains("\(from)>\(to)"), "\(from)>\(to)")
      }
    }
  }
}

/// docs/model.md §4: background time, the watchdog, background tasks and background modes.
@Suite struct BackgroundTimeTests {
  @Test func didEnterBackgroundTakingTooLongIsAWatchdogKill() throws {
    let slow = Fixture.app("slow", resident: 50, work: sec(8))
    let result = try Fixture.run(
      [slow], [TimedAction(0, .open("slow")), TimedAction(sec(10), .home)])
    #expect(result.trail("slow", atMs: sec(15)) == ["kill background>notRunning (watchdog)"])
    #expect(result.kills.first?.callback == nil)
  }

  @Test func aBackgroundTaskWithinTheLimitEndsInSuspension() throws {
    let uploader = Fixture.app("up", resident: 50, work: sec(1)) { $0.backgroundTaskMs = sec(20) }
    let result = try Fixture.run(
      [uploader], [TimedAction(0, .open("up")), TimedAction(sec(10), .home)])
    #expect(result.trail("up", atMs: sec(31)) == ["suspend background>suspended"])
    #expect(result.kills.isEmpty)
  }

  @Test func aBackgroundTaskPastTheLimitIsKilledAtExpiry() throws {
    let uploader = Fixture.app("up", resident: 50, work: sec(1)) { $0.backgroundTaskMs = sec(45) }
    let result = try Fixture.run(
      [uploader], [TimedAction(0, .open("up")), TimedAction(sec(10), .home)])
    #expect(
      result.trail("up", atMs: sec(41)) == ["kill background>notRunning (background-task-expired)"])
  }

  @Test func aWakePastTheLimitIsKilledAtTheLimit() throws {
    let app = Fixture.app("fetcher", resident: 50)
    let result = try Fixture.run([app], [TimedAction(0, .wake("fetcher", durationMs: sec(90)))])
    #expect(result.killTexts == ["fetcher background-task-expired"])
    #expect(result.kills.first?.timeMs == sec(30))
  }

  @Test func aBackgroundModeKeepsTheAppRunningUntilItStops() throws {
    let music = Fixture.app("music", resident: 80) { $0.backgroundModes = [.audio] }
    let result = try Fixture.run(
      [music],
      [
        TimedAction(0, .open("music")), TimedAction(sec(1), .startMode("music", .audio)),
        TimedAction(sec(10), .home), TimedAction(sec(300), .stopMode("music", .audio)),
      ])
    #expect(result.state("music", atMs: sec(299)) == .background)
    #expect(
      result.trail("music", atMs: sec(300)) == [
        "mode-stop background>background", "suspend background>suspended",
      ])
  }

  @Test func stoppingAModeDuringBackgroundWorkWaitsForTheWork() throws {
    let music = Fixture.app("music", resident: 80, work: sec(5)) { $0.backgroundModes = [.audio] }
    let result = try Fixture.run(
      [music],
      [
        TimedAction(0, .open("music")), TimedAction(sec(1), .startMode("music", .audio)),
        TimedAction(sec(10), .home), TimedAction(sec(12), .stopMode("music", .audio)),
      ])
    #expect(result.trail("music", atMs: sec(12)) == ["mode-stop background>background"])
    #expect(result.trail("music", atMs: sec(15)) == ["suspend background>suspended"])
  }

  @Test func startingAModeLaunchesAnAppThatIsNotRunningIntoTheBackground() throws {
    let maps = Fixture.app("maps", resident: 80) { $0.backgroundModes = [.location] }
    let result = try Fixture.run([maps], [TimedAction(0, .startMode("maps", .location))])
    #expect(result.trail("maps").first == "launch notRunning>background willFinishLaunching")
    #expect(result.state("maps") == .background)
  }
}

/// docs/reports.md: a cold launch counts against `pressure_warm_resume_ratio` only when the app's
/// last life ended in a memory-pressure kill.
@Suite struct PressureMetricTests {
  let apps = [
    Fixture.app("maps", resident: 100, caches: 20, backing: 10) { $0.backgroundModes = [.fetch] },
    Fixture.app("notes", resident: 50, caches: 10, backing: 10),
    Fixture.app("bank", resident: 60, caches: 10, backing: 10) { $0.exitsOnSuspend = true },
  ]

  @Test func anExitOnSuspendIsNotAWarmResumeLostToPressure() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("bank")), TimedAction(sec(10), .home),
        TimedAction(sec(60), .open("bank")),
      ])
    let metrics = result.summary.metrics
    #expect(metrics.kills(.exitOnSuspend) == 1)
    #expect(metrics.warmResumeRatio == 0, "the reopening was cold")
    #expect(metrics.pressureColdLaunches == 0)
    #expect(metrics.pressureKills == 0)
    #expect(metrics.pressureWarmResumeRatio == nil, "no reopening memory could have kept warm")
  }

  @Test func aColdLaunchAfterAPressureKillIsOne() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("notes")), TimedAction(sec(10), .open("maps")),
        TimedAction(sec(20), .allocate("maps", kilobytes: mb(750))),
        TimedAction(sec(30), .free("maps", kilobytes: mb(750))),
        TimedAction(sec(40), .open("notes")),
      ])
    let metrics = result.summary.metrics
    let victims = result.killOrder.map(\.app)
    #expect(victims == ["notes"])
    #expect(metrics.kills(.vmPageshortage) == 1)
    #expect(metrics.pressureKills == 1)
    #expect(metrics.pressureColdLaunches == 1)
    #expect(metrics.pressureWarmResumeRatio == 0)
  }

  /// A launch in the background between the kill and the open makes the open warm: nothing lost.
  @Test func aBackgroundLaunchSinceTheKillClearsIt() throws {
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("maps")), TimedAction(sec(10), .open("notes")),
        TimedAction(sec(20), .allocate("notes", kilobytes: mb(780))),
        TimedAction(sec(30), .free("notes", kilobytes: mb(780))),
        TimedAction(sec(40), .wake("maps", durationMs: sec(10))),
        TimedAction(sec(45), .open("maps")),
      ])
    let metrics = result.summary.metrics
    let victims = result.killOrder.map(\.app)
    #expect(victims == ["maps"])
    #expect(metrics.pressureColdLaunches == 0)
    #expect(metrics.warmResumes == 1)
  }
}
