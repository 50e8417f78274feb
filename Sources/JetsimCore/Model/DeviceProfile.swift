/// A device: its memory, what the system keeps for itself, its limits and pressure thresholds.
///
/// All sizes are kilobytes and all durations milliseconds. In JSON (docs/profiles.md) sizes and
/// durations are written with units, and every field but `name`, `memory` and `reserved` is
/// optional. Each stored field has its key in `DeviceProfile.jsonKeys` (DeviceProfile+Keys.swift),
/// which the JSON reader and writer follow.
///
/// The thresholds and the foreground limit are given or derived: those the profile gives are kept
/// (`given`), the others follow `memoryKB` and `reservedKB` whenever they change.
public struct DeviceProfile: Sendable, Equatable {
  /// The device's name, as written in reports.
  public var name: String
  /// Physical memory as the OS reports it. Setting it derives again the thresholds and foreground
  /// limit the profile did not give.
  public var memoryKB: Int { didSet { derive() } }
  /// Memory held by the kernel and wired memory (and by daemons the profile does not list as
  /// system processes), never available to processes. Setting it derives again the foreground
  /// limit if the profile did not give it.
  public var reservedKB: Int { didSet { derive() } }
  /// The thresholds and foreground limit the profile gives (nil: derived).
  var given = Given() { didSet { derive() } }
  /// The thresholds and foreground limit in force: the given ones, the others derived from the
  /// memory (kept in step with `given`, `memoryKB` and `reservedKB` by `derive()`).
  @usableFromInline var derived: Derived
  /// The long-idle reaper's settings (on by default, as on iOS).
  public var reaper = Reaper()
  /// App swap (M-series iPads, `memorystatus_swap_all_apps`): suspended apps' memory may go to
  /// swap, up to a budget; nil on devices without it.
  public var appSwap: AppSwap?
  /// zram (Android): suspended apps' memory goes to a compressed swap kept in RAM; nil on devices
  /// without it.
  public var zram: Zram?
  /// XNU's freezer (`CONFIG_FREEZE`, iPhones): the `jetsam` policy freezes suspended apps to swap
  /// under pressure; nil on devices without it.
  public var freezer: Freezer?
  /// The page cache: the free memory the kernel keeps, the file working set and the cost of a
  /// refault (docs/model.md, "Memory").
  public var fileCache = FileCache()
  /// How much suspended apps' memory is compressed: 1000 means none, 2000 means 2:1.
  public var compressionPermille: Int
  /// The time didEnterBackground may take before the watchdog kills the app.
  public var enterBackgroundTimeoutMs: Int
  /// The longest a background task or background wake may run before the app is killed.
  public var backgroundTaskLimitMs: Int
  /// Where the figures come from, for people reading the profile.
  public var source: String?
  /// Settings of the built-in policies on this device.
  public var policySettings = PolicySettings()
  /// The system's own processes (daemons, extensions, widgets), which share memory with the apps
  /// (docs/model.md §11). `reservedKB` is what the kernel and wired memory hold besides them.
  public var systemProcesses: [SystemProcess] = []

  /// The footprint at which an app is killed (`per-process-limit`) unless its profile overrides it;
  /// derived (`memoryKB - reservedKB`) unless given. Setting it gives it.
  public var foregroundLimitKB: Int {
    @inlinable get { derived.foregroundLimitKB }
    set { given.foregroundLimitKB = newValue }
  }
  /// Free memory below this is the `warning` level. Setting it gives it.
  public var warningThresholdKB: Int {
    @inlinable get { derived.levels.pressureKB }
    set { given.levels.pressure = newValue }
  }
  /// Free memory below this is the `critical` level: the policy kills until it is not. Setting it
  /// gives it, and the levels not given follow it by XNU's ratios (`MemoryLevels`).
  public var criticalThresholdKB: Int {
    @inlinable get { derived.levels.criticalKB }
    set { given.levels.critical = newValue }
  }
  /// jetsam's critical level while its IDLE band holds anyone (XNU's idle level): never below
  /// `criticalThresholdKB`. Setting it gives it.
  public var idleThresholdKB: Int {
    @inlinable get { derived.levels.idleKB }
    set { given.levels.idle = newValue }
  }
  /// Below this, jetsam's long-idle reaper sweeps (XNU's reaper level). Setting it gives it.
  public var reaperThresholdKB: Int {
    @inlinable get { derived.levels.reaperKB }
    set { given.levels.reaper = newValue }
  }

  /// The physical memory a footprint occupies in `state`: suspended memory is compressed by the
  /// device's ratio (policies still see the footprint).
  @inlinable public func physicalKB(footprintKB: Int, state: AppState) -> Int {
    Self.physicalKB(
      footprintKB: footprintKB, state: state, compressionPermille: compressionPermille)
  }

  /// `physicalKB(footprintKB:state:)` on a device whose ratio is `compressionPermille`: for code
  /// that keeps the ratio at hand rather than the whole profile (it runs on every change, so it
  /// is inlined: the compiler had left it a call of its own).
  @inlinable @inline(__always) package static func physicalKB(
    footprintKB: Int, state: AppState, compressionPermille: Int
  ) -> Int {
    state == .suspended && compressionPermille > 1000
      ? footprintKB * 1000 / compressionPermille : footprintKB
  }

  /// Memory available to apps: `memoryKB - reservedKB`.
  @inlinable public var usableKB: Int { memoryKB - reservedKB }

  /// A device profile. Levels left out follow XNU's for `memoryKB` (`MemoryLevels`: by DRAM class,
  /// or by XNU's ratios from a critical level given alone); the foreground limit left out is the
  /// whole usable memory.
  public init(
    name: String, memoryKB: Int, reservedKB: Int, foregroundLimitKB: Int? = nil,
    warningThresholdKB: Int? = nil, criticalThresholdKB: Int? = nil,
    idleThresholdKB: Int? = nil, reaperThresholdKB: Int? = nil,
    compressionRatio: Double = 1, enterBackgroundTimeoutMs: Int = Defaults.enterBackgroundTimeoutMs,
    backgroundTaskLimitMs: Int = Defaults.backgroundTaskLimitMs, source: String? = nil
  ) {
    self.name = name
    self.memoryKB = memoryKB
    self.reservedKB = reservedKB
    let given = Given(
      levels: MemoryLevels.Given(
        critical: criticalThresholdKB, idle: idleThresholdKB, pressure: warningThresholdKB,
        reaper: reaperThresholdKB),
      foregroundLimitKB: foregroundLimitKB)
    self.given = given
    self.derived = Derived(memoryKB: memoryKB, reservedKB: reservedKB, given: given)
    self.compressionPermille = Int((compressionRatio * 1000).rounded())
    self.enterBackgroundTimeoutMs = enterBackgroundTimeoutMs
    self.backgroundTaskLimitMs = backgroundTaskLimitMs
    self.source = source
  }

  /// The same device with `memoryKB` of memory: the thresholds and the foreground limit the profile
  /// did not give are derived again from the new memory; everything else stays.
  public func withMemory(_ memoryKB: Int) -> DeviceProfile {
    var device = self
    device.memoryKB = memoryKB  // and so `derive()`: the given values stay, the others follow
    return device
  }

  /// Derives again what was not given, from the memory and the reserved memory.
  private mutating func derive() {
    derived = Derived(memoryKB: memoryKB, reservedKB: reservedKB, given: given)
  }

  /// A copy whose strings share no storage with this one (for runs on other threads).
  package var unshared: DeviceProfile {
    var copy = self
    copy.name = name.unshared
    copy.source = source?.unshared
    copy.systemProcesses = systemProcesses.map(\.unshared)
    return copy
  }

  /// The pressure level at `availableKB` of available memory (`DeviceMemory.availableKB`).
  @inlinable
  public func level(availableKB: Int) -> PressureLevel {
    if availableKB < criticalThresholdKB { return .critical }
    if availableKB < warningThresholdKB { return .warning }
    return .normal
  }

  /// The problems of the swap keys: zram's size, and one swap device at most.
  private func swapProblems() -> [(key: String, value: String, expected: String)] {
    guard let zram else { return [] }
    var found: [(String, String, String)] = []
    if zram.sizeKB <= 0 {
      found.append(("zram.size", Units.formatSize(zram.sizeKB), "more than 0KB"))
    }
    if appSwap != nil {
      found.append(("zram", "given with appSwap", "appSwap or zram, not both"))
    }
    // A suspended app already occupies footprint ÷ compressionRatio: swapping it to a zram that
    // compresses less would take more memory than it frees.
    if zram.compressionPermille < compressionPermille {
      found.append(
        (
          "zram.compressionRatio", Self.ratioText(zram.compressionPermille),
          "at least the device's compressionRatio (\(Self.ratioText(compressionPermille))),"
            + " or a swap-out would take more memory than it frees"
        ))
    }
    return found
  }

  /// The problems of the freezer's keys: a threshold below the memory (the kernel asserts it,
  /// `memorystatus_init`, kern_memorystatus.c:2172), a largest freeze of more than 0 and a budget
  /// of at least one page.
  private func freezerProblems() -> [(key: String, value: String, expected: String)] {
    guard let freezer else { return [] }
    var found: [(String, String, String)] = []
    if let threshold = freezer.thresholdKB, threshold <= 0 || threshold >= memoryKB {
      found.append(
        (
          "freezer.threshold", Units.formatSize(threshold),
          "more than 0KB and less than memory (\(Units.formatSize(memoryKB)))"
        ))
    }
    if let most = freezer.maxFreezeKB, most <= 0 {
      found.append(("freezer.maxFreeze", Units.formatSize(most), "more than 0KB"))
    }
    if freezer.dailyBudgetKB < Freezer.pageKB {
      found.append(
        (
          "freezer.dailyBudget", Units.formatSize(freezer.dailyBudgetKB),
          "at least \(Units.formatSize(Freezer.pageKB)), one page"
        ))
    }
    return found
  }

  /// Problems that make the profile unusable, as (key, value, expectation) triples.
  package func problems() -> [(key: String, value: String, expected: String)] {
    var found: [(String, String, String)] = []
    if memoryKB <= 0 { found.append(("memory", Units.formatSize(memoryKB), "more than 0KB")) }
    if reservedKB >= memoryKB {
      found.append(
        (
          "reserved", Units.formatSize(reservedKB),
          "less than memory (\(Units.formatSize(memoryKB)))"
        ))
    }
    if criticalThresholdKB > warningThresholdKB {
      found.append(
        (
          "criticalThreshold", Units.formatSize(criticalThresholdKB),
          "at most warningThreshold (\(Units.formatSize(warningThresholdKB)))"
        ))
    }
    if reservedKB < memoryKB, fileCache.freeTargetKB >= memoryKB - reservedKB {
      found.append(
        (
          "fileCache.freeTarget", Units.formatSize(fileCache.freeTargetKB),
          "less than the memory left beside the reserved memory (\(Units.megabytes(memoryKB - reservedKB)))"
        ))
    }
    if let workingSet = fileCache.workingSetKB, workingSet > memoryKB {
      found.append(
        (
          "fileCache.workingSet", Units.formatSize(workingSet),
          "at most memory (\(Units.formatSize(memoryKB)))"
        ))
    }
    found += swapProblems()
    found += freezerProblems()
    if foregroundLimitKB <= 0 {
      found.append(("foregroundLimit", Units.formatSize(foregroundLimitKB), "more than 0KB"))
    }
    // The system processes must fit beside the reserved memory when they all run.
    let system = systemProcesses.reduce(0) {
      $0 + physicalKB(footprintKB: $1.footprintKB, state: $1.runningState)
    }
    if reservedKB < memoryKB, system > memoryKB - reservedKB {
      found.append(
        (
          "systemProcesses", "\(Units.megabytes(system)) in all",
          "at most the memory left beside the reserved memory (\(Units.megabytes(memoryKB - reservedKB)))"
        ))
    }
    if let (policy, problem) = policySettings.problem(on: self) {
      found.append(("policyParameters.\(policy).\(problem.key)", problem.value, problem.expected))
    }
    return found
  }
}

extension DeviceProfile {
  /// The thresholds and foreground limit a profile gives; nil ones are derived.
  struct Given: Sendable, Equatable {
    /// The memory levels given.
    var levels = MemoryLevels.Given()
    /// The foreground limit given.
    var foregroundLimitKB: Int?
  }

  /// The thresholds and foreground limit in force: the given ones, and the others derived.
  @usableFromInline struct Derived: Sendable, Equatable {
    /// The memory levels (`MemoryLevels`).
    @usableFromInline var levels: MemoryLevels
    /// The foreground limit: given, or all the usable memory.
    @usableFromInline var foregroundLimitKB: Int

    /// What a device of `memoryKB`, `reservedKB` of it reserved, has in force when it gives
    /// `given`.
    init(memoryKB: Int, reservedKB: Int, given: Given) {
      levels = MemoryLevels(memoryKB: memoryKB, given: given.levels)
      foregroundLimitKB = given.foregroundLimitKB ?? (memoryKB - reservedKB)
    }
  }
}
