/// `oom-badness`: Linux's OOM killer (mm/oom_kill.c). While free memory is below critical, kill the
/// app with the highest badness, `footprint in pages + adj × total pages ÷ 1000`, with the adj of
/// `AndroidImportance` (pages of 4 KB); ties by app id.
///
/// - Complexity: O(*n* log *n*) per decision for *n* apps.
public struct OOMBadnessPolicy: EvictionPolicy {
  public let name = "oom-badness"

  public init() {}

  /// The badness of an app with `footprintKB` and `adj` on a device with `memoryKB`.
  public static func badness(footprintKB: Int, adj: Int, memoryKB: Int) -> Int {
    footprintKB / 4 + adj * (memoryKB / 4) / 1000
  }

  /// It acts only below the critical threshold.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { device.criticalThresholdKB }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    guard device.isBelowCritical else { return nil }
    var best: (app: Int, score: Int)?
    for (app, adj) in AndroidImportance.adjustments(device).enumerated() {
      guard let adj else { continue }
      let score = Self.badness(
        footprintKB: device.apps[app].footprintKB, adj: adj, memoryKB: device.device.memoryKB)
      if let current = best,
        score < current.score
          || (score == current.score && device.apps[app].idRank > device.apps[current.app].idRank)
      {
        continue
      }
      best = (app, score)
    }
    return best.map { Eviction(app: $0.app) }
  }
}

extension OOMBadnessPolicy {
  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "oom-badness",
    summary:
      "Linux OOM killer: highest badness (footprint in pages + adj × total pages ÷ 1000) first",
    make: { OOMBadnessPolicy() })
}
