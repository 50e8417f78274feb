import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

/// docs/model.md §6: the default policy.
@Suite struct LargestFirstTests {
  /// Opens each app in turn, goes home so that all of them are suspended, then opens `big`.
  func squeeze(_ sizes: [(String, Int)], then big: Int) throws -> RunResult {
    var apps = sizes.map { Fixture.app($0.0, resident: $0.1) }
    apps.append(Fixture.app("big", resident: big))
    var actions: [TimedAction] = []
    for (index, app) in sizes.enumerated() {
      actions.append(TimedAction(sec(60 * index), .open(app.0)))
    }
    actions.append(TimedAction(sec(60 * sizes.count), .home))
    actions.append(TimedAction(sec(60 * sizes.count + 60), .open("big")))
    return try Fixture.run(apps, actions)
  }

  @Test func suspendedAppsDieLargestFirstWithNoCallback() throws {
    let result = try squeeze([("s1", 100), ("s2", 300), ("s3", 200)], then: 650)
    // Before: 600 MB used by suspended apps, 400 MB free. big's 650 MB would leave -250 MB, so kill
    // s2 (300): 50 MB would be left, below critical; then s3 (200): 250 MB. Then big lands.
    #expect(result.killTexts == ["s2 vm-pageshortage", "s3 vm-pageshortage"])
    #expect(result.kills.map(\.rank) == [1, 2])
    #expect(result.kills.allSatisfy { $0.callback == nil && $0.state == .suspended })
    #expect(result.kills.allSatisfy { $0.pendingKB == mb(650) })
    #expect(result.kills.last?.availableAfterKB == mb(900))
    #expect(result.events.last?.availableKB == mb(250))
  }

  @Test func tiesGoToTheLeastRecentlyUsedThenTheAppId() throws {
    let byRecency = try squeeze([("x", 200), ("y", 200)], then: 750)
    #expect(byRecency.killTexts.first == "x vm-pageshortage")  // x left the screen first
    let apps = [
      Fixture.app("m", resident: 200), Fixture.app("k", resident: 200),
      Fixture.app("big", resident: 750),
    ]
    // Both woken into the background at the same instant, then suspended together.
    let sameTime = try Fixture.run(
      apps,
      [
        TimedAction(0, .wake("m", durationMs: sec(5))),
        TimedAction(0, .wake("k", durationMs: sec(5))),
        TimedAction(sec(60), .open("big")),
      ])
    #expect(sameTime.killTexts.first == "k vm-pageshortage")
  }

  @Test func backgroundAppsGoAfterSuspendedOnesWithWillTerminate() throws {
    let apps = [
      Fixture.app("music", resident: 300) { $0.backgroundModes = [.audio] },
      Fixture.app("small", resident: 100),
      Fixture.app("big", resident: 650),
    ]
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("music")), TimedAction(sec(1), .startMode("music", .audio)),
        TimedAction(sec(60), .open("small")), TimedAction(sec(120), .home),
        TimedAction(sec(180), .open("big")),
      ])
    // Free: 1000 - 300 - 100 - 650 = -50 MB. small is suspended, music plays in the background.
    #expect(result.killTexts == ["small vm-pageshortage", "music vm-pageshortage"])
    #expect(result.kills.map(\.callback) == [nil, .willTerminate])
    #expect(result.kills.map(\.state) == [.suspended, .background])
  }

  @Test func theForegroundAppIsKilledLastWhenSomethingElseChanges() throws {
    // a (suspended) dies for huge's launch, which then fits at 50 MB free, below critical: huge is
    // spared for its own allocation (a shortfall). When memory next changes (a allocates nothing;
    // the background app b's growth arrives), nothing is left but the foreground app: it dies.
    let apps = [
      Fixture.app("a", resident: 100), Fixture.app("huge", resident: 950),
      Fixture.app("b", resident: 10) { $0.backgroundModes = [.audio] },
    ]
    let result = try Fixture.run(
      apps,
      [
        TimedAction(0, .open("a")), TimedAction(sec(60), .open("huge")),
        TimedAction(sec(70), .startMode("b", .audio)),
      ], device: Fixture.device)
    #expect(result.killTexts.prefix(1) == ["a vm-pageshortage"])
    #expect(result.summary.metrics.shortfalls >= 1)
    #expect(
      result.kills.contains { result.summary.appIDs[$0.app] == "huge" && $0.state == .active })

    var squeezed = Fixture.device
    squeezed.reservedKB = mb(1150)  // 50 MB usable: below critical with nothing running
    let empty = try Fixture.run(
      [Fixture.app("a", resident: 10)], [TimedAction(0, .open("a"))], device: squeezed)
    #expect(empty.summary.metrics.shortfalls == 1)
    #expect(empty.events.contains { $0.kind == .shortfall })
  }

  @Test func noKillWhileFreeIsAtOrAboveCritical() throws {
    let apps = [Fixture.app("a", resident: 400), Fixture.app("b", resident: 500)]
    let result = try Fixture.run(
      apps, [TimedAction(0, .open("a")), TimedAction(sec(60), .open("b"))])
    #expect(result.events.last?.availableKB == mb(100))
    #expect(result.kills.isEmpty)
  }

  @Test func aPolicyThatPicksAnAppNotInMemoryFailsTheRun() {
    struct Broken: EvictionPolicy {
      let name = "broken"
      func nextEviction(_ device: DeviceView) -> Eviction? {
        device.isBelowCritical ? Eviction(app: 0) : nil
      }
    }
    let apps = [Fixture.app("idle", resident: 10), Fixture.app("huge", resident: 950)]
    #expect(
      throws: JetsimError.invalidEviction(
        policy: "broken", app: "idle", problem: "it is not running")
    ) {
      try Fixture.run(apps, [TimedAction(0, .open("huge"))], policy: Broken())
    }
  }
}
