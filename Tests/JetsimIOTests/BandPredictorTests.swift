import JetsimTestSupport
import Testing

@testable import JetsimIO

/// `BandPredictor`: each rule on the state that XNU and the report's writer give it a meaning.
@Suite struct BandPredictorTests {
  typealias Process = JetsamReport.Process

  func process(
    _ states: [String], pid: Int? = 500, name: String = "p", coalition: Int? = nil,
    idleDelta: Int? = nil, frozen: Int? = nil
  ) -> Process {
    var process = Process(name: name, pid: pid, states: states, residentPages: 10)
    process.coalition = coalition
    process.idleDelta = idleDelta
    process.frozenToSwapPages = frozen
    return process
  }

  /// A report written by iOS 15 or later: some process is `active`.
  var current: BandPredictor.Context {
    var context = BandPredictor.Context()
    context.writesActive = true
    return context
  }

  /// kernel_task (pid 0) and launchd (pid 1) sit in JETSAM_PRIORITY_INTERNAL whatever their
  /// states; another process named launchd does not.
  @Test func theKernelsOwnTwoAreNeverInABandJetsamKills() {
    #expect(BandPredictor.band(of: process(["active"], pid: 0)) == 999)
    #expect(BandPredictor.band(of: process(["active"], pid: 1), in: current) == 999)
    #expect(BandPredictor.band(of: process(["active"], pid: nil, name: "kernel_task")) == 999)
    #expect(BandPredictor.band(of: process(["daemon"], pid: 2613, name: "launchd")) == 140)
  }

  /// `active` without `daemon`: a daemon that left IDLE since it last sat there (it has an idle
  /// delta) is clean and aging towards it; one that never sat there does background work.
  @Test func activeDaemonsAgeOrWork() {
    #expect(BandPredictor.band(of: process(["active"], idleDelta: 40), in: current) == 10)
    #expect(BandPredictor.band(of: process(["active"]), in: current) == 40)
    #expect(BandPredictor.bandClass(10) == "idle")
  }

  /// On screen: FOREGROUND, even when the writer also says `active` or `suspended`; and the
  /// processes of the app's coalition with it.
  @Test func theScreenAndItsCoalition() {
    let app = process(["active", "frontmost"], coalition: 7)
    let service = process(["active"], coalition: 7)
    let bands = BandPredictor.bands(
      of: [app, service, process(["suspended", "active", "frontmost"])],
      kernel: "root:xnu-11417.122.4~1")
    #expect(bands == [100, 100, 100])
  }

  /// Frozen pages: the freezer's band, 75 now and 8 (80 in the current numbering) before xnu-8792;
  /// not once the process is active again.
  @Test func frozenProcessesSitInTheFreezersBand() {
    let frozen = process(["suspended"], frozen: 100)
    #expect(BandPredictor.bands(of: [frozen], kernel: "root:xnu-11417.101.15~1") == [75])
    #expect(BandPredictor.bands(of: [frozen], kernel: "root:xnu-7195.40.113.0.2~22") == [80])
    #expect(BandPredictor.band(of: frozen) == 75, "the current numbering without a kernel")
    #expect(BandPredictor.band(of: process(["active", "frontmost"], frozen: 81)) == 100)
  }

  /// IDLE: suspended processes and clean daemons that exit when idle.
  @Test func theIdleBand() {
    #expect(BandPredictor.band(of: process(["suspended"]), in: current) == 0)
    #expect(BandPredictor.band(of: process(["daemon", "idle"], idleDelta: 5)) == 0)
  }

  /// RunningBoard's states: without `active` in a report that writes it, a managed process holds
  /// no assertion and heads for IDLE; in older reports it runs in the background, or at the audio
  /// band.
  @Test func managedProcesses() {
    #expect(BandPredictor.band(of: process(["background"]), in: current) == 0)
    #expect(BandPredictor.band(of: process(["background", "active"]), in: current) == 30)
    #expect(BandPredictor.band(of: process(["background"])) == 30)
    #expect(BandPredictor.band(of: process(["audio"])) == 120)
  }

  /// A `daemon` the freezer passed over: the freezer takes its candidates from IDLE, and above
  /// IDLE the kernel counts such a process active unless it cannot exit when idle; so in a report
  /// that writes `active` (where `daemon` means inactive) it is in IDLE. `none`, no reason at all,
  /// or the one for a process above `FREEZE_MAX_CANDIDATE_BAND` (`elevated`, printed
  /// `(unknown-reason)` by the iOS 26.1 writer) tells nothing; nor does a reason in a report whose
  /// writer does not say `active`, or on a process the kernel counted active.
  @Test func inactiveDaemonsTheFreezerPassedOverAreIdle() {
    func daemon(_ reason: String?, _ states: [String] = ["daemon"]) -> Process {
      var process = process(states)
      process.freezeSkipReason = reason
      return process
    }
    #expect(BandPredictor.band(of: daemon("disabled"), in: current) == 0)
    #expect(BandPredictor.band(of: daemon("out-of-budget"), in: current) == 0)
    #expect(BandPredictor.band(of: daemon("none"), in: current) == 140)
    #expect(BandPredictor.band(of: daemon(nil), in: current) == 140)
    #expect(BandPredictor.band(of: daemon("elevated"), in: current) == 140)
    #expect(BandPredictor.band(of: daemon("(unknown-reason)"), in: current) == 140)
    #expect(BandPredictor.band(of: daemon("disabled")) == 140, "an older writer's daemon")
    #expect(BandPredictor.band(of: daemon("disabled", ["active"]), in: current) == 40)
    #expect(!daemon("none").wasPassedOverByFreezer)
    #expect(daemon("below-min-pages").wasPassedOverByFreezer)
  }

  /// The rules read states, pids and the kernel's fields, never names: the shipped iOS 14.2 report
  /// with every process renamed predicts the same bands.
  @Test func namesDoNotChangeThePrediction() throws {
    let path = "\(packageRoot)/Profiles/jetsam-reports/ios14-iphone11-highwater.ips"
    let report = try JetsamReport.load(at: path)
    var renamed = report
    for index in renamed.processes.indices { renamed.processes[index].name = "process\(index)" }
    #expect(renamed.predictedBands == report.predictedBands)
    #expect(Set(report.predictedBands).count >= 4, "the report exercises several rules")
  }

  /// A prediction reads only `BandPredictor.Evidence`: on the shipped iOS 14.2 report, processes
  /// that show the same evidence all get the same band (what `jetsim replay`'s bound on the fields
  /// assumes).
  @Test func aPredictionReadsOnlyItsEvidence() throws {
    let path = "\(packageRoot)/Profiles/jetsam-reports/ios14-iphone11-highwater.ips"
    let report = try JetsamReport.load(at: path)
    let context = BandPredictor.Context(processes: report.processes, kernel: report.kernel)
    var bandsBy: [BandPredictor.Evidence: Set<Int>] = [:]
    for (process, band) in zip(report.processes, report.predictedBands) {
      bandsBy[BandPredictor.evidence(of: process, in: context), default: []].insert(band)
    }
    #expect(bandsBy.values.allSatisfy { $0.count == 1 })
    #expect(bandsBy.count >= 10, "the report shows many kinds of evidence")
  }

  /// The states the iOS 10 to 12 writers give: SpringBoard alone has none; a daemon that is not
  /// idle takes launchd's usual band.
  @Test func olderReports() {
    #expect(BandPredictor.band(of: process([], name: "SpringBoard")) == 160)
    #expect(BandPredictor.band(of: process(["daemon"])) == 140)
    #expect(BandPredictor.band(of: process(["frontmost", "resume"])) == 100)
  }

  /// The context of a report: whether it writes `active`, the coalitions on screen, the kernel's
  /// numbering.
  @Test func theContextOfAReport() {
    let context = BandPredictor.Context(
      processes: [process(["active", "frontmost"], coalition: 3), process(["daemon", "idle"])],
      kernel: "Darwin Kernel Version 20.1.0; root:xnu-7195.40.113.0.2~22/RELEASE_ARM64_T8030")
    #expect(context.writesActive)
    #expect(context.foregroundCoalitions == [3])
    #expect(context.firstNumbering)
    #expect(!BandPredictor.Context(processes: [], kernel: nil).firstNumbering)
    #expect(JetsamReport.xnuVersion(of: "root:xnu-11417.122.4~1") == 11417)
    #expect(JetsamReport.xnuVersion(of: "Darwin") == nil)
  }

  /// The fields a current report adds, read into each process.
  @Test func theFieldsOfACurrentReport() throws {
    let report = try JetsamReport.parse(
      Array(
        """
        {"kernel":"Darwin Kernel Version 24.5.0: Tue Apr 22 20:37:55 PDT 2025; root:xnu-11417.122.4~1\\/RELEASE_ARM64_T8110",
         "memoryStatus":{"pageSize":16384},
         "processes":[
          {"name":"avconferenced","pid":483,"states":["active"],"priority":10,"rpages":609,
           "idleDelta":184486977,"coalition":698,"freeze_skip_reason:":"disabled"},
          {"name":"Gmail","pid":389,"states":["suspended"],"priority":75,"rpages":6084,
           "physicalPages":{"internal":[1148,4909],"frozen_to_swap_pages":3288},"coalition":582},
          {"name":"launchd","pid":1,"states":["active"],"priority":999,"rpages":1178}]}
        """.utf8), file: "current.ips")
    #expect(report.kernel?.hasSuffix("root:xnu-11417.122.4~1/RELEASE_ARM64_T8110") == true)
    #expect(report.processes.map(\.coalition) == [698, 582, nil])
    #expect(report.processes.map(\.idleDelta) == [184_486_977, nil, nil])
    #expect(report.processes.map(\.frozenToSwapPages) == [nil, 3288, nil])
    #expect(report.processes.map(\.freezeSkipReason) == ["disabled", nil, nil])
    #expect(report.predictedBands == [10, 75, 999])
    #expect(report.predictedBands == report.processes.map { $0.priority ?? -1 })
  }
}
