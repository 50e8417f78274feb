/// The device's memory, in one place: where every page is, and the memory each kernel counts as
/// available (docs/model.md, "Memory").
///
/// Physical memory is split five ways, which always add up:
/// `freeKB + fileBackedKB + anonymousKB + compressedKB + wiredKB == physicalKB`.
/// - `wiredKB`: the kernel and wired memory (the profile's `reserved`), never paged;
/// - `anonymousKB`: the processes' dirty memory as it is (their footprints);
/// - `compressedKB`: what the compressor holds of suspended processes' memory, and on a device
///   with zram the compressed copies of the memory in swap;
/// - `fileBackedKB`: the page cache, file pages the kernel can drop without killing anyone;
/// - `freeKB`: pages nobody holds.
///
/// The page cache fills every page above the kernel's free target (`freeTargetKB`) and shrinks
/// first under an allocation, so it is derived, never stored: an allocation takes free pages
/// down to the target, then file pages. What a kernel compares with its levels is
/// `availableKB`: XNU's `memorystatus_available_pages`, which `VM_CHECK_MEMORYSTATUS` sets on a
/// device with jetsam to the pageable file-backed pages plus the free ones (xnu-11417
/// osfmk/vm/vm_page.h; purgeable pages count only on a device without the compressor, which
/// every iPhone has).
///
/// When the cache is smaller than the file working set, the pages missing are read again
/// (refaults) and whatever runs waits for them: `stallPermille` is the share of time some task
/// is stalled on memory, as Linux's PSI counts "some".
///
/// The simulation keeps one on its hot path: plain integers, updated as processes change.
public struct DeviceMemory: Sendable, Equatable {
  /// Physical memory (the profile's `memory`).
  public let physicalKB: Int
  /// Wired memory and the kernel's (the profile's `reserved`).
  public let wiredKB: Int
  /// The free memory the kernel keeps before it takes file pages (`vm_page_free_target`).
  public let freeTargetKB: Int
  /// The file pages the device touches each second (`fileCache.workingSet`).
  public let fileWorkingSetKB: Int
  /// The time a stalled task waits for each megabyte read again (`fileCache.refaultCost`).
  public let refaultCostMsPerMB: Int
  /// The swap the device has (app swap's budget or zram's size; 0: none).
  public let swapKB: Int
  /// zram's compression, in permille (2000: 2:1): the memory in swap occupies swapped ÷ ratio of
  /// physical memory; 0 when swap costs no RAM (app swap, on storage) or there is none.
  public let zramPermille: Int
  /// The processes' dirty memory held as it is.
  public private(set) var anonymousKB = 0
  /// The physical memory the compressor holds for suspended processes.
  public private(set) var compressedKB = 0
  /// What no process holds: free pages and the page cache (`physicalKB - wiredKB - anonymousKB -
  /// compressedKB`, kept as the processes' memory changes: levels read it after every event).
  public private(set) var availableKB: Int
  /// The memory in swap: app swap's or zram's, and what XNU's freezer wrote to its swap files
  /// (which the device's `swapKB` does not count: the freezer's budget and slots bound it).
  public internal(set) var swappedKB = 0
  /// The allocation waiting for room (docs/model.md §5), 0 when none.
  public internal(set) var pendingKB = 0

  /// The memory of `device` with nothing running.
  public init(device: DeviceProfile) {
    physicalKB = device.memoryKB
    wiredKB = device.reservedKB
    freeTargetKB = device.fileCache.freeTargetKB
    fileWorkingSetKB = device.fileCache.workingSetKB ?? device.memoryKB / 10
    refaultCostMsPerMB = device.fileCache.refaultCostMs
    swapKB = device.appSwap?.budgetKB ?? device.zram?.sizeKB ?? 0
    zramPermille = device.zramPermille
    availableKB = physicalKB - wiredKB
  }

  /// Available memory once the pending allocation lands: what the levels are compared with.
  @inlinable public var availableAfterPendingKB: Int { availableKB - pendingKB }
  /// The page cache: every available page above the free target.
  @inlinable public var fileBackedKB: Int { max(0, availableKB - freeTargetKB) }
  /// Pages nobody holds: up to the free target, the cache taking the rest.
  @inlinable public var freeKB: Int { min(freeTargetKB, availableKB) }
  /// The processes' memory as physical pages hold it: anonymous and compressed.
  @inlinable public var heldKB: Int { anonymousKB + compressedKB }
  /// Swap not in use.
  @inlinable public var swapFreeKB: Int { swapKB - swappedKB }
  /// The part of the file working set the cache cannot hold: read again every second.
  @inlinable public var refaultKBPerSecond: Int { max(0, fileWorkingSetKB - fileBackedKB) }
  /// The share of time, in permille, that some task waits for refaults: the megabytes read again
  /// each second times the cost of each, at most all the time.
  @inlinable public var stallPermille: Int {
    min(1000, refaultKBPerSecond * refaultCostMsPerMB / 1024)
  }

  /// Adds `kilobytes` (negative: removes) to the memory the processes hold, in the compressor
  /// when `compressed`.
  mutating func hold(_ kilobytes: Int, compressed: Bool) {
    if compressed { compressedKB += kilobytes } else { anonymousKB += kilobytes }
    availableKB -= kilobytes
  }
}
