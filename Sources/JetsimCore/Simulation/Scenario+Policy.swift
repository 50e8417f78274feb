/// The policy of a scenario is built where its simulation is set up: the workload and the model
/// name a policy; only the simulation layer makes one.
extension Scenario {
  /// A fresh instance of the policy named `name` (by default the scenario's), with its settings.
  public func makePolicy(_ name: PolicyName? = nil) throws(JetsimError) -> any EvictionPolicy {
    try PolicyRegistry.make(name ?? policy, settings: effectivePolicySettings)
  }
}
