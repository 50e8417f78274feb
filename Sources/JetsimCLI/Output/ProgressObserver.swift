import Jetsim

/// Passes a run's events and kills on to `inner` (the report writer) and, every few thousand
/// events, shows how far the run has gone in simulated time on a `Progress` line.
struct ProgressObserver<Inner: SimulationObserver>: SimulationObserver {
  /// The observer the events are for.
  var inner: Inner
  let progress: Progress
  /// The run's end time, when it has one.
  let endMs: Int?
  private var count = 0
  /// Events between two looks at the clock: a look costs far more than an event.
  static var stride: Int { 4096 }

  init(_ inner: Inner, progress: Progress, endMs: Int?) {
    self.inner = inner
    self.progress = progress
    self.endMs = endMs
  }

  mutating func start(policy: String) { inner.start(policy: policy) }

  mutating func record(_ event: EventRecord) {
    inner.record(event)
    count &+= 1
    if count % Self.stride == 0 { progress.simulated(event.timeMs, of: endMs) }
  }

  mutating func record(_ kill: KillRecord) { inner.record(kill) }
}
