import JetsimCore

/// What MetricKit would deliver to one app for some usage, in the shape of
/// `MXMetricPayload.jsonRepresentation()`: its exit counts (`applicationExitMetrics`) and memory
/// (`memoryMetrics`). jetsim writes one for each app of a run (`metrickit.json`) and reads real ones
/// (`jetsim import-metrickit`). docs/metrickit.md maps jetsim's kills to its counters.
public struct MetricKitPayload: Sendable, Equatable {
  /// The app (`metaData.bundleIdentifier`), or nil when a payload does not say.
  public var app: String?
  /// The device (`metaData.deviceType`): a product code in real payloads, the device's name in
  /// jetsim's.
  public var device: String?
  /// The span the payload covers, in milliseconds (from `timeStampBegin` and `timeStampEnd`).
  public var durationMs: Int
  /// Its exit counters, by counter; a counter absent from a payload is 0.
  public var exits: [MetricKitExit: Int] = [:]
  /// `peakMemoryUsage`, in KB.
  public var peakMemoryKB: Int?
  /// `averageSuspendedMemory.averageValue`, in KB.
  public var averageSuspendedKB: Int?
  /// `averageSuspendedMemory.sampleCount`.
  public var suspendedSamples = 0
  /// Kills that MetricKit has no counter for (force-quits, reboots, memory-pressure kills of a
  /// foreground app), by jetsim's reason: not in the payload's JSON.
  public var unmapped: [KillReason: Int] = [:]

  /// A payload for nothing, over `durationMs`.
  public init(app: String?, device: String?, durationMs: Int) {
    self.app = app
    self.device = device
    self.durationMs = durationMs
  }

  /// The count of `exit` (0 when absent).
  public func count(_ exit: MetricKitExit) -> Int { exits[exit] ?? 0 }

  /// `exit` per day of the time the payload covers (nil for a payload of no length).
  public func perDay(_ exit: MetricKitExit) -> Double? {
    durationMs > 0 ? Double(count(exit)) * 86_400_000 / Double(durationMs) : nil
  }

  /// The payload of app `index` in a run: its kills mapped to MetricKit's counters, its largest
  /// footprint, and its mean footprint while suspended (one sample per suspension).
  public init(app index: Int, of summary: RunSummary) {
    let stats = summary.apps[index]
    self.init(
      app: summary.appIDs[index], device: summary.device, durationMs: summary.metrics.durationMs)
    for reason in KillReason.allCases {
      let foreground = stats.foregroundKills(reason)
      addKills(foreground, reason, foreground: true)
      addKills(stats.kills(reason) - foreground, reason, foreground: false)
    }
    peakMemoryKB = stats.peakFootprintKB
    averageSuspendedKB = stats.averageSuspendedKB
    suspendedSamples = stats.suspensions
  }

  /// Adds `count` kills for `reason` in the foreground or not: to its counter, or to `unmapped`.
  private mutating func addKills(_ count: Int, _ reason: KillReason, foreground: Bool) {
    guard count > 0 else { return }
    if let exit = MetricKitExit.counter(for: reason, foreground: foreground) {
      exits[exit, default: 0] += count
    } else {
      unmapped[reason, default: 0] += count
    }
  }

  /// Adds `other`'s counts, time and samples (the peak is the larger, the average weighted by
  /// samples): the payload of both spans of usage together.
  public mutating func add(_ other: MetricKitPayload) {
    for (exit, count) in other.exits { exits[exit, default: 0] += count }
    for (reason, count) in other.unmapped { unmapped[reason, default: 0] += count }
    durationMs += other.durationMs
    if let peak = other.peakMemoryKB { peakMemoryKB = max(peakMemoryKB ?? 0, peak) }
    if let average = other.averageSuspendedKB, other.suspendedSamples > 0 {
      // In Double: sizes up to 2⁴⁰ KB times counts of samples overflow an Int.
      let mine = Double(averageSuspendedKB ?? 0) * Double(suspendedSamples)
      let samples = suspendedSamples + other.suspendedSamples
      averageSuspendedKB = Int(
        ((mine + Double(average) * Double(other.suspendedSamples)) / Double(samples)).rounded())
      suspendedSamples = samples
    }
  }
}
