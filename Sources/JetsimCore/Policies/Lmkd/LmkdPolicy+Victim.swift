extension LmkdPolicy {
  /// The resident set size lmkd reads for process `app` (`proc_get_size`, /proc/pid/statm): its
  /// pages in memory, none of them in swap or in the compressor (zram).
  static func rssKB(_ status: AppStatus) -> Int {
    status.isSwapped || status.isCompressed ? 0 : status.physicalKB
  }

  /// Files process `app` in `candidates` under its adj at `nowMs`.
  mutating func refile(_ app: Int, nowMs: Int) {
    let status = statuses[app]
    candidates.file(
      app, status, adj: importance.fixedAdj(app, status, nowMs: nowMs),
      since: importance.adjSince[app], kind: importance.cachedKind(app, status))
  }

  /// `find_and_kill_process` (line 2539): the process to kill at `minAdj` or above, if any; never
  /// the process whose allocation waits, nor one with a negative adj. From the candidates kept in
  /// order (`LmkdCandidates`), but with `killHeaviest` or when they cannot tell, by a scan.
  mutating func victim(_ device: DeviceView, minAdj: Int) -> Int? {
    if !parameters.killHeaviest {
      // The previous app turns cached `MAX_PREVIOUS_TIME` after it was suspended.
      refreshPrevious(nowMs: device.nowMs)
      switch candidates.choice(floor: max(0, minAdj), excluded: device.allocatingApp ?? -1) {
      case .victim(let app): return app
      case .none: return nil
      case .needsScan: break
      }
    }
    return scanVictim(device, minAdj: minAdj)
  }

  /// `victim` by a scan of every process in memory, each with the adj ActivityManager gives it.
  ///
  /// - Complexity: O(*n* log *n*).
  mutating func scanVictim(_ device: DeviceView, minAdj: Int) -> Int? {
    var best: (app: Int, adj: Int)?
    let floor = max(0, minAdj)
    let heaviest = parameters.killHeaviest
    let allocating = device.allocatingApp
    let apps = device.apps
    let since = importance.adjSince
    candidates.settle()
    let candidates = candidates
    importance.forEachResident(in: resident, apps, nowMs: device.nowMs) { app, adj in
      guard adj >= floor, app != allocating else { return }
      if let current = best,
        !Self.precedes(
          app, adj, current.app, current.adj, apps, since: since, candidates,
          killHeaviest: heaviest)
      {
        return
      }
      best = (app, adj)
    }
    return best?.app
  }

  /// Whether `a` (at `adjA`) dies before `b` (at `adjB`): the higher adj; inside one adj, at 200
  /// and below or with `killHeaviest`, the larger RSS (`proc_get_heaviest`, line 2232: on a tie the
  /// first found from the head, the one that got the adj last); otherwise the tail of the adj's
  /// list (`proc_adj_tail`), the one that got it longest ago: for cached processes, the one
  /// registered at its slot first (`LmkdCandidates.slotPlace`); an expired previous app
  /// against the cached apps of the first slot, by least recent use.
  private static func precedes(
    _ a: Int, _ adjA: Int, _ b: Int, _ adjB: Int, _ apps: [AppStatus], since: [Int],
    _ candidates: LmkdCandidates, killHeaviest: Bool
  ) -> Bool {
    if adjA != adjB { return adjA > adjB }
    let (x, y) = (apps[a], apps[b])
    let (sinceA, sinceB) = (since[a], since[b])
    if adjA <= AndroidImportance.perceptible || killHeaviest {
      let (rssA, rssB) = (rssKB(x), rssKB(y))
      if rssA != rssB { return rssA > rssB }
      if sinceA != sinceB { return sinceA > sinceB }
    } else if adjA >= AndroidImportance.cachedMin {
      if let placeA = candidates.slotPlace(a, adj: adjA),
        let placeB = candidates.slotPlace(b, adj: adjB)
      {
        return placeA < placeB
      }
      if x.lastUsedMs != y.lastUsedMs { return x.lastUsedMs < y.lastUsedMs }
    } else if sinceA != sinceB {
      return sinceA < sinceB
    }
    return x.idRank < y.idRank
  }
}
