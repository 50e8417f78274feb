extension DeviceProfile {
  /// zram's compression ratio in permille when swap costs RAM (zram given, app swap not); 0 when
  /// swap costs none or there is none: what the memory in swap occupies is
  /// `Zram.storedKB(footprintKB:compressionPermille:)` of it.
  public var zramPermille: Int { appSwap == nil ? zram?.compressionPermille ?? 0 : 0 }

  /// A ratio held in permille, as a profile writes it (`2`, `2.5`), for messages.
  static func ratioText(_ permille: Int) -> String {
    var text = Units.decimal(Double(permille) / 1000, digits: 3)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// zram, Android's swap (docs/model.md, "Memory"): a swap device whose pages are compressed and
  /// kept in RAM. A suspended app's memory goes to it as it suspends, while the memory in it stays
  /// within `sizeKB` (the disk size the kernel reports as `SwapTotal`; `SwapFree` is the size less
  /// the memory swapped, counted uncompressed, one swap slot a page); its compressed copy occupies
  /// footprint ÷ ratio of physical memory, so swapping frees only (1 − 1/ratio) of each page.
  public struct Zram: Sendable, Equatable {
    /// The zram disk's size: the most memory it holds, uncompressed.
    public var sizeKB: Int
    /// How much the memory in it is compressed: 2000 means 2:1.
    public var compressionPermille: Int

    /// The compression ratio when a profile gives none: 2:1, the ratio Linux's zram documentation
    /// expects (Documentation/admin-guide/blockdev/zram.rst, "Set Disksize": "we expect a 2:1
    /// compression ratio").
    public static let defaultCompressionPermille = 2_000

    /// zram of `sizeKB`, compressing by `compressionPermille` (2:1 by default).
    public init(sizeKB: Int, compressionPermille: Int = defaultCompressionPermille) {
      self.sizeKB = sizeKB
      self.compressionPermille = compressionPermille
    }

    /// The physical memory `footprintKB` of swapped memory occupies when compressed by
    /// `compressionPermille`; 0 with no ratio (swap that costs no RAM: app swap on storage).
    @inlinable public static func storedKB(footprintKB: Int, compressionPermille: Int) -> Int {
      compressionPermille > 0 ? footprintKB * 1000 / compressionPermille : 0
    }
  }
}
