/// Any eviction policy, behind one indirect call: how a simulation runs a policy it was not
/// compiled for (a user's own; `Simulator.run` gives each built-in policy its own). Its calls are
/// inlined, so that the simulation reaches the policy's box without copying the wrapper.
package struct AnyEvictionPolicy: EvictionPolicy {
  /// The policy.
  package var base: any EvictionPolicy

  package init(_ base: any EvictionPolicy) { self.base = base }

  @inline(__always) package var name: String { base.name }
  @inline(__always) package mutating func start(_ device: DeviceView) { base.start(device) }
  @inline(__always) package mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int)
  {
    base.appDidChange(app, status, nowMs: nowMs)
  }
  @inline(__always) package mutating func pressureDidChange(to level: PressureLevel, nowMs: Int) {
    base.pressureDidChange(to: level, nowMs: nowMs)
  }
  @inline(__always) package mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    base.nextEviction(device)
  }
  @inline(__always) package func actsBelowFreeKB(_ device: DeviceProfile) -> Int {
    base.actsBelowFreeKB(device)
  }
  @inline(__always) package func actsNowBelowFreeKB(nowMs: Int) -> Int {
    base.actsNowBelowFreeKB(nowMs: nowMs)
  }
  @inline(__always) package func reconsiderAtMs(_ device: DeviceView) -> Int? {
    base.reconsiderAtMs(device)
  }
  @inline(__always) package func band(of app: Int, nowMs: Int) -> Int? {
    base.band(of: app, nowMs: nowMs)
  }
  @inline(__always) package var hasBands: Bool { base.hasBands }
  @inline(__always) package var isActing: Bool { base.isActing }
}

extension EvictionPolicy {
  /// The policy as XNU's jetsam, if it is (behind `AnyEvictionPolicy` or not): the freezer works
  /// with jetsam's bands alone.
  var asJetsam: JetsamPolicy? {
    self as? JetsamPolicy ?? (self as? AnyEvictionPolicy)?.base as? JetsamPolicy
  }
}
