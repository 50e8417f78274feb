extension DeviceProfile {
  /// The device's page cache (docs/model.md, "Memory"): how much free memory the kernel keeps
  /// before it takes file pages, the file pages the device needs each second, and what reading a
  /// missing one again costs.
  public struct FileCache: Sendable, Equatable {
    /// The free memory the kernel keeps (XNU's `vm_page_free_target`: on iOS at most 2,000 pages,
    /// `VM_PAGE_FREE_TARGET_LIMIT` in xnu-11417 osfmk/vm/vm_pageout.c, 32 MB of 16 KB pages).
    public var freeTargetKB = Defaults.freeTargetKB
    /// The file pages (code, mapped files, media) the device touches each second; nil: a tenth of
    /// the memory.
    public var workingSetKB: Int?
    /// How long some task waits for each megabyte read again.
    public var refaultCostMs = Defaults.refaultCostMs

    /// A page cache with these settings.
    public init(
      freeTargetKB: Int = Defaults.freeTargetKB, workingSetKB: Int? = nil,
      refaultCostMs: Int = Defaults.refaultCostMs
    ) {
      self.freeTargetKB = freeTargetKB
      self.workingSetKB = workingSetKB
      self.refaultCostMs = refaultCostMs
    }
  }
}
