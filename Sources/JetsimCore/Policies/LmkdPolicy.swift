/// `lmkd`: Android's low memory killer daemon (system/memory/lmkd/lmkd.cpp), as docs/policies.md
/// describes. Each process has an `oom_score_adj` (`AndroidImportance`); when free memory falls below
/// the minfree level of an adj, processes with at least that adj are killed, highest adj first
/// (`find_and_kill_process`); inside one adj the least recently used, or the heaviest when
/// `killHeaviest` is set, and always the heaviest at adj 200 or below.
///
/// - Complexity: O(*n* log *n*) per decision for *n* processes in memory; no allocation.
public struct LmkdPolicy: EvictionPolicy {
  /// The adj of each minfree level.
  public static let adjLevels = [0, 100, 200, 250, 900, 950]
  /// Android's minfree levels for low-RAM devices, in KB.
  public static let lowRAMMinfreeKB = [12_288, 18_432, 24_576, 36_864, 43_008, 49_152]
  /// Android's minfree levels for high-RAM devices, in KB.
  public static let highRAMMinfreeKB = [73_728, 92_160, 110_592, 129_024, 147_456, 184_320]

  /// The policy's settings; the defaults are Android's.
  public struct Parameters: Sendable, Equatable {
    /// Kill the heaviest app of an adj instead of the least recently used.
    public var killHeaviest = false
    /// The six minfree levels in KB, ascending; nil to derive them from the device's memory.
    public var minfreeKB: [Int]?
    /// A 64-bit device raises the two cached levels (× 3/2 and × 7/4).
    public var is64Bit = true

    /// The defaults: AOSP lmkd's, with `minfree` derived from the device's memory.
    public init() {}
  }

  public var name: String { Self.registration.name }
  /// The settings in use.
  public let parameters: Parameters
  private var minfree: [Int] = []
  private var importance = AndroidImportance()
  private var resident = AppSet(capacity: 0)

  /// The lmkd policy with `parameters` (by default, AOSP's).
  public init(parameters: Parameters = Parameters()) { self.parameters = parameters }

  /// Android's minfree levels for a device with `memoryKB`: the low-RAM and high-RAM levels
  /// interpolated by `scale = clamp((memoryMB − 350) / 350, 0, 1)`, in integer arithmetic.
  public static func minfreeKB(memoryKB: Int, is64Bit: Bool) -> [Int] {
    var high = highRAMMinfreeKB
    if is64Bit {
      high[4] = high[4] * 3 / 2
      high[5] = high[5] * 7 / 4
    }
    let numerator = min(max(memoryKB / 1024 - 350, 0), 350)
    return zip(lowRAMMinfreeKB, high).map { low, high in low + (high - low) * numerator / 350 }
  }

  public mutating func start(_ device: DeviceView) {
    minfree =
      parameters.minfreeKB
      ?? Self.minfreeKB(memoryKB: device.device.memoryKB, is64Bit: parameters.is64Bit)
    importance.start(device)
    resident = AppSet(capacity: device.apps.count)
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    importance.appDidChange(app, status)
    resident.update(app, isMember: status.state.isResident)
  }

  /// It acts below its highest minfree level.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { minfree.max() ?? Int.max }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    guard let level = minfree.firstIndex(where: { device.freeKB < $0 }) else { return nil }
    let minimumAdj = Self.adjLevels[level]
    var best: (app: Int, adj: Int)?
    let killHeaviest = parameters.killHeaviest
    func consider(_ app: Int, _ adj: Int) {
      guard adj >= minimumAdj, app != device.allocatingApp else { return }
      if let current = best,
        !Self.precedes(app, adj, current.app, current.adj, device, killHeaviest: killHeaviest)
      {
        return
      }
      best = (app, adj)
    }
    importance.forEachResident(in: resident, device.apps, consider)
    return best.map { Eviction(app: $0.app) }
  }

  private static func precedes(
    _ a: Int, _ adjA: Int, _ b: Int, _ adjB: Int, _ device: DeviceView, killHeaviest: Bool
  ) -> Bool {
    if adjA != adjB { return adjA > adjB }
    let (x, y) = (device.apps[a], device.apps[b])
    if adjA <= AndroidImportance.perceptible || killHeaviest {
      if x.footprintKB != y.footprintKB { return x.footprintKB > y.footprintKB }
    } else if x.lastUsedMs != y.lastUsedMs {
      return x.lastUsedMs < y.lastUsedMs
    }
    return x.idRank < y.idRank
  }
}

extension LmkdPolicy {
  /// The settings it takes under `policyParameters.lmkd`.
  public static let settings: [PolicySetting<Parameters>] = [
    PolicySetting(
      "killHeaviest", .flag, "inside one adj, kill the heaviest rather than the least recently used"
    ) {
      $0.killHeaviest = $1.flag
    },
    PolicySetting(
      "minfree", .ascendingSizes(count: adjLevels.count),
      "six sizes, ascending, for adj 0, 100, 200, 250, 900, 950"
    ) { $0.minfreeKB = $1.numbers },
    PolicySetting("is64Bit", .flag, "raise the two cached levels (× 3/2, × 7/4)") {
      $0.is64Bit = $1.flag
    },
  ]

  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "lmkd",
    summary:
      "Android lmkd: oom_score_adj by importance, minfree levels by device memory, highest adj first",
    defaults: Parameters(), settings: settings, make: { LmkdPolicy(parameters: $0) })
}
