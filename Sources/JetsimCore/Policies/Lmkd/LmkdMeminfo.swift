/// What lmkd reads from /proc/meminfo, /proc/vmstat and /proc/pressure/memory at one evaluation,
/// as jetsim's memory model gives it (docs/model.md, "Memory"; docs/policies.md, "lmkd"). Every
/// figure is taken once any allocation waiting for room has landed.
///
/// - `fileKB` (`nr_active_file + nr_inactive_file`): the page cache, available memory above the
///   free target, where the free target is at least the high watermark (kswapd reclaims until free
///   pages are back at high: mm/vmscan.c `balance_pgdat`).
/// - `refaultKBPerSecond`: the file working set the cache cannot hold, read again every second.
/// - `freeKB` (`nr_free_pages`): the free target, less what kswapd frees only to see it refaulted:
///   while the cache is short of the working set, the pages it reclaims are read back at once, so
///   free pages fall below the high watermark by the refaults of one second (an estimate, the
///   model's; docs/policies.md). Without refaults they fall below it only when available memory does.
/// - `thrashingPercent`: the refaults of one 1 s window (`THRASHING_RESET_INTERVAL_MS`) at this
///   rate as a percentage of this cache, `refaultKBPerSecond × 100 / (fileKB + 1)`. lmkd's own
///   thrashing counts the refaults since its window began (`LmkdPressure+Thrashing.swift`).
/// - `stallPermille`: PSI memory "some": the larger of the memory model's refault stall and the
///   direct-reclaim stall below the min watermark, which grows from nothing at min to all the time
///   at no free page (the kernel counts direct reclaim as a memory stall: mm/page_alloc.c
///   `__perform_reclaim`, `psi_memstall_enter`; the linear growth is an estimate).
/// - `fullStallPermille`: PSI memory "full", all tasks stalled at once: an estimate, the share of
///   time two tasks each stalled `stallPermille` of the time independently are both stalled
///   (`some² / 1000`).
/// - swap: zram's size and what is free, lmkd's `get_free_swap` (line 2001): the smaller of free swap
///   and `easy_available` (free pages plus the inactive file cache: available memory, the whole
///   cache taken as inactive), times `swap_compression_ratio` (1).
///
/// Plain integers, computed without allocating.
public struct LmkdMeminfo: Sendable, Equatable {
  /// Free pages, in KB.
  public var freeKB: Int
  /// The page cache, in KB.
  public var fileKB: Int
  /// File pages read again each second, in KB.
  public var refaultKBPerSecond: Int
  /// Refaults of one window over the file cache, in percent.
  public var thrashingPercent: Int
  /// PSI memory stall, in permille of the time.
  public var stallPermille: Int
  /// PSI memory "full" stall, in permille of the time.
  public var fullStallPermille: Int
  /// Swap (zram) size, in KB.
  public var swapTotalKB: Int
  /// Swap free as lmkd counts it (`get_free_swap`), in KB.
  public var swapFreeKB: Int
  /// Swap in use as lmkd counts it: its size less `swapFreeKB`, in KB.
  public var swapUsedKB: Int
  /// Anonymous memory that could go to swap, swapped or not, in KB (`calc_swap_utilization`).
  public var swappableKB: Int

  /// A reading with these figures (`swapUsedKB` is the size less the free swap).
  package init(
    freeKB: Int, fileKB: Int, refaultKBPerSecond: Int, stallPermille: Int,
    fullStallPermille: Int, swapTotalKB: Int = 0, swapFreeKB: Int = 0, swappableKB: Int = 0
  ) {
    self.freeKB = freeKB
    self.fileKB = fileKB
    self.refaultKBPerSecond = refaultKBPerSecond
    thrashingPercent = refaultKBPerSecond * 100 / (fileKB + 1)
    self.stallPermille = stallPermille
    self.fullStallPermille = fullStallPermille
    self.swapTotalKB = swapTotalKB
    self.swapFreeKB = swapFreeKB
    swapUsedKB = swapTotalKB - swapFreeKB
    self.swappableKB = swappableKB
  }

  /// The reading of `memory` once its pending allocation lands, with `watermarks`.
  public init(_ memory: DeviceMemory, watermarks: ZoneWatermarks) {
    let available = max(0, memory.availableAfterPendingKB)
    let freeTarget = min(available, max(memory.freeTargetKB, watermarks.highKB))
    fileKB = available - freeTarget
    refaultKBPerSecond = max(0, memory.fileWorkingSetKB - fileKB)
    freeKB = max(0, freeTarget - refaultKBPerSecond)
    thrashingPercent = refaultKBPerSecond * 100 / (fileKB + 1)
    let refaultStall = min(1000, refaultKBPerSecond * memory.refaultCostMsPerMB / 1024)
    let directStall = watermarks.directReclaimStallPermille(freeKB: freeKB)
    stallPermille = max(refaultStall, directStall)
    fullStallPermille = stallPermille * stallPermille / 1000
    swapTotalKB = memory.swapKB
    swapFreeKB = min(memory.swapFreeKB, available)
    swapUsedKB = swapTotalKB - swapFreeKB
    swappableKB = memory.anonymousKB + memory.pendingKB + swapUsedKB
  }

  /// Whether every figure is the same. lmkd compares a reading with its last one at every poll;
  /// written out so, the comparison makes no call (the synthesized one called `memcmp`: 6 % of the
  /// time of an lmkd run).
  public static func == (a: Self, b: Self) -> Bool {
    let first =
      (a.freeKB ^ b.freeKB) | (a.fileKB ^ b.fileKB) | (a.refaultKBPerSecond ^ b.refaultKBPerSecond)
      | (a.thrashingPercent ^ b.thrashingPercent) | (a.stallPermille ^ b.stallPermille)
    let second =
      (a.fullStallPermille ^ b.fullStallPermille) | (a.swapTotalKB ^ b.swapTotalKB)
      | (a.swapFreeKB ^ b.swapFreeKB) | (a.swapUsedKB ^ b.swapUsedKB)
      | (a.swappableKB ^ b.swappableKB)
    return first | second == 0
  }

  /// Swap in use over all swappable anonymous memory, in percent (`calc_swap_utilization`, line
  /// 2696).
  public var swapUtilizationPercent: Int {
    swappableKB > 0 ? swapUsedKB * 100 / swappableKB : 0
  }
}
