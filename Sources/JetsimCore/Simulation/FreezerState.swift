/// XNU's freezer as one run keeps it (`DeviceProfile.Freezer`; docs/policies.md, "The freezer"):
/// its settings resolved for the device, its counts, its budget interval, and the per-app state
/// the kernel keeps in `p_memstat_state` and `p_memstat_thaw_count`. Plain integers and one array
/// of small values, grown once to the number of apps. F is bsd/kern/kern_memorystatus_freeze.c
/// (xnu-11417.101.15).
struct FreezerState {
  /// One app's freezer state beyond `AppStatus.isFrozen` and `isFreezerElevated`.
  struct App {
    /// Thawed since its last freeze (`P_MEMSTAT_REFREEZE_ELIGIBLE`).
    var refreezeEligible = false
    /// Thaws in its life (`p_memstat_thaw_count`).
    var thawCount: Int32 = 0
  }

  /// Whether the freezer runs: a device with an enabled freezer and no swap device of its own
  /// (app swap changes the freezer's rules: unlimited budget, 36 slots, every app at once; jetsim
  /// models the freezer of an iPhone), under the `jetsam` policy.
  let isOn: Bool
  let thresholdKB: Int
  let slots: Int
  let minFootprintKB: Int
  let maxFreezeKB: Int
  let dailyPages: Int
  /// The apps frozen (`memorystatus_frozen_count`: the slots in use) and those of them thawed
  /// since their last freeze (`memorystatus_refreeze_eligible_count`).
  var frozenCount = 0
  var refreezeEligibleCount = 0
  /// The earliest time of its next pass (`memorystatus_freezer_thread_next_run_ts`).
  var nextRunMs = 0
  /// The budget interval (`throttle_intervals[0]`): its end, its budget and what was written in
  /// it, in compressed pages.
  var intervalEndMs = DeviceProfile.Freezer.intervalMs
  var maxPages: Int
  var pageouts = 0
  /// Per process (apps, then the XPC services it may freeze with them), by index (empty when off).
  var apps: [App]

  /// The freezer of `device` for a run of `processCount` processes under a policy that has it
  /// (`jetsam`).
  init(device: DeviceProfile, processCount: Int, policyHasFreezer: Bool) {
    let freezer = device.freezer ?? DeviceProfile.Freezer()
    isOn =
      policyHasFreezer && device.freezer?.enabled == true && device.appSwap == nil
      && device.zram == nil
    thresholdKB = freezer.thresholdKB(on: device)
    slots = freezer.slots
    minFootprintKB = freezer.minFootprintKB
    maxFreezeKB = freezer.maxFreezeKB(on: device)
    dailyPages = freezer.dailyBudgetPages
    maxPages = dailyPages
    apps = isOn ? Array(repeating: App(), count: processCount) : []
  }

  /// The budget left in the interval, in pages (`memorystatus_freeze_update_throttle`,
  /// kern_memorystatus_freeze.c:2846–2850): none once what was written reaches the budget.
  var remainingPages: Int { pageouts >= maxPages ? 0 : maxPages - pageouts }

  /// Whether a pass may freeze: slots free, or enough thawed frozen apps to refreeze
  /// (kern_memorystatus_policy.c:758–767, kern_memorystatus_freeze.c:2930).
  var hasWork: Bool {
    frozenCount < slots || refreezeEligibleCount >= DeviceProfile.Freezer.refreezeThreshold
  }

  /// Starts the next interval (`memorystatus_freeze_reset_interval`, kern_memorystatus_freeze.c:1565):
  /// the unused budget rolls over, without cap; what was written beyond the new budget carries
  /// over, compared, as the kernel does, with the new budget (F:2641–2646).
  mutating func startNextInterval() {
    let rollover = max(0, maxPages - pageouts)
    maxPages = dailyPages + rollover
    pageouts = pageouts > maxPages ? pageouts - maxPages : 0
    intervalEndMs += DeviceProfile.Freezer.intervalMs
  }
}
