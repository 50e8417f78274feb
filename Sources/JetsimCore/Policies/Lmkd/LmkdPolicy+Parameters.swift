extension LmkdPolicy {
  /// The policy's settings; the defaults are those of lmkd.cpp's `update_props` (line 4123, AOSP
  /// platform/system/memory/lmkd 767ae23) on a device that is not `ro.config.low_ram`. Each is the
  /// `ro.lmk.*` property it is named after.
  public struct Parameters: Sendable, Equatable {
    /// `ro.lmk.use_minfree_levels`: the legacy minfree mode (`mp_event_common`) instead of PSI.
    public var useMinfreeLevels = false
    /// `ro.lmk.kill_heaviest_task`: inside one adj, the heaviest rather than the one that got the
    /// adj longest ago.
    public var killHeaviest = false
    /// The six minfree levels in KB, ascending (legacy mode); nil to derive them from memory.
    public var minfreeKB: [Int]?
    /// A 64-bit device raises the two cached minfree levels (× 3/2 and × 7/4).
    public var is64Bit = true
    /// `ro.lmk.lowmem_min_oom_score`: LOW_MEM kills only at this adj or above; at least 201.
    public var lowmemMinOomScore = 701
    /// `ro.lmk.pressure_after_kill_min_score`.
    public var pressureAfterKillMinScore = 0
    /// `ro.lmk.swap_free_low_percentage`: swap is low below this share of its size.
    public var swapFreeLowPercentage = 10
    /// `ro.lmk.thrashing_limit`, in percent of the file cache refaulted in a window.
    public var thrashingLimit = 100
    /// `ro.lmk.thrashing_limit_decay`: each thrashing kill cuts the limit by this percentage.
    public var thrashingLimitDecay = 10
    /// `ro.lmk.thrashing_limit_critical`; nil: three times `thrashingLimit`.
    public var thrashingLimitCriticalGiven: Int?
    /// `ro.lmk.psi_partial_stall_ms`: the stall per 1 s window of a medium PSI event.
    public var psiPartialStallMs = 70
    /// `ro.lmk.psi_complete_stall_ms`: the stall per 1 s window of a critical PSI event.
    public var psiCompleteStallMs = 700
    /// `ro.lmk.swap_util_max`: 100 turns LOW_MEM_AND_SWAP_UTIL off.
    public var swapUtilMax = 100
    /// `ro.lmk.filecache_min_kb`: LOW_FILECACHE_AFTER_THRASHING below this cache.
    public var filecacheMinKB = 0
    /// `ro.lmk.stall_limit_critical`, in percent of PSI full (lmkd reads `avg10`; jetsim its
    /// estimate of the full stall at the moment).
    public var stallLimitCritical = 100
    /// `ro.lmk.direct_reclaim_threshold_ms`: DIRECT_RECL_STUCK once direct reclaim has lasted
    /// longer than this; 0 (the default, `DEF_DIRECT_RECL_THRESH_MS`) turns it off.
    public var directReclaimThresholdMs = 0
    /// The zone watermarks; nil to derive them from memory (`ZoneWatermarks(memoryKB:)`).
    public var watermarks: ZoneWatermarks?
    /// `vm.watermark_scale_factor`, per 10,000, for derived watermarks.
    public var watermarkScaleFactor = ZoneWatermarks.defaultScaleFactor

    /// ActivityManager's `CUR_MAX_CACHED_PROCESSES`: `config_customizedMaxCachedProcesses`, 32 in
    /// AOSP's config.xml (a device overlay or the `max_cached_processes` flag may change it). Half
    /// of it is the limit of empty processes, the rest that of cached apps.
    public var maxCachedProcesses = 32
    /// ActivityManager's `max_empty_time_millis` (`DEFAULT_MAX_EMPTY_TIME_MILLIS`, 1,000 hours).
    public var maxEmptyTimeMs = 1_000 * 3_600_000

    /// The defaults: AOSP lmkd's, PSI mode; ActivityManager's limits.
    public init() {}

    /// ActivityManager's limit of empty processes (`computeEmptyProcessLimit`: half the total).
    public var emptyProcessLimit: Int { maxCachedProcesses / 2 }
    /// Its limit of cached apps: the total less the empty processes' share.
    public var cachedProcessLimit: Int { maxCachedProcesses - emptyProcessLimit }
    /// `CUR_TRIM_EMPTY_PROCESSES`: the empty processes kept whatever their age.
    public var trimEmptyProcesses: Int { min(maxCachedProcesses, 1024) / 2 / 2 }

    /// `thrashing_critical_pct`: the given value, or three times the limit (line 4162).
    public var thrashingLimitCritical: Int { thrashingLimitCriticalGiven ?? thrashingLimit * 3 }
  }

  /// The settings it takes under `policyParameters.lmkd`.
  public static let settings: [PolicySetting<Parameters>] =
    [
      PolicySetting(
        "useMinfreeLevels", \.useMinfreeLevels,
        "legacy minfree mode (ro.lmk.use_minfree_levels) instead of PSI"),
      PolicySetting(
        "killHeaviest", \.killHeaviest,
        "inside one adj, kill the heaviest (ro.lmk.kill_heaviest_task) rather than the one that got the adj first"
      ),
      PolicySetting(
        "minfree", .ascendingSizes(count: adjLevels.count),
        "legacy mode: six sizes, ascending, for adj 0, 100, 200, 250, 900, 950",
        derived: "interpolated from memory",
        read: { $0.minfreeKB.map { .numbers($0) } }
      ) { $0.minfreeKB = $1.numbers },
      PolicySetting(
        "is64Bit", \.is64Bit, "legacy mode: raise the two cached levels (× 3/2, × 7/4)"),
      PolicySetting(
        "watermarks", .ascendingSizes(count: 3),
        "zone watermarks min, low, high", derived: "Linux's rule from memory",
        read: { $0.watermarks.map { .numbers([$0.minKB, $0.lowKB, $0.highKB]) } }
      ) {
        let sizes = $1.numbers
        $0.watermarks = ZoneWatermarks(minKB: sizes[0], lowKB: sizes[1], highKB: sizes[2])
      },
      PolicySetting(
        "watermarkScaleFactor", .integer(1...3000), \.watermarkScaleFactor,
        "vm.watermark_scale_factor for derived watermarks, per 10,000"),
      PolicySetting(
        "maxCachedProcesses", .integer(2...100_000), \.maxCachedProcesses,
        "ActivityManager's cached and empty processes, half each"),
      PolicySetting(
        "maxEmptyTime", .duration, \.maxEmptyTimeMs,
        "ActivityManager: an empty process unused this long dies"),
    ] + propertySettings

  /// The `ro.lmk.*` numbers of PSI mode.
  static let propertySettings: [PolicySetting<Parameters>] = [
    PolicySetting(
      "lowmemMinOomScore", .integer(201...1001), \.lowmemMinOomScore, "ro.lmk.lowmem_min_oom_score"),
    PolicySetting(
      "pressureAfterKillMinScore", .integer(0...1001), \.pressureAfterKillMinScore,
      "ro.lmk.pressure_after_kill_min_score"),
    PolicySetting(
      "swapFreeLowPercentage", .percent, \.swapFreeLowPercentage,
      "ro.lmk.swap_free_low_percentage"),
    PolicySetting(
      "thrashingLimit", .integer(0...10_000), \.thrashingLimit, "ro.lmk.thrashing_limit"),
    PolicySetting(
      "thrashingLimitDecay", .percent, \.thrashingLimitDecay, "ro.lmk.thrashing_limit_decay"),
    PolicySetting(
      "thrashingLimitCritical", .integer(0...30_000), \.thrashingLimitCriticalGiven,
      "ro.lmk.thrashing_limit_critical",
      derived: "3 × thrashingLimit"),
    PolicySetting(
      "psiPartialStallMs", .integer(0...1000), \.psiPartialStallMs, "ro.lmk.psi_partial_stall_ms"),
    PolicySetting(
      "psiCompleteStallMs", .integer(0...1000), \.psiCompleteStallMs,
      "ro.lmk.psi_complete_stall_ms"),
    PolicySetting(
      "swapUtilMax", .percent, \.swapUtilMax, "ro.lmk.swap_util_max; 100% turns it off"),
    PolicySetting("filecacheMin", .size, \.filecacheMinKB, "ro.lmk.filecache_min_kb"),
    PolicySetting(
      "stallLimitCritical", .integer(0...100), \.stallLimitCritical, "ro.lmk.stall_limit_critical"),
    PolicySetting(
      "directReclaimThresholdMs", .integer(0...3_600_000), \.directReclaimThresholdMs,
      "ro.lmk.direct_reclaim_threshold_ms; 0 turns it off"),
  ]

  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "lmkd",
    summary:
      "Android lmkd (15/16, PSI mode): ActivityManager's adj and process limits, kill reasons by watermarks, swap and thrashing",
    defaults: Parameters(), settings: settings, check: { problem($0, on: $1) },
    make: { LmkdPolicy(parameters: $0) })

  /// Watermarks (given, or derived with a `watermarkScaleFactor` other than Linux's) or minfree
  /// levels that cannot fit
  /// `device`: free memory (`LmkdMeminfo`) and the page cache are at most the memory beside the
  /// reserved memory, so a high watermark at or above it holds free memory under it from the start
  /// (no page cache, every moment under pressure), and so does a minfree level (both `other_free`
  /// and `other_file` are below it: a kill whenever lmkd looks). Nil without a device, or when they
  /// fit.
  static func problem(_ parameters: Parameters, on device: DeviceProfile?) -> PolicySettingProblem?
  {
    guard let device, device.reservedKB < device.memoryKB else { return nil }
    let boundKB = device.memoryKB - device.reservedKB
    let bound =
      "below the device's memory less its reserved memory (\(Units.formatSize(device.memoryKB)) − \(Units.formatSize(device.reservedKB)) = \(Units.formatSize(boundKB)))"
    if let marks = parameters.watermarks, marks.highKB >= boundKB {
      let sizes = PolicySettingValue.numbers([marks.minKB, marks.lowKB, marks.highKB])
      return PolicySettingProblem(
        key: "watermarks", value: sizes.text(as: nil), expected: "3 sizes, ascending, \(bound)")
    }
    if parameters.watermarks == nil,
      parameters.watermarkScaleFactor != ZoneWatermarks.defaultScaleFactor,
      ZoneWatermarks(memoryKB: device.memoryKB, scaleFactor: parameters.watermarkScaleFactor).highKB
        >= boundKB
    {
      let fitting = (1...3000).last {
        ZoneWatermarks(memoryKB: device.memoryKB, scaleFactor: $0).highKB < boundKB
      }
      return PolicySettingProblem(
        key: "watermarkScaleFactor", value: "\(parameters.watermarkScaleFactor)",
        expected: fitting.map {
          "at most \($0) on this device, whose derived high watermark must be \(bound)"
        } ?? "a factor that fits, but none does on this device: give 'watermarks' \(bound)")
    }
    if let levels = parameters.minfreeKB, let top = levels.last, top >= boundKB {
      return PolicySettingProblem(
        key: "minfree", value: PolicySettingValue.numbers(levels).text(as: nil),
        expected: "\(levels.count) sizes, ascending, \(bound)")
    }
    return nil
  }
}
