import JetsimCore

/// A JetsamEvent report: the snapshot XNU's memorystatus takes of the whole device when it starts
/// killing under memory pressure, as iOS publishes it (Settings > Privacy > Analytics, sysdiagnose,
/// Xcode's device logs). docs/validation.md describes the format and what jetsim reads of it.
///
/// The kernel builds the snapshot in `memorystatus_init_jetsam_snapshot_locked`
/// (bsd/kern/kern_memorystatus.c), walking the priority bands from the lowest up and each band's list
/// in order, so the process list is in band order; it updates a victim's entry when it kills it
/// (`memorystatus_update_jetsam_snapshot_entry_locked`), which is where `reason` and `killDelta`
/// come from.
public struct JetsamReport: Sendable, Equatable {
  /// One process of the report.
  public struct Process: Sendable, Equatable {
    /// Its name as the kernel truncates it (32 characters at most, `MAXCOMLEN`).
    public var name: String
    /// The process id, if the report gives it.
    public var pid: Int?
    /// Its states: `daemon`, `idle`, `suspended`, `frontmost`, `background`, `resume`, ...
    public var states: [String]
    /// Its jetsam priority band as written (iOS 14 and later); nil in older reports, where the
    /// list's order is the band order.
    public var priority: Int?
    /// Its resident pages (its footprint, in pages).
    public var residentPages: Int
    /// The most pages it ever held, if given.
    public var lifetimeMaxPages: Int?
    /// Why the kernel killed it, if it did (`vm-pageshortage`, `highwater`, ...).
    public var reason: String?
    /// When it was killed, relative to the snapshot, in the kernel's time units; orders the kills.
    public var killDelta: Int?
    /// Its jetsam coalition (`jse_coalition_jetsam_id`, bsd/sys/kern_memorystatus.h), if given: an
    /// app shares one with the XPC services and extensions it launched, and the kernel sorts the
    /// FOREGROUND band by coalition (`memorystatus_sort_bucket_locked`, kern_memorystatus.c:1730).
    public var coalition: Int?
    /// How long it last sat in the IDLE band (`jse_idle_delta`), if the report gives it: the kernel
    /// records it when a process leaves IDLE (`_memstat_record_prio_transition`,
    /// kern_memorystatus.c:2819), so a process with one has been idle and left since.
    public var idleDelta: Int?
    /// Pages the freezer wrote to swap (`physicalPages.frozen_to_swap_pages`,
    /// `jse_frozen_to_swap_pages`), if given: the process is frozen.
    public var frozenToSwapPages: Int?
    /// Why the freezer last passed it over, as the report writes it under the key
    /// `freeze_skip_reason:` (`jse_freeze_skip_reason`, copied from `p_memstat_freeze_skip_reason`
    /// in `memorystatus_init_jetsam_snapshot_entry_locked`, bsd/kern/kern_memorystatus.c:5928; the
    /// reasons are `kMemorystatusFreezeSkipReason*`, bsd/sys/kern_memorystatus.h:184), if given:
    /// `none` when the freezer never looked at it or cleared the reason.
    public var freezeSkipReason: String?

    /// A process as the report lists it.
    public init(
      name: String, pid: Int? = nil, states: [String] = [], priority: Int? = nil,
      residentPages: Int, lifetimeMaxPages: Int? = nil, reason: String? = nil,
      killDelta: Int? = nil
    ) {
      self.name = name
      self.pid = pid
      self.states = states
      self.priority = priority
      self.residentPages = residentPages
      self.lifetimeMaxPages = lifetimeMaxPages
      self.reason = reason
      self.killDelta = killDelta
    }

    /// Whether it is a daemon (launchd job) rather than an app or extension.
    public var isDaemon: Bool { states.contains("daemon") }
    /// Whether it sat idle (a daemon with nothing to do).
    public var isIdle: Bool { states.contains("idle") }
    /// Whether it was on screen.
    public var isFrontmost: Bool { states.contains("frontmost") }
    /// Whether it was suspended.
    public var isSuspended: Bool { states.contains("suspended") }
    /// Whether the kernel counted it active (`kMemorystatusActive`, written as `active` from iOS 15).
    public var isActive: Bool { states.contains("active") }
    /// Whether the freezer holds some of its pages in swap.
    public var isFrozen: Bool { (frozenToSwapPages ?? 0) > 0 }
    /// Whether the freezer considered it among its candidates and passed it over for a reason
    /// other than sitting too high: it records a reason only for the processes it considers
    /// (`memorystatus_is_process_eligible_for_freeze`, bsd/kern/kern_memorystatus_policy.c:446),
    /// which it takes from the IDLE band (`memorystatus_freeze_pick_process`,
    /// kern_memorystatus_policy.c:655 and 703; kern_memorystatus_freeze.c:2549) or from the list
    /// of candidates userspace gives it; one above `FREEZE_MAX_CANDIDATE_BAND` (40 at most,
    /// bsd/sys/kern_memorystatus_freeze.h:103) gets the `elevated` reason (policy.c:568); a
    /// reason written without a name (`(unknown-reason)`) may be that one, so neither counts. A process
    /// keeps its reason until the freezer considers it again (kern_memorystatus_freeze.c:2542).
    public var wasPassedOverByFreezer: Bool {
      guard let freezeSkipReason else { return false }
      return !["none", "elevated", "(unknown-reason)"].contains(freezeSkipReason)
    }
    /// Whether it is kernel_task (pid 0, bsd/kern/bsd_init.c:794) or launchd (pid 1, the clone of
    /// initproc, bsd/kern/kern_fork.c:736), which the kernel keeps in `JETSAM_PRIORITY_INTERNAL`;
    /// by name only when the report gives no pid.
    public var isKernelInternal: Bool {
      if let pid { return pid == 0 || pid == 1 }
      return name == "kernel_task" || name == "launchd"
    }
  }

  /// The file it was read from.
  public var file: String
  /// The device's product code (`iPhone12,1`), if given.
  public var product: String?
  /// The OS build (`iPhone OS 14.2 (18B5061e)`), if given.
  public var osVersion: String?
  /// The kernel's version string (`Darwin Kernel Version 24.5.0: ...; root:xnu-11417.122.4~1/...`),
  /// if given.
  public var kernel: String?
  /// When it was written, as written.
  public var date: String?
  /// The incident identifier, if given.
  public var incident: String?
  /// Bytes a page.
  public var pageSize: Int
  /// The device's page counts (`free`, `active`, `inactive`, `speculative`, `wired`, `throttled`,
  /// ...), as given.
  public var memoryPages: [String: Int]
  /// Pages in the compressor, if the report gives them.
  public var compressorPages: Int?
  /// The pages the compressor holds, counted uncompressed, if the report gives them.
  public var uncompressedPages: Int?
  /// The process the report names as the largest.
  public var largestProcess: String?
  /// The processes, in the report's order (band order).
  public var processes: [Process]
  /// Whether the person who published it cut part of the process list (`...` lines).
  public var trimmed = false

  /// A report read from `file`.
  public init(
    file: String, pageSize: Int, processes: [Process], memoryPages: [String: Int] = [:]
  ) {
    self.file = file
    self.pageSize = pageSize
    self.processes = processes
    self.memoryPages = memoryPages
  }

  /// A number of pages in kilobytes.
  public func kilobytes(pages: Int) -> Int { pages * (pageSize / 1024) }

  /// A process's footprint in kilobytes.
  public func footprintKB(_ process: Process) -> Int { kilobytes(pages: process.residentPages) }

  /// The pages the report counts as the device's memory: free, active, inactive, speculative,
  /// wired and throttled pages, and the compressor's.
  public var countedPages: Int {
    Self.countedPageKinds.reduce(0) { $0 + (memoryPages[$1] ?? 0) } + (compressorPages ?? 0)
  }

  /// The `memoryPages` kinds that `countedPages` adds up.
  public static let countedPageKinds = [
    "free", "active", "inactive", "speculative", "wired", "throttled",
  ]

  /// Free memory when the snapshot was taken (just before the first kill).
  public var freeKB: Int? { memoryPages["free"].map { kilobytes(pages: $0) } }

  /// The memory jetsam counts as available when the snapshot was taken: XNU's
  /// `memorystatus_available_pages`, which `VM_CHECK_MEMORYSTATUS` (xnu-11417 osfmk/vm/vm_page.h)
  /// sets on a device with jetsam to the pageable file-backed pages plus the free ones (plus the
  /// secluded pool over its target, which reports do not give, and purgeable pages only without
  /// the compressor, which every iPhone has). Nil when the report lacks `fileBacked` or `free`.
  public var availableKB: Int? {
    guard let fileBacked = memoryPages["fileBacked"], let free = memoryPages["free"] else {
      return nil
    }
    return kilobytes(pages: fileBacked + free)
  }

  /// The processes the kernel killed, in the order it killed them: by `killDelta` when every
  /// victim has one, else in list order.
  public var victims: [Int] {
    let killed = processes.indices.filter { processes[$0].reason != nil }
    guard killed.allSatisfy({ processes[$0].killDelta != nil }) else { return killed }
    return killed.sorted {
      (processes[$0].killDelta ?? 0, $0) < (processes[$1].killDelta ?? 0, $1)
    }
  }

  /// Whether the priorities are written in XNU's first numbering (bands 0 to 21, before
  /// `JETSAM_PRIORITY_REVISION` 2 multiplied them by 10): no priority above 21.
  public var usesFirstBandNumbering: Bool {
    processes.allSatisfy { ($0.priority ?? 0) <= 21 }
  }

  /// The xnu version's first number in a kernel version string (11417 for `root:xnu-11417.122.4~1`),
  /// or nil.
  public static func xnuVersion(of kernel: String?) -> Int? {
    guard let after = kernel?.components(separatedBy: "xnu-").dropFirst().first else { return nil }
    return Int(after.prefix { $0.isNumber })
  }

  /// Each process's band predicted from its states and kind, the report read as a whole
  /// (`BandPredictor`), never from its priority.
  public var predictedBands: [Int] { BandPredictor.bands(of: processes, kernel: kernel) }

  /// Warnings a person should see about what the report can show: a trimmed list, no processes, no
  /// kill.
  public var warnings: [String] {
    var warnings: [String] = []
    if trimmed {
      warnings.append(
        "the process list was trimmed by whoever published it ('...' lines); \(processes.count) complete \(processes.count == 1 ? "entry was" : "entries were") kept"
      )
    }
    if processes.isEmpty {
      warnings.append("it lists no processes")
    } else if victims.isEmpty {
      warnings.append("it records no kill")
    }
    return warnings
  }
}
