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

  /// A Poisson process of one app's background activity: `perHour` starts on average, each lasting
  /// `duration`.
  public struct PoissonProcess<Length: Sendable & Equatable>: Sendable, Equatable {
    /// The app concerned.
    public var app: String
    /// The mean number of starts an hour.
    public var perHour: Double
    /// How long each lasts.
    public var duration: Length
    /// A process of `app`, `perHour` starts on average, each lasting `duration`.
    public init(app: String, perHour: Double, duration: Length) {
      self.app = app
      self.perHour = perHour
      self.duration = duration
    }

    /// A copy that shares no string with this one (see `Scenario.unshared`).
    var unshared: Self {
      var copy = self
      copy.app = app.unshared
      return copy
    }
  }

  /// Background wakes of one app, each `duration` milliseconds long.
  public typealias Wakes = PoissonProcess<Int>
  /// Background audio sessions of one app, each lasting a draw of `duration`.
  public typealias AudioSessions = PoissonProcess<Duration>

  /// The apps the user opens, in rank order (popularity rank 1 first).
  public var apps: [String]
  /// How often each app is opened: Zipf over `apps` in order, or explicit weights.
  public var popularity: Popularity
  /// Time spent in an app each time it is opened.
  public var dwell: Duration
  /// Time locked between sessions.
  public var gap: Duration
  /// Shares of switches from one app to the next: through home, through lock (a gap, then unlock,
  /// then the next app), or directly; they add up to 1.
  public var homeShare: Double
  /// The share of uses that end by locking the phone (then a gap, then unlocking).
  public var lockShare: Double
  /// The share of app uses with an interruption (a call, an alert), and how long it lasts.
  public var interruptionShare: Double
  /// How long an interruption lasts.
  public var interruption: Duration
  /// The background wakes: one Poisson process per entry.
  public var wakes: [Wakes]
  /// The audio sessions: one process per entry.
  public var audio: [AudioSessions]
  /// Dirty memory the app in use allocates per minute, in KB.
  public var growthPerMinuteKB: Int

  /// A user model (docs/user-model.md).
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

  /// A copy that shares no strings with this one (see `Scenario.unshared`).
  var unshared: UserModel {
    var copy = self
    copy.apps = apps.map(\.unshared)
    copy.wakes = wakes.map(\.unshared)
    copy.audio = audio.map(\.unshared)
    return copy
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

  /// The actions of `durationMs` of use, seeded by `seed`, in time order, all at once (for a short
  /// run or a test; a run reads them as a `stream`).
  public func actions(durationMs: Int, seed: UInt64) -> [TimedAction] {
    var stream = stream(durationMs: durationMs, seed: seed)
    var actions: [TimedAction] = []
    while let action = stream.next() { actions.append(action) }
    return actions
  }

  /// The actions of `durationMs` of use, seeded by `seed`, drawn one at a time in time order: memory
  /// stays the same however long the run.
  public func stream(durationMs: Int, seed: UInt64) -> UserModelStream {
    UserModelStream(self, durationMs: durationMs, seed: seed)
  }

  /// The mean time between the events of a Poisson process at `perHour`, in milliseconds (at most
  /// jetsim's longest time, so that a tiny rate never overflows).
  static func meanGapMs(perHour: Double) -> Int {
    guard perHour > 0 else { return Units.maxMilliseconds }
    return Int(min(3_600_000 / perHour, Double(Units.maxMilliseconds)))
  }
}

/// A user model's actions, drawn as they are read (`UserModel.stream`).
///
/// Three kinds of sources are merged by time: the user's own timeline (drawn one use of an app at a
/// time, each use's few actions sorted), one Poisson process per `wakes` entry and one per `audio`
/// entry, each with its own random stream. At equal times the user's actions come first, then the
/// wakes and the audio sessions in the order the model lists them.
public struct UserModelStream: Sendable {
  /// One action of the stream, its app a number: an index into `appIDs` (-1: none). Steps hold no
  /// string, so drawing and merging them counts no references.
  struct Step: Sendable {
    var timeMs: Int
    var kind: ActionKind
    var app: Int32
    /// A duration or size, or the mode's bit, by kind (as `WorkloadStep.value`).
    var value: Int
  }

  /// The ids the steps name: the model's apps, then each `wakes` entry's app, then each `audio`
  /// entry's.
  let appIDs: [String]
  /// The scenario's number of each of `appIDs` (-1: an id the scenario lacks), for `nextEntry`;
  /// empty for a stream made without the scenario's apps.
  private let scenarioApps: [Int32]
  private let model: UserModel
  private let durationMs: Int
  private let cumulative: [Double]
  private var user: RandomStream
  private var time = 0
  private var current = -1
  /// The current use's actions, sorted, and the next to hand out.
  private var use: [Step] = []
  private var usePosition = 0
  /// The background processes: the `wakes` entries, then the `audio` entries. Each has its own
  /// random stream, the time of its last draw and its next action; `due` orders the processes that
  /// have one by time, then by number, so choosing the next takes O(log n) however many there are.
  private var streams: [RandomStream]
  private var drawnAt: [Int]
  private var heads: [Step?]
  private var due: IndexedHeap<Due>

  private struct Due: Comparable, Sendable {
    var timeMs: Int
    var process: Int
    static func < (a: Due, b: Due) -> Bool { (a.timeMs, a.process) < (b.timeMs, b.process) }
  }

  /// The stream of `model` over `durationMs`, seeded by `seed`; with `apps` (the scenario's), its
  /// steps for a run come numbered as the scenario numbers its apps (`nextEntry`).
  init(_ model: UserModel, durationMs: Int, seed: UInt64, apps: AppIndex? = nil) {
    self.model = model
    let ids = model.apps + model.wakes.map(\.app) + model.audio.map(\.app)
    appIDs = ids
    scenarioApps = apps.map { index in ids.map { index.index(of: $0).map(Int32.init) ?? -1 } } ?? []
    self.durationMs = durationMs
    cumulative = model.probabilities.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
    user = RandomStream(seed: seed, source: .userModel)
    streams =
      model.wakes.indices.map { RandomStream(seed: seed, stream: Self.wakeStreamBase + UInt64($0)) }
      + model.audio.indices.map {
        RandomStream(seed: seed, stream: Self.audioStreamBase + UInt64($0))
      }
    let processes = model.wakes.count + model.audio.count
    drawnAt = Array(repeating: 0, count: processes)
    heads = Array(repeating: nil, count: processes)
    due = IndexedHeap(capacity: processes)
    use.reserveCapacity(16)
    for process in 0..<processes { advance(process) }
  }

  /// The random streams of the `wakes` and `audio` entries: one each, numbered from these.
  static let wakeStreamBase: UInt64 = 0x1_0000
  static let audioStreamBase: UInt64 = 0x2_0000

  /// The next action in time order, or nil when the duration is over.
  public mutating func next() -> TimedAction? {
    nextStep().map { TimedAction($0.timeMs, action(of: $0)) }
  }

  /// The next action in time order for a run: a step with the scenario's number for its app (the
  /// stream made with the scenario's `apps`), its id looked up once a run instead of once an
  /// action; for an app the scenario lacks, a mode to check, or a stream made without the
  /// scenario's apps, the action, to be compiled as every other source's is.
  mutating func nextEntry() -> StepEntry? {
    guard let step = nextStep() else { return nil }
    let numbered = step.app >= 0 && Int(step.app) < scenarioApps.count
    let app = numbered ? scenarioApps[Int(step.app)] : -1
    if step.kind == .startMode || (step.app >= 0 && app < 0) {
      return .action(TimedAction(step.timeMs, action(of: step)))
    }
    return .step(WorkloadStep(timeMs: step.timeMs, kind: step.kind, app: app, value: step.value))
  }

  /// The action `step` stands for.
  func action(of step: Step) -> Action {
    let id = step.app >= 0 ? appIDs[Int(step.app)] : ""
    switch step.kind {
    case .open: return .open(id)
    case .interrupt: return .interrupt(durationMs: step.value)
    case .allocate: return .allocate(id, kilobytes: step.value)
    case .home: return .home
    case .lock: return .lock
    case .unlock: return .unlock
    case .wake: return .wake(id, durationMs: step.value)
    case .startMode: return .startMode(id, .audio)
    default: return .stopMode(id, .audio)  // the stream draws no other kind
    }
  }

  /// The next action in time order as a step, or nil when the duration is over.
  private mutating func nextStep() -> Step? {
    if usePosition == use.count { drawUse() }
    let user = usePosition < use.count ? use[usePosition] : nil
    // The earliest; at equal times the user first, then wakes, then audio, in model order.
    if let process = due.first, let head = heads[process],
      user.map({ head.timeMs < $0.timeMs }) ?? true
    {
      advance(process)
      return head
    }
    if user != nil { usePosition += 1 }
    return user
  }

  /// Draws the user's next use of an app (its open, interruption, growth, and how it ends), if the
  /// duration is not over.
  private mutating func drawUse() {
    use.removeAll(keepingCapacity: true)
    usePosition = 0
    // A model with no apps (the loader refuses one; a library user may build it) has no uses:
    // only its wakes and audio sessions.
    guard !model.apps.isEmpty else { return }
    // A use may bring nothing (the same app again, switched to directly): draw until one does.
    while use.isEmpty, time < durationMs { drawOneUse() }
  }

  private mutating func drawOneUse() {
    let draw = user.unit()
    let app = cumulative.firstIndex { draw < $0 } ?? model.apps.count - 1
    let number = Int32(app)
    if app != current { use.append(Step(timeMs: time, kind: .open, app: number, value: 0)) }
    current = app
    let dwellMs = model.dwell.draw(&user)
    if user.unit() < model.interruptionShare {
      let at = time + user.below(max(1, dwellMs))
      use.append(
        Step(timeMs: at, kind: .interrupt, app: -1, value: model.interruption.draw(&user)))
    }
    if model.growthPerMinuteKB > 0 {
      var minute = time + 60_000
      while minute < time + dwellMs {
        use.append(
          Step(timeMs: minute, kind: .allocate, app: number, value: model.growthPerMinuteKB))
        minute += 60_000
      }
    }
    time += dwellMs
    let choice = user.unit()
    if choice < model.homeShare {
      use.append(Step(timeMs: time, kind: .home, app: -1, value: 0))
      current = -1
      time += 1_000
    } else if choice < model.homeShare + model.lockShare {
      use.append(Step(timeMs: time, kind: .lock, app: -1, value: 0))
      time += model.gap.draw(&user)
      use.append(Step(timeMs: time, kind: .unlock, app: -1, value: 0))
      time += 1_000
    }
    // One use's actions in time order (an interruption may come after some growth), sorted in
    // place, stably; later uses start after this one's last action.
    for index in use.indices.dropFirst() {
      var position = index
      let action = use[index]
      while position > 0, use[position - 1].timeMs > action.timeMs {
        use[position] = use[position - 1]
        position -= 1
      }
      use[position] = action
    }
    while let last = use.last, last.timeMs >= durationMs { use.removeLast() }
  }

  /// Draws the next action of background process `process`: for a wake entry its next wake; for an
  /// audio entry, after a start its stop, otherwise (and at first) its next start.
  private mutating func advance(_ process: Int) {
    let head: Step?
    // The process's app: its entry's place in `appIDs`.
    let app = Int32(model.apps.count + process)
    if process < model.wakes.count {
      let wake = model.wakes[process]
      head =
        wake.perHour > 0
        ? nextArrival(process, perHour: wake.perHour).map {
          Step(timeMs: $0, kind: .wake, app: app, value: wake.duration)
        } : nil
    } else {
      let session = model.audio[process - model.wakes.count]
      if session.perHour <= 0 {
        head = nil
      } else if let last = heads[process], last.kind == .startMode {
        drawnAt[process] += session.duration.draw(&streams[process])
        head = Step(
          timeMs: min(drawnAt[process], durationMs), kind: .stopMode, app: app,
          value: Int(BackgroundMode.audio.bit))
      } else {
        head = nextArrival(process, perHour: session.perHour).map {
          Step(timeMs: $0, kind: .startMode, app: app, value: Int(BackgroundMode.audio.bit))
        }
      }
    }
    heads[process] = head
    if let head {
      due.set(process, key: Due(timeMs: head.timeMs, process: process))
    } else {
      due.remove(process)
    }
  }

  /// The time of process `process`'s next arrival of a Poisson process at `perHour`, or nil after
  /// the duration.
  private mutating func nextArrival(_ process: Int, perHour: Double) -> Int? {
    drawnAt[process] += UserModel.Duration.exponential(
      meanMs: UserModel.meanGapMs(perHour: perHour)
    ).draw(&streams[process])
    return drawnAt[process] < durationMs ? drawnAt[process] : nil
  }
}
