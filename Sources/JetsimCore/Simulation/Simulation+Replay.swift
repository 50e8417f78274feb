/// Replaying a real kill decision (`jetsim replay`, docs/validation.md): the device in the state of
/// a JetsamEvent report's snapshot, and the policy asked for the victims that free what the kernel
/// freed.
extension Simulation {
  /// Puts the device in its snapshot state at time 0 without settling memory (no kill yet).
  /// `entryApps` is the process of each of the snapshot's entries (`AppIndex.apps(of:)`), when a
  /// caller placing the same entries many times has looked them up once.
  package mutating func placeForReplay(entryApps: [Int]? = nil) throws(JetsimError) {
    place(entryApps: entryApps)
    if let failure { throw failure }
  }

  /// Asks the policy for victims, one at a time, as if the device were short of exactly
  /// `kilobytes`: while the footprints it has freed (as the report counts them, compressed memory
  /// included) fall short, the policy sees free memory below zero by what is still missing, so
  /// every policy is below its kill threshold. Returns the victims in order (fewer if the policy
  /// stops, or names a process it cannot kill).
  package mutating func evict(freeingKB kilobytes: Int) -> [Int] {
    var victims: [Int] = []
    var freed = 0
    var rank = 0
    while freed < kilobytes, !failed {
      memory.pendingKB = availableKB + (kilobytes - freed)
      defer { memory.pendingKB = 0 }
      guard let eviction = policy.nextEviction(view) else { break }
      let app = eviction.app
      let before = apps.indices.contains(app) ? apps[app].footprintKB : 0
      let kills = rank
      guard carryOut(eviction, rank: &rank) else { break }
      if rank > kills { victims.append(app) }
      freed += before - apps[app].footprintKB
    }
    return victims
  }
}
