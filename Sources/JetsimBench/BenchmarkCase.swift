import Dispatch
import Jetsim

/// One benchmark case: a seeded device, apps and workload, run with or without full reports.
struct BenchmarkCase: Sendable {
  var name: String
  var apps: Int
  var events: Int
  var policy: PolicyName
  var reports: Bool

  /// Every case of docs/performance.md, in order.
  static func all(scale: Int) -> [BenchmarkCase] {
    var cases: [BenchmarkCase] = []
    for (apps, events) in [(10, 1_000_000), (60, 10_000_000), (10_000, 1_000_000)] {
      for reports in [false, true] {
        cases.append(
          BenchmarkCase(
            name: "\(reports ? "reports" : "engine")-\(apps)apps", apps: apps,
            events: events / scale,
            policy: .largestFirst, reports: reports))
      }
    }
    for policy in PolicyName.all {
      cases.append(
        BenchmarkCase(
          name: "policy-\(policy)", apps: 60, events: 10_000_000 / scale, policy: policy,
          reports: false))
    }
    return cases
  }

  /// The device and apps: sizes drawn from a fixed seed, memory for about a fifth of the apps.
  func scenario() -> Scenario {
    var random = RandomStream(seed: 2026, stream: UInt64(apps))
    var profiles: [AppProfile] = []
    profiles.reserveCapacity(apps)
    var total = 0
    for index in 0..<apps {
      let resident = 1024 * (20 + random.below(300))
      var profile = AppProfile(
        id: "app\(index)", residentKB: resident, cachesKB: 1024 * random.below(150),
        backingStoresKB: 1024 * (10 + random.below(60)),
        launchPeakKB: random.below(4) == 0 ? 1024 * random.below(100) : 0,
        memoryWarningFreesPercent: random.below(60), backgroundWorkMs: 1_000 + random.below(5_000),
        coldLaunchMs: 500 + random.below(2_000))
      switch random.below(10) {
      case 0: profile.backgroundModes = [.audio]
      case 1: profile.backgroundModes = [.location]
      case 2: profile.backgroundTaskMs = 5_000 + random.below(20_000)
      case 3: profile.growthPerMinuteKB = 1024 * (1 + random.below(20))
      default: break
      }
      total += profile.residentKB + profile.cachesKB + profile.backingStoresKB
      profiles.append(profile)
    }
    let memory = max(1_048_576, total / 5)
    let device = DeviceProfile(
      name: "bench device", memoryKB: memory, reservedKB: memory / 5, foregroundLimitKB: memory / 2)
    return Scenario(
      name: name, device: device, apps: profiles, actions: [], policy: policy, seed: 1)
  }

  /// Workload steps that produce about `events` events: a pilot run measures events per step.
  func steps(for scenario: Scenario) throws -> Int {
    let pilotSteps = 20_000
    var workload = RandomWorkload(seed: 1, apps: scenario.apps, count: pilotSteps)
    var quiet = DiscardingObserver()
    let pilot = try Simulator.run(
      scenario, policy: scenario.makePolicy(), workload: &workload, observer: &quiet)
    return max(1, events * pilotSteps / max(1, pilot.metrics.events))
  }
}

/// What one case measured.
struct Measurement: Sendable {
  var events: Int
  var kills: Int
  var seconds: Double
  /// The CPU time of the run, user and system, over every thread of the process: the figure that
  /// holds on a busy machine, where wall time depends on what else runs.
  var cpuSeconds: Double
  var peakMemoryKB: Int

  var eventsPerSecond: Double { Double(events) / seconds }
  /// Events per second of CPU time.
  var eventsPerCPUSecond: Double { Double(events) / cpuSeconds }
  var killsPerSecond: Double { Double(kills) / seconds }
}

extension BenchmarkCase {
  /// Runs the case in this process and measures it (wall time of the run alone).
  func measure() throws -> Measurement {
    let scenario = scenario()
    let steps = try steps(for: scenario)
    var workload = RandomWorkload(seed: 1, apps: scenario.apps, count: steps)
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = processCPUSeconds()
    let summary: RunSummary
    if reports {
      let folder =
        temporaryPath("jetsim-bench")
      defer { try? FileSystem.removeTree(folder) }
      var writer = try ReportWriter(folder: ReportFolder(destination: folder), scenario: scenario)
      summary = try Simulator.run(
        scenario, policy: scenario.makePolicy(), workload: &workload, observer: &writer)
      try writer.finish(summary)
    } else {
      var quiet = DiscardingObserver()
      summary = try Simulator.run(
        scenario, policy: scenario.makePolicy(), workload: &workload, observer: &quiet)
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return Measurement(
      events: summary.metrics.events, kills: summary.metrics.totalKills, seconds: seconds,
      cpuSeconds: processCPUSeconds() - cpuStart, peakMemoryKB: peakMemoryKB())
  }
}
