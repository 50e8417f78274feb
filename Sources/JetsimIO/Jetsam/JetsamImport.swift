import JetsimCore

/// A JetsamEvent report turned into jetsim's terms: a device profile with the report's system
/// processes, app profiles for its apps, and a snapshot of the device just before the first kill
/// (every victim restored). docs/validation.md explains each choice.
public struct ImportedReport: Sendable {
  /// What a process of the report became.
  public enum Role: Sendable, Equatable {
    /// An app (it has a bundle and foreground or suspended states).
    case app
    /// A daemon or extension, of the kind given.
    case systemProcess(SystemProcessKind)
  }

  /// The report.
  public var report: JetsamReport
  /// The device, with the report's daemons and extensions as system processes.
  public var device: DeviceProfile
  /// The report's apps.
  public var apps: [AppProfile]
  /// Every process of the report at the time of the snapshot, in the report's (band) order.
  public var snapshot: Snapshot
  /// For each process of the report, its name in jetsim: its own, or `name#pid` for a second
  /// process of one name.
  public var names: [String]
  /// For each process of the report, what it became.
  public var roles: [Role]
  /// For each process of the report, its jetsam band in XNU's current numbering.
  public var bands: [Int]
  /// Where the device's memory came from, in words.
  public var memorySource: String
  /// What a person should know about the result.
  public var warnings: [String]

  /// Refuses a report whose scenario could not be run: one with no app process (an empty process
  /// list, or daemons only), since a scenario needs at least one app. `import-jetsam` and
  /// `validate` check this; `replay` reads such a report as it is.
  public func checkImportable() throws(JetsimError) {
    guard apps.isEmpty else { return }
    let processes = report.processes.count
    throw .invalidValue(
      path: report.file, keyPath: "processes",
      value: processes == 0
        ? "empty" : "\(processes) \(processes == 1 ? "process" : "processes"), none of them an app",
      expected:
        "at least one app (a suspended, background or frontmost process that is not a daemon) for a scenario: there is nothing to import"
    )
  }

  /// A scenario that starts from the snapshot and runs until memory settles.
  public func scenario(name: String) -> Scenario {
    var scenario = Scenario(
      name: name,
      summary:
        "The device of the JetsamEvent report \(FileSystem.split(report.file).name) just before its first kill.",
      device: device, apps: apps, actions: [], origin: "import of \(report.file)")
    scenario.snapshot = snapshot
    return scenario
  }
}

/// Converts JetsamEvent reports (`jetsim import-jetsam`).
public enum JetsamImport {
  /// The report in jetsim's terms.
  ///
  /// - Complexity: O(*n*) for *n* processes.
  public static func convert(_ report: JetsamReport) -> ImportedReport {
    let names = uniqueNames(report.processes)
    let roles = roles(of: report.processes)
    let bands = bands(of: report)
    let catalog = report.product.flatMap(DeviceCatalog.model(productCode:))
    var warnings = report.warnings
    let permille = compressionPermille(report)
    var (memoryKB, memorySource) = memory(report, catalog)
    if catalog == nil, let product = report.product {
      warnings.append(
        "product \(product.excerpt(limit: 30)) is not in the device table; memory \(memorySource)")
    }
    var processes = Processes()
    for index in report.processes.indices {
      processes.add(
        report.processes[index], of: report, name: names[index], role: roles[index],
        band: bands[index], limitKB: catalog.map { $0.foregroundLimitMB * 1024 },
        compressionPermille: permille)
    }
    // The device as the snapshot found it: the free pages the kernel kept (its free target) and
    // the page cache stay as the report counts them, so available memory is the report's.
    let freeKB = report.freeKB ?? 0
    let fileBackedKB = report.memoryPages["fileBacked"].map(report.kilobytes(pages:)) ?? 0
    let unheldKB = freeKB + fileBackedKB
    var reservedKB = memoryKB - processes.occupiedKB - unheldKB
    if reservedKB < 0 {
      warnings.append(
        "the processes, free and file-backed memory (\(Units.megabytes(processes.occupiedKB + unheldKB))) exceed the memory (\(Units.megabytes(memoryKB))); memory raised to fit, nothing reserved"
      )
      memoryKB = processes.occupiedKB + unheldKB
      reservedKB = 0
    }
    let modelName = catalog?.name ?? report.product ?? "device"
    var device = DeviceProfile(
      name: "\(modelName) (\(report.osVersion ?? "unknown OS"))", memoryKB: memoryKB,
      reservedKB: reservedKB, foregroundLimitKB: catalog.map { $0.foregroundLimitMB * 1024 },
      compressionRatio: Double(permille) / 1000,
      source:
        "imported from the JetsamEvent report \(FileSystem.split(report.file).name)\(report.incident.map { " (incident \($0))" } ?? ""): memory is \(memorySource); reserved is the memory less the processes' footprints (suspended ones compressed at the report's ratio), the free memory and the file-backed memory at the snapshot; the free target is the free memory at the snapshot, so the page cache starts as the report's file-backed pages"
    )
    device.fileCache.freeTargetKB = freeKB
    device.systemProcesses = processes.systemProcesses
    return ImportedReport(
      report: report, device: device, apps: processes.apps, snapshot: Snapshot(processes.entries),
      names: names, roles: roles, bands: bands, memorySource: memorySource, warnings: warnings)
  }

  /// The ratio the report's compressor achieved, in thousandths (1000: none), at most 16.
  static func compressionPermille(_ report: JetsamReport) -> Int {
    guard let compressed = report.compressorPages, let uncompressed = report.uncompressedPages,
      compressed > 0, uncompressed > compressed
    else { return 1000 }
    return min(16_000, uncompressed * 1000 / compressed)
  }

  /// The device's memory and where it came from: the device table's figure for the product, else
  /// the report's page counts.
  static func memory(_ report: JetsamReport, _ catalog: DeviceCatalog.Model?) -> (
    kilobytes: Int, source: String
  ) {
    if let catalog {
      return (
        catalog.memoryMB * 1024,
        "the memory iOS reports on an \(catalog.name) (Profiles/ios-devices.csv)"
      )
    }
    return (
      report.kilobytes(pages: report.countedPages),
      "estimated from the report's page counts (free, active, inactive, speculative, wired, throttled and compressor pages)"
    )
  }

  /// The report's processes as apps, system processes and snapshot entries, and the physical
  /// memory they occupy.
  struct Processes {
    var apps: [AppProfile] = []
    var systemProcesses: [SystemProcess] = []
    var entries: [Snapshot.Entry] = []
    var occupiedKB = 0

    mutating func add(
      _ process: JetsamReport.Process, of report: JetsamReport, name: String,
      role: ImportedReport.Role, band: Int, limitKB: Int?, compressionPermille permille: Int
    ) {
      let footprint = report.kilobytes(pages: process.residentPages)
      let state: AppState
      switch role {
      case .app:
        state = process.isFrontmost ? .active : process.isSuspended ? .suspended : .background
        var app = AppProfile(
          id: name, name: process.name, category: "imported", residentKB: footprint,
          backgroundWorkMs: 0)
        if let limitKB, footprint > limitKB {
          // The report shows it alive at that size: its limit was higher.
          app.memoryLimitKB = footprint
        }
        apps.append(app)
      case .systemProcess(let kind):
        let system = SystemProcess(
          name: name, kind: kind, footprintKB: footprint,
          band: band == JetsamPriority.idle && kind != .activeDaemon ? nil : band)
        state = system.runningState
        systemProcesses.append(system)
      }
      occupiedKB += state == .suspended && permille > 1000 ? footprint * 1000 / permille : footprint
      entries.append(
        Snapshot.Entry(process: name, state: state, footprintKB: footprint, band: band))
    }
  }

  /// Each process's name in jetsim: its own the first time, `name#pid` (or `name#2`, ...) after.
  static func uniqueNames(_ processes: [JetsamReport.Process]) -> [String] {
    var used = Set<String>()
    var names: [String] = []
    for (index, process) in processes.enumerated() {
      let tag = process.pid.map(String.init) ?? "\(index + 1)"
      var name = process.name
      var attempt = 1
      while !used.insert(name).inserted {
        name = "\(process.name)#\(tag)" + (attempt > 1 ? ".\(attempt)" : "")
        attempt += 1
      }
      names.append(name)
    }
    return names
  }

  /// What each process becomes: a daemon a system process (idle or active); the first process on
  /// screen the app on screen; a suspended extension or widget (by its name) an extension; other
  /// suspended or background processes apps; anything else (SpringBoard, a second process on
  /// screen) an active daemon.
  static func roles(of processes: [JetsamReport.Process]) -> [ImportedReport.Role] {
    var onScreen = false
    return processes.map { process in
      if process.isDaemon {
        return .systemProcess(process.isIdle ? .idleDaemon : .activeDaemon)
      }
      if process.isFrontmost, !onScreen {
        onScreen = true
        return .app
      }
      let lowered = process.name.lowercased()
      let extensionName =
        lowered.contains("extension") || lowered.contains("widget") || lowered.hasSuffix("extens")
      if process.isSuspended { return extensionName ? .systemProcess(.extension) : .app }
      if process.states.contains("background"), !extensionName { return .app }
      return .systemProcess(.activeDaemon)
    }
  }

  /// Each process's band in XNU's current numbering: its priority (times 10 in a report written
  /// in the first numbering, bands 0 to 21). Without priorities, the band `BandPredictor` predicts
  /// from its states and kind; not from its place in the list, which would hand the kernel's order
  /// back to a replay of the report.
  static func bands(of report: JetsamReport) -> [Int] {
    realBands(of: report.processes) ?? report.predictedBands
  }

  /// The bands a report writes, in XNU's current numbering (nil if it gives no priorities).
  public static func realBands(of processes: [JetsamReport.Process]) -> [Int]? {
    guard processes.contains(where: { $0.priority != nil }) else { return nil }
    let scale = processes.allSatisfy { ($0.priority ?? 0) <= 21 } ? 10 : 1
    return processes.map { ($0.priority ?? 0) * scale }
  }
}

extension JetsamImport {
  /// The folder name for a report file: its name without `.ips`, `.synced`, `.crash`, `.json` or
  /// `.txt`.
  public static func folderName(for path: String) -> String {
    var name = FileSystem.split(path).name
    for suffix in [".synced", ".ips", ".crash", ".json", ".txt"] where name.hasSuffix(suffix) {
      name.removeLast(suffix.count)
    }
    return name.isEmpty || name.hasPrefix(".") ? "report" : name
  }

  /// Writes each imported report into `destination/<name>/` (its `device.json` and a
  /// `scenario.json` that starts from its snapshot), with `imported.csv` listing them; all or
  /// nothing.
  public static func write(
    _ reports: [(name: String, imported: ImportedReport)], to destination: String
  )
    throws(JetsimError)
  {
    let folder = try ReportFolder(destination: destination, kind: .imported)
    do {
      var table = CSVBuffer()
      table.appendRow([
        "report", "folder", "product", "device", "processes", "apps", "system_processes", "kills",
        "warnings",
      ])
      for (name, imported) in reports {
        let report = imported.report
        let sub = try ReportFolder(named: name, in: folder, kind: .imported)
        try sub.write(
          ProfileWriter.json(imported.device, standalone: true) + "\n", as: .device)
        try sub.write(
          ProfileWriter.scenarioJSON(
            name: name,
            description:
              "The device of the JetsamEvent report \(FileSystem.split(report.file).name) just before its first kill, every victim restored (jetsim import-jetsam).",
            device: .path(ReportFile.device.name), apps: imported.apps, snapshot: imported.snapshot),
          as: .scenario)
        table.appendRow([
          FileSystem.split(report.file).name, name, report.product ?? "", imported.device.name,
          "\(report.processes.count)", "\(imported.apps.count)",
          "\(imported.device.systemProcesses.count)", "\(report.victims.count)",
          imported.warnings.joined(separator: "; "),
        ])
      }
      try folder.write(table.text, as: .imported)
      try folder.commit()
    } catch {
      folder.discard()
      throw error
    }
  }
}
