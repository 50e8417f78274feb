/// The kernel's zone watermarks as lmkd sums them (lmkd.cpp `calc_zone_watermarks`, line 2668, at
/// AOSP platform/system/memory/lmkd 767ae23): free pages below `min` put allocations into direct
/// reclaim, below `low` wake kswapd, which reclaims until free pages are back at `high`.
///
/// Unless a device or a scenario gives them, they follow Linux's rule (mm/page_alloc.c,
/// `calculate_min_free_kbytes` and `__setup_per_zone_wmarks`): `min = √(16 × memory KB)`, kept
/// between 128 KB and 256 MB; `low = min + step`, `high = min + 2 × step`, where `step` is the larger
/// of `min / 4` and `memory × watermark_scale_factor / 10000` (the factor's default is 10). The
/// memory is the memory the device reports, one zone; zone protections (`lowmem_reserve`) are not
/// modelled.
public struct ZoneWatermarks: Sendable, Equatable {
  /// Below this, allocations reclaim directly (`WMARK_MIN`).
  public var minKB: Int
  /// Below this, kswapd wakes (`WMARK_LOW`).
  public var lowKB: Int
  /// kswapd reclaims until free memory is back here (`WMARK_HIGH`).
  public var highKB: Int

  /// Watermarks given in kilobytes, `minKB ≤ lowKB ≤ highKB`.
  public init(minKB: Int, lowKB: Int, highKB: Int) {
    self.minKB = minKB
    self.lowKB = lowKB
    self.highKB = highKB
  }

  /// Linux's `vm.watermark_scale_factor` default (mm/page_alloc.c): 10 per 10,000.
  public static let defaultScaleFactor = 10

  /// Linux's watermarks for a device that reports `memoryKB`, with `scaleFactor` per 10,000
  /// (`vm.watermark_scale_factor`), in integer arithmetic.
  public init(memoryKB: Int, scaleFactor: Int = defaultScaleFactor) {
    let minimum = min(max(Self.integerSquareRoot(memoryKB * 16), 128), 262_144)
    let step = max(minimum / 4, memoryKB * scaleFactor / 10_000)
    self.init(minKB: minimum, lowKB: minimum + step, highKB: minimum + 2 * step)
  }

  /// The largest integer whose square is at most `value` (the kernel's `int_sqrt`).
  static func integerSquareRoot(_ value: Int) -> Int {
    guard value > 1 else { return max(0, value) }
    var root = value
    var next = (root + 1) / 2
    while next < root {
      root = next
      next = (root + value / root) / 2
    }
    return root
  }

  /// The lowest watermark `freeKB` is below (lmkd.cpp `get_lowest_watermark`, line 2651).
  public func lowestBreached(freeKB: Int) -> Level {
    if freeKB < minKB { return .min }
    if freeKB < lowKB { return .low }
    if freeKB < highKB { return .high }
    return .none
  }

  /// The share of time, in permille, that allocations spend in direct reclaim with `freeKB` free:
  /// nothing at or above the min watermark, growing linearly to all the time at no free page (the
  /// kernel counts direct reclaim as a memory stall, mm/page_alloc.c `__perform_reclaim`,
  /// `psi_memstall_enter`; the linear growth is the model's estimate, docs/policies.md).
  public func directReclaimStallPermille(freeKB: Int) -> Int {
    freeKB < minKB ? (minKB - freeKB) * 1000 / max(1, minKB) : 0
  }

  /// lmkd's `enum zone_watermark`, in its order: `min` is the most severe.
  public enum Level: Int, Sendable, Comparable {
    /// Below the min watermark.
    case min = 0
    /// Below the low watermark.
    case low
    /// Below the high watermark.
    case high
    /// Above every watermark.
    case none

    public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
  }
}
