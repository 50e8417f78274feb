/// A seeded model of one person using the device (docs/user-model.md): sessions of app use separated
/// by time locked, apps chosen by popularity, dwell times and gaps from distributions, switches
/// through home, lock or directly, interruptions, background wakes per app as Poisson processes,
/// background audio sessions, and memory growth while an app is in use.
///
/// Each source of randomness has its own stream derived from the seed (the user's choices, wakes,
/// audio sessions), so adding wakes never changes which apps the user opens.
public struct UserModel: Sendable, Equatable {
  /// A distribution of durations, in milliseconds.
  public enum Duration: Sendable, Equatable {
    /// Exponential with this mean.
    case exponential(meanMs: Int)
    /// Log-normal with this median and shape (σ of the underlying normal).
    case logNormal(medianMs: Int, sigma: Double)
    /// Always this long.
    case fixed(Int)

    /// The mean of the distribution, in milliseconds.
    public var meanMs: Double {
      switch self {
      case .exponential(let mean): Double(mean)
      case .logNormal(let median, let sigma): Double(median) * PortableMath.exp(sigma * sigma / 2)
      case .fixed(let value): Double(value)
      }
    }

    /// One draw, at least 1 ms.
    func draw(_ random: inout RandomStream) -> Int {
      let value: Double
      switch self {
      case .exponential(let mean): value = -Double(mean) * PortableMath.log(1 - random.unit())
      case .logNormal(let median, let sigma):
        value = Double(median) * PortableMath.exp(sigma * random.normal())
      case .fixed(let fixed): value = Double(fixed)
      }
      return max(1, Int(min(value, Double(Units.maxMilliseconds)).rounded()))
    }
  }

  /// How apps are chosen.
  public enum Popularity: Sendable, Equatable {
    /// Zipf: the app at rank r (in the order of `apps`) is chosen with probability ∝ 1 / r^s.
    case zipf(exponent: Double)
    /// Explicit weights, one per app of `apps`.
    case weights([Double])
  }

  /// A Poisson process of background wakes of one app.
  public struct Wakes: Sendable, Equatable {
    public var app: String
    public var perHour: Double
    public var durationMs: Int
    public init(app: String, perHour: Double, durationMs: Int) {
      self.app = app
      self.perHour = perHour
      self.durationMs = durationMs
    }
  }

  /// Background audio sessions of one app: start as a Poisson process, last a drawn duration.
  public struct AudioSessions: Sendable, Equatable {
    public var app: String
    public var perHour: Double
    public var duration: Duration
    public init(app: String, perHour: Double, duration: Duration) {
      self.app = app
      self.perHour = perHour
      self.duration = duration
    }
  }

  /// The apps the user opens, in rank order (popularity rank 1 first).
  public var apps: [String]
  public var popularity: Popularity
  /// Time spent in an app each time it is opened.
  public var dwell: Duration
  /// Time locked between sessions.
  public var gap: Duration
  /// Shares of switches from one app to the next: through home, through lock (a gap, then unlock,
  /// then the next app), or directly; they add up to 1.
  public var homeShare: Double
  public var lockShare: Double
  /// The share of app uses with an interruption (a call, an alert), and how long it lasts.
  public var interruptionShare: Double
  public var interruption: Duration
  public var wakes: [Wakes]
  public var audio: [AudioSessions]
  /// Dirty memory the app in use allocates per minute, in KB.
  public var growthPerMinuteKB: Int

  public init(
    apps: [String], popularity: Popularity = .zipf(exponent: 1),
    dwell: Duration = .exponential(meanMs: 120_000),
    gap: Duration = .exponential(meanMs: 900_000), homeShare: Double = 0.5,
    lockShare: Double = 0.25,
    interruptionShare: Double = 0.05, interruption: Duration = .exponential(meanMs: 60_000),
    wakes: [Wakes] = [],
    audio: [AudioSessions] = [], growthPerMinuteKB: Int = 0
  ) {
    self.apps = apps
    self.popularity = popularity
    self.dwell = dwell
    self.gap = gap
    self.homeShare = homeShare
    self.lockShare = lockShare
    self.interruptionShare = interruptionShare
    self.interruption = interruption
    self.wakes = wakes
    self.audio = audio
    self.growthPerMinuteKB = growthPerMinuteKB
  }

  /// The probability of choosing each app of `apps`.
  public var probabilities: [Double] {
    let raw: [Double]
    switch popularity {
    case .zipf(let exponent):
      raw = apps.indices.map { 1 / PortableMath.pow(Double($0 + 1), exponent) }
    case .weights(let weights): raw = weights
    }
    let total = raw.reduce(0, +)
    return raw.map { $0 / total }
  }

  /// The actions of `durationMs` of use, seeded by `seed`, in time order.
  public func actions(durationMs: Int, seed: UInt64) -> [TimedAction] {
    var user = RandomStream(seed: seed, source: .userModel)
    var timeline: [TimedAction] = []
    let cumulative = probabilities.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
    func pick() -> String {
      let draw = user.unit()
      return apps[cumulative.firstIndex { draw < $0 } ?? apps.count - 1]
    }
    var time = 0
    var current: String?
    while time < durationMs {
      let app = pick()
      if app != current { timeline.append(TimedAction(time, .open(app))) }
      current = app
      let dwellMs = dwell.draw(&user)
      if user.unit() < interruptionShare {
        let at = time + user.below(max(1, dwellMs))
        timeline.append(TimedAction(at, .interrupt(durationMs: interruption.draw(&user))))
      }
      if growthPerMinuteKB > 0 {
        var minute = time + 60_000
        while minute < time + dwellMs {
          timeline.append(TimedAction(minute, .allocate(app, kilobytes: growthPerMinuteKB)))
          minute += 60_000
        }
      }
      time += dwellMs
      let choice = user.unit()
      if choice < homeShare {
        timeline.append(TimedAction(time, .home))
        current = nil
        time += 1_000
      } else if choice < homeShare + lockShare {
        timeline.append(TimedAction(time, .lock))
        time += gap.draw(&user)
        timeline.append(TimedAction(time, .unlock))
        time += 1_000
      }
    }
    var background: [TimedAction] = []
    var wakeStream = RandomStream(seed: seed, source: .backgroundWakes)
    for wake in wakes where wake.perHour > 0 {
      var at = 0
      while true {
        at += Duration.exponential(meanMs: Int(3_600_000 / wake.perHour)).draw(&wakeStream)
        guard at < durationMs else { break }
        background.append(TimedAction(at, .wake(wake.app, durationMs: wake.durationMs)))
      }
    }
    var audioStream = RandomStream(seed: seed, stream: 5)
    for session in audio where session.perHour > 0 {
      var at = 0
      while true {
        at += Duration.exponential(meanMs: Int(3_600_000 / session.perHour)).draw(&audioStream)
        guard at < durationMs else { break }
        background.append(TimedAction(at, .startMode(session.app, .audio)))
        at += session.duration.draw(&audioStream)
        background.append(TimedAction(min(at, durationMs), .stopMode(session.app, .audio)))
      }
    }
    // The user's actions first at equal times; every stream's own order kept.
    return (timeline.filter { $0.timeMs < durationMs } + background).stableSorted {
      $0.timeMs < $1.timeMs
    }
  }
}
