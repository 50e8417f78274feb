/// The FOREGROUND band sorted by coalition, as xnu-11417.101.15 (commit e3723e1f) does it
/// (`memorystatus_sort_bucket_locked`, kern_memorystatus.c:1721, and
/// `memorystatus_sort_by_largest_coalition_locked`, :9235). Every other band stays in order of
/// entry. The band is sorted at moments, not kept sorted: at the first priority kill of each pass
/// of the jetsam thread (`memorystatus_do_priority_kill`, :4617–4619, which hands `sort_flag` to
/// `memorystatus_kill_top_process`, :6412–6415), and at each aggressive march that reaches it
/// (`memorystatus_kill_processes_aggressive`, :6752–6759). In between, a process entering the band
/// goes to its tail (`memstat_update_priority_locked`, :2918–2922).
extension JetsamPolicy {
  /// How many coalition leaders a sort takes, in list order: the scan stops at the next
  /// (`MAX_COAL_LEADERS`, kern_memorystatus.c:9238, the `break` at :9292).
  static let sortedLeaders = 10

  /// Sorts the FOREGROUND band if this pass of the jetsam thread has not yet.
  mutating func sortForegroundIfPending() {
    guard foregroundSortPending else { return }
    foregroundSortPending = false
    sortForeground()
  }

  /// Lays the FOREGROUND band out again. The first ten coalition leaders in the band's list, each
  /// coalition ranked by the footprint of all its members in memory (any band), the largest first;
  /// each coalition's members in the band as undefined, extensions, XPC services (each role the
  /// largest first), then the leader; then every process not moved, in its order before. With no
  /// leader in the band, the band by footprint, the largest first, equals in their order before
  /// (`memorystatus_sort_by_largest_process_locked`, :1796).
  ///
  /// - Complexity: O(*n*) for *n* processes, when two or more are in the band; once a pass.
  mutating func sortForeground() {
    guard foregroundCount > 1 else { return }
    let band = parameters.bands.foreground
    var list = members.indices.filter { members[$0].resident && members[$0].band == band }
    list.sort { key($0) < key($1) }
    var leaders: [Int] = []
    for app in list where members[app].role == .leader {
      guard leaders.count < Self.sortedLeaders else { break }
      leaders.append(app)
    }
    let sorted = leaders.isEmpty ? largestFirst(list) : byCoalition(list, leaders: leaders)
    for (rank, app) in sorted.enumerated() {
      members[app].sortedRank = rank
      file(app)
    }
  }

  /// `list` by footprint, the largest first, equals in list order.
  private func largestFirst(_ list: [Int]) -> [Int] {
    list.enumerated().sorted {
      (-members[$0.element].footprintKB, $0.offset) < (-members[$1.element].footprintKB, $1.offset)
    }.map(\.element)
  }

  /// `list` (the band in list order) with the coalitions of `leaders` moved to its head.
  private func byCoalition(_ list: [Int], leaders: [Int]) -> [Int] {
    var totals = [Int](repeating: 0, count: leaders.count)
    for member in members where member.resident {
      if let slot = leaders.firstIndex(where: { members[$0].coalition == member.coalition }) {
        totals[slot] += member.footprintKB
      }
    }
    // The kernel takes the coalitions smallest first, each to the head of the band, so the largest
    // ends first; it sorts them with qsort, whose order of equals the code does not fix: here the
    // later in the list goes first, as an insertion sort would leave them.
    let ranked = leaders.indices.sorted { (-totals[$0], -$0) < (-totals[$1], -$1) }
    var moved = Set<Int>()
    var sorted: [Int] = []
    for slot in ranked {
      let coalition = members[leaders[slot]].coalition
      let group = list.enumerated().filter { members[$0.element].coalition == coalition }
      // Each role's list comes largest first (`coalition_get_pid_list` with `dflt_cmp`,
      // osfmk/kern/coalition.c:2589); equals here in list order.
      let laidOut = group.sorted {
        let (a, b) = (members[$0.element], members[$1.element])
        return (a.role.killRank, -a.footprintKB, $0.offset)
          < (b.role.killRank, -b.footprintKB, $1.offset)
      }
      for (_, app) in laidOut {
        sorted.append(app)
        moved.insert(app)
      }
    }
    return sorted + list.filter { !moved.contains($0) }
  }
}
