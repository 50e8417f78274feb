/// `oom-badness`: Linux's OOM killer (mm/oom_kill.c, `oom_badness`). While free memory is below
/// critical, kill the process with the highest badness, `footprint in pages + adj × total pages ÷
/// 1000`, with the adj of `AndroidImportance` (pages of 4 KB); ties by name.
///
/// - Complexity: O(*n* log *n*) per decision for *n* processes in memory; no allocation.
public struct OOMBadnessPolicy: EvictionPolicy {
  public var name: String { Self.registration.name }
  private var importance = AndroidImportance()
  private var resident = AppSet(capacity: 0)

  /// The Linux OOM killer's badness policy.
  public init() {}

  /// The badness of a process with `footprintKB` and `adj` on a device with `memoryKB`.
  public static func badness(footprintKB: Int, adj: Int, memoryKB: Int) -> Int {
    footprintKB / 4 + adj * (memoryKB / 4) / 1000
  }

  public mutating func start(_ device: DeviceView) {
    importance.start(device)
    resident = AppSet(capacity: device.apps.count)
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    importance.appDidChange(app, status)
    resident.update(app, isMember: status.state.isResident)
  }

  /// It acts only below the critical threshold.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int { device.criticalThresholdKB }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    guard device.isBelowCritical else { return nil }
    var best: (app: Int, score: Int)?
    func consider(_ app: Int, _ adj: Int) {
      guard app != device.allocatingApp else { return }
      let score = Self.badness(
        footprintKB: device.apps[app].footprintKB, adj: adj, memoryKB: device.device.memoryKB)
      if let current = best,
        score < current.score
          || (score == current.score && device.apps[app].idRank > device.apps[current.app].idRank)
      {
        return
      }
      best = (app, score)
    }
    importance.forEachResident(in: resident, device.apps, consider)
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
