/// What lmkd logs with a kill besides its reason (lmkd.cpp `killinfo_log` and `kill_stat`,
/// statslog.h): the minimum adj of the evaluation, the thrashing it measured and the free swap it
/// counted. kills.csv writes them in its `min_score_adj`, `thrashing` and `swap_free_kb` columns,
/// empty for other policies.
public struct LmkdKillInfo: Sendable, Equatable {
  /// The lowest adj the evaluation could kill (`min_oom_score`).
  public var minScoreAdj: Int
  /// Refaults over the file cache, in percent (`thrashing`).
  public var thrashingPercent: Int
  /// Free swap as lmkd counts it (`free_swap_kb`), in KB.
  public var swapFreeKB: Int

  /// The figures of one lmkd kill.
  public init(minScoreAdj: Int, thrashingPercent: Int, swapFreeKB: Int) {
    self.minScoreAdj = minScoreAdj
    self.thrashingPercent = thrashingPercent
    self.swapFreeKB = swapFreeKB
  }
}
