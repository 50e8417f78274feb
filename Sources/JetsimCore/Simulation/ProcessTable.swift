/// What a simulation knows of its processes before it starts, and never changes: the rank of each
/// name (policies break ties by it), the numbers it reads from each profile (`AppTraits`) and the
/// fixed part of the policies' view. Building it is O(*n* log *n*) for *n* processes (the names'
/// sort); the simulations of one replay place the same processes under each policy and share one.
package struct ProcessTable: Sendable {
  /// Each process's rank among the names in order, by index.
  let idRanks: [Int]
  /// The profiles' numbers, by index.
  let traits: [AppTraits]
  /// The part of every `DeviceView` that does not change.
  let fixedView: DeviceView.Fixed

  /// The table of `profiles` (the apps, by index) and `device`'s system processes after them.
  package init(device: DeviceProfile, profiles: [AppProfile]) {
    let names = profiles.map(\.id) + device.systemProcesses.map(\.name)
    var ranks = [Int](repeating: 0, count: names.count)
    for (rank, index) in names.indices.sorted(by: { names[$0] < names[$1] }).enumerated() {
      ranks[index] = rank
    }
    idRanks = ranks
    traits =
      profiles.map { AppTraits($0, device: device) } + device.systemProcesses.map(AppTraits.init)
    fixedView = DeviceView.Fixed(device: device, profiles: profiles)
  }
}
