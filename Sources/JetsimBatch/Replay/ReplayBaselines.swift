import JetsimCore
import JetsimIO

extension ReportReplay {
  /// Adds the baseline that needs no policy (`Replay.listOrderBaseline`): the report's processes
  /// in its list order, less those `leftOut` (victims of kills no policy decides). With the count
  /// handed in, it takes them until they free `target` KB, as each policy does; deciding the count,
  /// it kills one while the available memory, with what the ones before it freed, is below the
  /// level of its band (the idle level in the IDLE band, the critical level above), as
  /// `Replay.decidedVictims` does for a policy. Footprints are the report's.
  mutating func addListOrderBaseline(
    _ imported: ImportedReport, leftOut: Set<String>, freeingKB target: Int
  ) {
    let report = imported.report
    let order = report.processes.indices.filter { !leftOut.contains(imported.names[$0]) }
    var freed = 0
    var victims: [String] = []
    for index in order where target > 0 && freed < target {
      victims.append(imported.names[index])
      freed += report.footprintKB(report.processes[index])
    }
    predicted[Replay.listOrderBaseline] = victims
    guard let levels, decided != nil else { return }
    var available = levels.availableKB
    var chosen: [String] = []
    for index in order {
      let level =
        imported.bands[index] < JetsamPriority.background ? levels.idleKB : levels.criticalKB
      guard available < level else { break }
      chosen.append(imported.names[index])
      available += report.footprintKB(report.processes[index])
    }
    decided?[Replay.listOrderBaseline] = chosen
  }

  /// For a report that gives priorities, sets each process's real band beside the one
  /// `BandPredictor` predicts from the report without reading them.
  mutating func addBands(of report: JetsamReport) {
    guard let real = JetsamImport.realBands(of: report.processes) else { return }
    bands = zip(report.processes, zip(real, report.predictedBands)).map { process, bands in
      BandRow(
        pid: process.pid, process: process.name, states: process.states, realBand: bands.0,
        predictedBand: bands.1)
    }
    let context = BandPredictor.Context(processes: report.processes, kernel: report.kernel)
    evidenceCeilingScore = Self.ceiling(
      real: real, evidence: report.processes.map { BandPredictor.evidence(of: $0, in: context) })
  }

  /// The best score a rule that reads only `evidence` can reach against `real`: within each group
  /// of equal evidence, as many as share the group's commonest band, exactly and by class.
  /// - Complexity: O(*n*) for *n* processes.
  static func ceiling(
    real: [Int], evidence: [BandPredictor.Evidence]
  ) -> (exact: Int, sameClass: Int) {
    var bandsBy: [BandPredictor.Evidence: [Int: Int]] = [:]
    var classesBy: [BandPredictor.Evidence: [String: Int]] = [:]
    for (band, seen) in zip(real, evidence) {
      bandsBy[seen, default: [:]][band, default: 0] += 1
      classesBy[seen, default: [:]][BandPredictor.bandClass(band), default: 0] += 1
    }
    return (
      bandsBy.values.reduce(0) { $0 + ($1.values.max() ?? 0) },
      classesBy.values.reduce(0) { $0 + ($1.values.max() ?? 0) }
    )
  }

  /// The band score of the baseline that needs no prediction, every process in IDLE: how many
  /// real bands are IDLE, and how many are in IDLE's class (`BandPredictor.bandClass`).
  public var idleBaselineScore: (exact: Int, sameClass: Int) {
    let idleClass = BandPredictor.bandClass(JetsamPriority.idle)
    return (
      bands.filter { $0.realBand == JetsamPriority.idle }.count,
      bands.filter { BandPredictor.bandClass($0.realBand) == idleClass }.count
    )
  }
}
