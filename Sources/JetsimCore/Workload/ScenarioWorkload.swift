/// A scenario's workload as a simulation reads it: the script, the trace and the user model merged
/// by time (at equal times the script first, then the trace, then the user model), each action
/// checked and compiled to a step as it is read. Memory stays the same however long the trace or the
/// run: nothing is read ahead but one action of each source.
///
/// A problem found on the way (an unknown app, a mode the app does not declare, a trace line that
/// cannot be read) ends the workload: `next` returns nil and `failure` says why.
public struct ScenarioWorkload: WorkloadSource {
  /// Why the workload ended early, if it did; `failed` mirrors it, so that `next` tests a flag
  /// (comparing the optional error with nil copied it: 160 instructions a step).
  public private(set) var failure: JetsimError? { didSet { failed = failure != nil } }
  private var failed = false
  /// The steps read so far.
  public private(set) var count = 0
  /// Where the last step came from: 0 the script, 1 the trace, 2 the user model.
  private(set) var lastSource = 0

  private let apps: [AppProfile]
  /// The apps' indices by id, for the trace's lines and every other source's actions.
  private let appIndex: AppIndex
  /// The system processes, and their indices (after the apps') by name, for the priority actions.
  private let systemProcesses: [SystemProcess]
  private let systemIndices: [String: Int32]
  private let origin: String
  private let script: [TimedAction]
  private let scriptOrigins: [(path: String, location: String)]
  private var scriptPosition = 0
  /// The trace, read either as actions or, when it can compile its own lines (a trace file), as
  /// steps.
  private var trace: (any ActionCursor)?
  private var stepTrace: (any StepCursor)?
  /// Whether the trace is read as steps (`stepTrace` is set).
  private var readsSteps = false

  /// The SHA-256 of the trace file, once the workload has read it to the end with hashing (as the
  /// trace cursor computed it while reading); nil before, or without such a trace.
  public var traceDigest: String? { stepTrace?.digest ?? trace?.digest }
  private var traceHead: StepEntry?
  private var model: UserModelStream?
  private var modelHead: StepEntry?

  init(_ scenario: Scenario) throws(JetsimError) {
    systemIndices = try Self.systemIndices(scenario)
    appIndex = AppIndex(scenario.apps.map(\.id))
    systemProcesses = scenario.device.systemProcesses
    apps = scenario.apps
    origin = scenario.origin
    script = scenario.actions
    scriptOrigins = scenario.actionOrigins
    for position in script.indices.dropFirst()
    where script[position].timeMs < script[position - 1].timeMs {
      let (path, place) = Self.scriptLocation(position, scriptOrigins, origin)
      throw .invalidValue(
        path: path, keyPath: place,
        value:
          "at \(script[position].timeMs)ms, before the previous action (\(script[position - 1].timeMs)ms)",
        expected: "actions in time order")
    }
    if let feed = scenario.trace {
      let cursor = try feed.open()
      if var steps = cursor as? any StepCursor {
        traceHead = try steps.nextEntry(apps: appIndex)
        stepTrace = steps
        readsSteps = true
      } else {
        var cursor = cursor
        traceHead = try cursor.next().map(StepEntry.action)
        trace = cursor
      }
    }
    if let userModel = scenario.userModel {
      guard let durationMs = scenario.durationMs else {
        throw .invalidValue(
          path: origin, keyPath: "duration", value: "missing",
          expected: "a duration for the user model")
      }
      var stream = UserModelStream(
        userModel, durationMs: durationMs, seed: scenario.seed, apps: appIndex)
      modelHead = stream.nextEntry()
      model = stream
    }
  }

  /// The system processes' indices by name (after the apps'), once every app and system process
  /// is found to have a name of its own; the error for one that does not names both places.
  private static func systemIndices(_ scenario: Scenario) throws(JetsimError) -> [String: Int32] {
    var indices: [String: Int32] = [:]
    for (index, app) in scenario.apps.enumerated() {
      if let first = indices.updateValue(Int32(index), forKey: app.id) {
        throw .duplicateApp(
          path: scenario.origin, id: app.id, places: ["apps[\(first)]", "apps[\(index)]"])
      }
    }
    var systemIndices: [String: Int32] = [:]
    let appCount = Int32(scenario.apps.count)
    for (index, process) in scenario.device.systemProcesses.enumerated() {
      if let first = indices[process.name]
        ?? systemIndices.updateValue(appCount + Int32(index), forKey: process.name)
      {
        let firstPlace =
          first < appCount ? "apps[\(first)]" : "the device's systemProcesses[\(first - appCount)]"
        throw .duplicateApp(
          path: scenario.origin, id: process.name,
          places: [firstPlace, "the device's systemProcesses[\(index)]"])
      }
    }
    return systemIndices
  }

  static func scriptLocation(
    _ position: Int, _ origins: [(path: String, location: String)], _ origin: String
  ) -> (path: String, location: String) {
    position < origins.count ? origins[position] : (origin, "actions[\(position)]")
  }

  public mutating func next() -> WorkloadStep? {
    guard !failed else { return nil }
    // A long trace's steps, once the script is played and with no user model: the trace's head is
    // the earliest, compiled already.
    if modelHead == nil, scriptPosition == script.count, case .step(let step)? = traceHead {
      readTrace()
      count += 1
      lastSource = 1
      return step
    }
    let entry: StepEntry
    let source: Int
    let scriptHead = scriptPosition < script.count ? script[scriptPosition] : nil
    // The earliest head; at equal times the script, then the trace, then the user model.
    if let head = scriptHead, traceHead.map({ head.timeMs <= $0.timeMs }) ?? true,
      modelHead.map({ head.timeMs <= $0.timeMs }) ?? true
    {
      (entry, source) = (.action(head), 0)
      scriptPosition += 1
    } else if let head = traceHead, modelHead.map({ head.timeMs <= $0.timeMs }) ?? true {
      (entry, source) = (head, 1)
    } else if let head = modelHead {
      (entry, source) = (head, 2)
      modelHead = model?.nextEntry()
    } else {
      return nil
    }
    let step: WorkloadStep
    switch entry {
    case .step(let compiled): step = compiled
    case .action(let action):
      guard let compiled = compile(action, source: source) else { return nil }
      step = compiled
    }
    // The trace's location is needed for an error about this action: read on only now.
    if source == 1 { readTrace() }
    count += 1
    lastSource = source
    return step
  }

  /// Reads the trace's next entry into `traceHead`; a line that cannot be read ends the workload.
  private mutating func readTrace() {
    do {
      // Not `stepTrace != nil`: that compares a copy of the existential (its box retained and
      // released), which cost 225 instructions a line, a sixth of reading it.
      if readsSteps {
        let apps = appIndex
        traceHead = try stepTrace?.nextEntry(apps: apps)
      } else {
        traceHead = try trace?.next().map(StepEntry.action)
      }
    } catch {
      failure = error
      traceHead = nil
    }
  }

  /// Reads the rest of the workload without playing it, counting it with `pending` (the step the
  /// run read last and did not play): the actions after the run's end. A line after the end that
  /// cannot be read still ends the workload with its `failure`.
  ///
  /// - Complexity: O(*n*) for the *n* actions left.
  mutating func unplayed(after pending: WorkloadStep?) -> UnplayedActions {
    var left = UnplayedActions()
    guard let pending else { return left }
    left.add(pending, source: lastSource)
    while let step = next() { left.add(step, source: lastSource) }
    return left
  }

  /// `action` as a step, or nil (with `failure` set) if it names an app the scenario lacks or a
  /// mode its app does not declare.
  private mutating func compile(_ action: TimedAction, source: Int) -> WorkloadStep? {
    var app: Int32 = -1
    if let id = action.action.app {
      // The priority actions may name a system process too.
      let anyProcess = action.action.kind.namesAnyProcess
      // `AppIndex` hashes the id's bytes: a `[String: Int32]` cost a user-model run about 4 % of
      // its time here.
      guard
        let index = appIndex.index(of: id).map(Int32.init) ?? (anyProcess ? systemIndices[id] : nil)
      else {
        let (path, place) = location(source)
        let names = apps.map(\.id) + (anyProcess ? systemProcesses.map(\.name) : [])
        let unknown = JetsimError.unknownApp(
          path: path, location: place, id: id,
          suggestion: Suggestion.closest(to: id, in: names))
        failure = traceLine(source, path, unknown.unknownAppText) ?? unknown
        return nil
      }
      if anyProcess, let problem = priorityProblem(action.action, index: Int(index)) {
        let (path, place) = location(source)
        let message = "'\(action.action.name) \(id)': \(problem)"
        failure =
          traceLine(source, path, message)
          ?? .invalidEntry(path: path, keyPath: place, message: message)
        return nil
      }
      app = index
      if case .startMode(_, let mode) = action.action, !apps[Int(index)].declares(mode) {
        let (path, place) = location(source)
        let declared = apps[Int(index)].backgroundModes.map(\.rawValue).joined(separator: ", ")
        let value = "mode '\(mode)' for '\(id)'"
        let expected = "a mode the app declares in backgroundModes (\(declared))"
        failure =
          traceLine(source, path, "\(value); expected \(expected)")
          ?? .invalidValue(path: path, keyPath: place, value: value, expected: expected)
        return nil
      }
    }
    return WorkloadStep(
      timeMs: action.timeMs, kind: action.action.kind, app: app, value: action.action.value)
  }

  /// Why `action` (a priority action) cannot apply to process `index`, if it cannot: an assertion
  /// needs a process RunningBoard manages (an unmanaged one gets `EPERM`,
  /// `memorystatus_cmd_set_priority_properties`, xnu-11417 kern_memorystatus.c:8287–8295); a dirty state
  /// needs a dirty-tracked process (else `EINVAL`, `memorystatus_dirty_set`, :3543–3546) that asks
  /// for a band above IDLE, to be in while dirty.
  private func priorityProblem(_ action: Action, index: Int) -> String? {
    guard index >= apps.count else {
      return action.kind == .dirty || action.kind == .clean
        ? "an app is not dirty-tracked; dirty and clean name a system process (an app takes assert and release)"
        : nil
    }
    let process = systemProcesses[index - apps.count]
    switch action.kind {
    case .assert, .release:
      return process.isManaged
        ? nil
        : "RunningBoard does not manage it; assert and release name an app, an extension, or a system process with \"managed\": true"
    default:
      if process.dirtyTracking == .none {
        return
          "it is not dirty-tracked; give it \"dirtyTracking\" (an idle daemon is tracked by default)"
      }
      // Dirty with a band of IDLE, the kernel would hold it in the daemons' aging band while it is
      // dirty (`_memstat_perform_idle_demotion_for_band`, :2525–2527), which jetsim does not model.
      if !process.asksAboveIdle {
        return "it asks for no band above IDLE to be in while dirty; give it a \"band\" above 0"
      }
      return nil
    }
  }

  /// A problem with the action read last from `source`, when it is a trace's line: named
  /// `file:line:`, as the trace reader names its own errors; nil for an action from anywhere
  /// else (named by its key).
  private func traceLine(_ source: Int, _ path: String, _ message: String) -> JetsimError? {
    guard source == 1, let line = stepTrace?.line ?? trace?.line else { return nil }
    return .traceLine(path: path, line: line, message: message)
  }

  private func location(_ source: Int) -> (path: String, location: String) {
    switch source {
    case 0: Self.scriptLocation(scriptPosition - 1, scriptOrigins, origin)
    case 1: stepTrace?.location ?? trace?.location ?? (origin, "trace")
    default: (origin, "userModel")
    }
  }
}

extension Scenario {
  /// The workload, read as the run goes (see `ScenarioWorkload`); throws if the apps' names are
  /// not unique, the script is out of time order, the trace cannot be opened, or a user model has
  /// no duration.
  public func workload() throws(JetsimError) -> ScenarioWorkload {
    try ScenarioWorkload(self)
  }

  /// Reads the script and the trace once, checking every action (app ids defined, modes declared,
  /// times in order), in constant memory. Returns the number of steps.
  ///
  /// The user model is not drawn: its apps and modes are checked where it is read (a scenario
  /// file's `userModel`), and drawing it would cost as much as the run (a 2,400-hour model with
  /// 10,000 wakes: hundreds of millions of actions).
  ///
  /// - Complexity: O(*n*) for *n* script and trace actions; independent of the run's duration.
  @discardableResult
  public func checkWorkload() throws(JetsimError) -> Int {
    try readWorkload().steps
  }

  /// `checkWorkload`, returning also the trace's SHA-256 as the reading found it (when the trace
  /// is a file read with hashing).
  public func readWorkload() throws(JetsimError) -> (steps: Int, traceDigest: String?) {
    var scripted = self
    scripted.userModel = nil
    var workload = try scripted.workload()
    while workload.next() != nil {}
    if let failure = workload.failure { throw failure }
    return (workload.count, workload.traceDigest)
  }
}
