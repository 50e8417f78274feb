import JetsimCore

/// One exit counter of MetricKit's `MXAppExitMetric`: a key of `backgroundExitData`
/// (`MXBackgroundExitData`) or of `foregroundExitData` (`MXForegroundExitData`), as
/// `MXMetricPayload.jsonRepresentation()` names it.
public struct MetricKitExit: Sendable, Hashable, CustomStringConvertible {
  /// Whether the counter is in `foregroundExitData` rather than `backgroundExitData`.
  public let foreground: Bool
  /// The key, such as `cumulativeMemoryPressureExitCount`.
  public let key: String

  init(foreground: Bool, key: String) {
    self.foreground = foreground
    self.key = key
  }

  /// `background cumulativeMemoryPressureExitCount`.
  public var description: String { "\(foreground ? "foreground" : "background") \(key)" }

  /// The column name jetsim's CSV files give it: `background_memory_pressure`.
  public var column: String {
    var words = key.dropFirst("cumulative".count).dropLast("ExitCount".count)
      .reduce(into: "") { text, character in
        if character.isUppercase, !text.isEmpty, !(text.last?.isUppercase ?? false) {
          text.append("_")
        }
        text.append(contentsOf: character.lowercased())
      }
    words = words.replacing("c_p_u", with: "cpu").replacing("u_r_l", with: "url")
    return (foreground ? "foreground_" : "background_") + words
  }

  /// `MXBackgroundExitData`'s counters, in the order Xcode's simulated payload lists them.
  public static let background = [
    "cumulativeAppWatchdogExitCount", "cumulativeMemoryResourceLimitExitCount",
    "cumulativeBackgroundURLSessionCompletionTimeoutExitCount",
    "cumulativeBackgroundFetchCompletionTimeoutExitCount", "cumulativeAbnormalExitCount",
    "cumulativeSuspendedWithLockedFileExitCount", "cumulativeIllegalInstructionExitCount",
    "cumulativeMemoryPressureExitCount", "cumulativeBadAccessExitCount",
    "cumulativeCPUResourceLimitExitCount", "cumulativeBackgroundTaskAssertionTimeoutExitCount",
    "cumulativeNormalAppExitCount",
  ].map { MetricKitExit(foreground: false, key: $0) }

  /// `MXForegroundExitData`'s counters, in the same order.
  public static let foregroundExits = [
    "cumulativeBadAccessExitCount", "cumulativeAbnormalExitCount",
    "cumulativeMemoryResourceLimitExitCount", "cumulativeNormalAppExitCount",
    "cumulativeCPUResourceLimitExitCount", "cumulativeIllegalInstructionExitCount",
    "cumulativeAppWatchdogExitCount",
  ].map { MetricKitExit(foreground: true, key: $0) }

  /// Every counter: background first.
  public static let all = background + foregroundExits

  /// The counter app engineers watch for jetsam: background exits "to free up memory".
  public static let backgroundMemoryPressure = MetricKitExit(
    foreground: false, key: "cumulativeMemoryPressureExitCount")
  /// Background exits "for using too much memory".
  public static let backgroundMemoryResourceLimit = MetricKitExit(
    foreground: false, key: "cumulativeMemoryResourceLimitExitCount")
  /// Foreground exits "for using too much memory".
  public static let foregroundMemoryResourceLimit = MetricKitExit(
    foreground: true, key: "cumulativeMemoryResourceLimitExitCount")

  /// The counter whose column name (`background_memory_pressure`) or description
  /// (`background cumulativeMemoryPressureExitCount`) is `name`.
  public init?(_ name: String) {
    guard let exit = Self.all.first(where: { $0.column == name || $0.description == name }) else {
      return nil
    }
    self = exit
  }

  /// The counter a jetsim kill for `reason` adds to, killed in the foreground (active or inactive)
  /// or not; nil where MetricKit has none (docs/metrickit.md has the table and why).
  public static func counter(for reason: KillReason, foreground: Bool) -> MetricKitExit? {
    let key: String?
    switch reason {
    case .vmPageshortage, .longIdleExit, .procThrashing, .lowSwap, .idleExit, .sustainedPressure,
      .lmkPressureAfterKill,
      .lmkNotResponding, .lmkLowSwapAndThrashing,
      .lmkLowMemAndSwap, .lmkLowMemAndThrashing, .lmkDirectReclAndThrashing, .lmkLowMemAndSwapUtil,
      .lmkLowFilecacheAfterThrashing, .lmkLowMem, .lmkDirectReclStuck, .lmkNone:
      // "Terminated the app from the background to free up memory": no foreground counterpart.
      key = foreground ? nil : "cumulativeMemoryPressureExitCount"
    case .highwater, .perProcessLimit:
      // "For using too much memory": chosen for its own footprint over a limit.
      key = "cumulativeMemoryResourceLimitExitCount"
    case .watchdog: key = "cumulativeAppWatchdogExitCount"
    case .backgroundTaskExpired:
      key = foreground ? nil : "cumulativeBackgroundTaskAssertionTimeoutExitCount"
    case .exitOnSuspend: key = "cumulativeNormalAppExitCount"
    case .userForceQuit, .reboot: key = nil
    case .amTooManyCached, .amTooManyEmpty, .amTrimEmpty: key = nil
    }
    return key.map { MetricKitExit(foreground: foreground, key: $0) }
  }
}
