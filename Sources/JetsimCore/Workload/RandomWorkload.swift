/// A seeded stream of random actions over every kind of §8 action, for stress and invariant tests
/// and benchmarks. It is deliberately crude (uniform apps, fixed mix); it is not a model of a user.
///
/// The same seed and parameters give the same steps on every platform.
public struct RandomWorkload: WorkloadSource, Sendable {
  private var random: RandomStream
  private let apps: [AppProfile]
  /// Each app's modes that keep it running, found once: drawing a step allocates nothing.
  private let keepRunningModes: [[BackgroundMode]]
  private let meanGapMs: Int
  private var remaining: Int
  private var time = 0

  /// `count` steps over `apps`, with gaps drawn uniformly from 0 to twice `meanGapMs`.
  public init(seed: UInt64, apps: [AppProfile], count: Int, meanGapMs: Int = 20_000) {
    self.random = RandomStream(seed: seed, source: .workload)
    self.apps = apps
    keepRunningModes = apps.map { $0.backgroundModes.filter(\.keepsRunning) }
    self.meanGapMs = meanGapMs
    self.remaining = apps.isEmpty ? 0 : count
  }

  public mutating func next() -> WorkloadStep? {
    guard remaining > 0 else { return nil }
    remaining -= 1
    time += random.below(2 * meanGapMs + 1)
    let app = random.below(apps.count)
    let roll = random.below(1000)
    var step = WorkloadStep(timeMs: time, kind: .open, app: Int32(app))
    switch roll {
    case 0..<450: break
    case 450..<560: step.kind = .home
    case 560..<600: step.kind = .lock
    case 600..<640: step.kind = .unlock
    case 640..<680:
      step.kind = .interrupt
      step.app = -1
      step.value = 1_000 + random.below(20_000)
    case 680..<790:
      step.kind = .wake
      step.value = 1_000 + random.below(40_000)
    case 790..<850:
      let modes = keepRunningModes[app]
      guard let mode = modes.isEmpty ? nil : modes[random.below(modes.count)] else { break }
      step.kind = random.below(2) == 0 ? .startMode : .stopMode
      step.value = Int(mode.bit)
    case 850..<910:
      step.kind = .allocate
      step.value = 1_024 * (1 + random.below(200))
    case 910..<960:
      step.kind = .free
      step.value = 1_024 * (1 + random.below(200))
    case 960..<995: step.kind = .forceQuit
    default: step.kind = .reboot
    }
    if !step.kind.needsApp { step.app = -1 }
    return step
  }
}
