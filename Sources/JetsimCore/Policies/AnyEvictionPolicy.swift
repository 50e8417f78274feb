/// Any eviction policy, behind one indirect call: how a simulation runs a policy it was not
/// compiled for (a user's own; `Simulator.run` gives each built-in policy its own).
package struct AnyEvictionPolicy: EvictionPolicy {
  /// The policy.
  package var base: any EvictionPolicy

  package init(_ base: any EvictionPolicy) { self.base = base }

  package var name: String { base.name }
  package mutating func start(_ device: DeviceView) { base.start(device) }
  package mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    base.appDidChange(app, status, nowMs: nowMs)
  }
  package mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    base.nextEviction(device)
  }
  package func actsBelowFreeKB(_ device: DeviceProfile) -> Int { base.actsBelowFreeKB(device) }
  package func actsNowBelowFreeKB(nowMs: Int) -> Int { base.actsNowBelowFreeKB(nowMs: nowMs) }
  package func reconsiderAtMs(_ device: DeviceView) -> Int? { base.reconsiderAtMs(device) }
  package func band(of app: Int, nowMs: Int) -> Int? { base.band(of: app, nowMs: nowMs) }
  package var hasBands: Bool { base.hasBands }
  package var isActing: Bool { base.isActing }
}

extension EvictionPolicy {
  /// The policy as XNU's jetsam, if it is (behind `AnyEvictionPolicy` or not): the freezer works
  /// with jetsam's bands alone.
  var asJetsam: JetsamPolicy? {
    self as? JetsamPolicy ?? (self as? AnyEvictionPolicy)?.base as? JetsamPolicy
  }
}
