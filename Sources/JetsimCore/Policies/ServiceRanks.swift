/// ActivityManager's service B: which started services stay at `SERVICE_ADJ` (500) and which go to
/// `SERVICE_B_ADJ` (800), within reach of lmkd's `lmk-low-mem` (701). At a full update OomAdjuster
/// visits the LRU list from its most recently used end, and process number *i* (from 0) of those
/// at 500 is B when `i > n / 3` (`computeOomAdjLSP`, OomAdjuster.java at frameworks/base 02978520,
/// lines 2452–2491: `mNewNumAServiceProcs > (mNumServiceProcs / 3)`), *n* being how many there
/// are: the ⌊*n* / 3⌋ + 1 most recently used stay at 500.
///
/// ActivityManager takes *n* from the full update before (`mNumServiceProcs`, set at line 1095),
/// and keeps a process's A or B between full updates; jetsim's updates are its changes of a
/// process, each taken as a full update with *n* as it is after the change. Not modelled: a large
/// service (its RSS at least a third of the highest minfree level, × 1.5 for RSS) made B while
/// ActivityManager's memory level is not normal (lines 2456–2483; that level comes from
/// ActivityManager's own PSI monitor), and a service inactive for `MAX_SERVICE_INACTIVITY`
/// (30 min), which is cached instead (line 2264).
///
/// - Complexity: O(*s* log *s*) per change of one of the *s* services, nothing for other processes.
struct ServiceRanks: Sendable {
  private struct Member {
    var app: Int
    var lastUsedMs: Int
    var idRank: Int
  }

  /// The processes at SERVICE_ADJ before the B step, most recently used first as the last
  /// `update` sorted them.
  private var members: [Member] = []
  private var isMember: [Bool]
  private var isBStorage: [Bool]
  /// The processes whose A or B the last `update` changed.
  private(set) var moved: [Int] = []

  /// No service among processes `0..<count`.
  init(count: Int) {
    isMember = Array(repeating: false, count: count)
    isBStorage = isMember
    members.reserveCapacity(count)
    moved.reserveCapacity(count)
  }

  /// Whether process `app` is a B service (at 800).
  @inline(__always) func isB(_ app: Int) -> Bool { isBStorage[app] }

  /// Whether process `app` is a service (at SERVICE_ADJ before the B step).
  @inline(__always) func contains(_ app: Int) -> Bool { isMember[app] }

  /// Follows process `app`, which is a service or was one, into `status`, a service or not, and
  /// ranks the services again.
  mutating func update(_ app: Int, _ status: AppStatus, isService: Bool) {
    moved.removeAll(keepingCapacity: true)
    if isMember[app], let index = members.firstIndex(where: { $0.app == app }) {
      members.remove(at: index)
    }
    isMember[app] = isService
    if isService {
      members.append(Member(app: app, lastUsedMs: status.lastUsedMs, idRank: status.idRank))
    } else if isBStorage[app] {
      isBStorage[app] = false
      moved.append(app)
    }
    // Most recently used first (`AndroidImportance.isMoreRecent`).
    members.sort { ($0.lastUsedMs, $1.idRank) > ($1.lastUsedMs, $0.idRank) }
    let staying = members.count / 3 + 1
    for (rank, member) in members.enumerated() where (rank >= staying) != isBStorage[member.app] {
      isBStorage[member.app] = rank >= staying
      moved.append(member.app)
    }
  }
}
