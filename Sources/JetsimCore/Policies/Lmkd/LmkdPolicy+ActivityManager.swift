extension LmkdPolicy {
  /// ActivityManager's trim of the processes over its limits, which runs after every oom-adj
  /// update whatever the memory (`OomAdjuster.updateAndTrimProcessLSP`, frameworks/base
  /// 02978520d9e8fd1bc84ea68c4065178d4a1b7b7b, lines 1303–1454). Walking the LRU list from the most
  /// recently used, it kills
  /// - a cached app (one with activities and no started service: `AndroidImportance.CachedKind`)
  ///   once more than `cachedProcessLimit` were met ("cached #N", `SUBREASON_TOO_MANY_CACHED`,
  ///   lines 1370–1375);
  /// - an empty process unused for `maxEmptyTimeMs`, once more than `trimEmptyProcesses` empty
  ///   ones were kept ("empty for Ns", `SUBREASON_TRIM_EMPTY`, lines 1381–1388);
  /// - any other empty process once more than `emptyProcessLimit` were kept ("empty #N",
  ///   `SUBREASON_TOO_MANY_EMPTY`, lines 1390–1396).
  ///
  /// The first kill of that walk, or nil when every count is within its limit; asked again after
  /// each kill, it gives the walk's kills in its order. The walk meets every process with
  /// activities (the cached apps) before any without (the empty processes), whatever their
  /// recency: ProcessList's LRU list keeps processes with activities above
  /// `mLruProcessActivityStart`, at its most recently used end. The two counts are apart, so
  /// which processes die does not depend on it, only their order.
  mutating func trimVictim(nowMs: Int) -> Eviction? {
    if let app = candidates.firstBeyond(parameters.cachedProcessLimit, empty: false) {
      return Eviction(app: app, reason: .amTooManyCached)
    }
    return emptyTrimVictim(nowMs: nowMs).map { Eviction(app: $0.app, reason: $0.reason) }
  }

  /// Whether ActivityManager may have a process to trim: more cached apps than their limit, or
  /// more empty processes than it keeps whatever their age.
  var mayTrim: Bool {
    candidates.cachedCount > parameters.cachedProcessLimit
      || candidates.emptyCount > min(parameters.trimEmptyProcesses, parameters.emptyProcessLimit)
  }

  /// The first empty process the walk kills, and why.
  private mutating func emptyTrimVictim(nowMs: Int) -> (app: Int, reason: KillReason)? {
    let oldBefore = nowMs - parameters.maxEmptyTimeMs
    if let app = candidates.firstBeyond(parameters.emptyProcessLimit, empty: true),
      statuses[app].lastUsedMs >= oldBefore
    {
      return (app, .amTooManyEmpty)
    }
    // The age rule can kill only if the least recently used is old, beyond those kept.
    guard candidates.emptyCount > parameters.trimEmptyProcesses,
      let last = candidates.leastRecentEmpty(), statuses[last].lastUsedMs < oldBefore
    else { return nil }
    // Rare (the default age is 1,000 hours): walk the empty processes.
    let empties = statuses.indices.filter { candidates.isEmpty($0) }.sorted {
      AndroidImportance.isMoreRecent(statuses[$0], statuses[$1])
    }
    var kept = 0
    for app in empties {
      if kept > parameters.trimEmptyProcesses, statuses[app].lastUsedMs < oldBefore {
        return (app, .amTrimEmpty)
      }
      kept += 1
      if kept > parameters.emptyProcessLimit { return (app, .amTooManyEmpty) }
    }
    return nil
  }

  /// Refiles the previous app at adj 900 once `MAX_PREVIOUS_TIME` has passed since it left the
  /// screen: ActivityManager computes it "previous-expired" at its next update.
  mutating func refreshPrevious(nowMs: Int) {
    if let app = importance.previousApp, candidates.filed[app] == LmkdCandidates.previousList,
      importance.fixedAdj(app, statuses[app], nowMs: nowMs) != AndroidImportance.previous
    {
      refile(app, nowMs: nowMs)
    }
  }
}
