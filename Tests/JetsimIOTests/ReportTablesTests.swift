import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// The report tables come from one declaration of their columns: every header is the declared
/// list, and every row has as many fields as its header.
@Suite struct ReportTablesTests {
  /// Scenarios whose reports hold every kind of row: every kill reason and lifecycle row, system
  /// processes, a snapshot start.
  @Test(arguments: ["lifecycle-tour", "iphone-11-real-start", "worked-example"])
  func everyRowIsAsWideAsItsHeader(scenario name: String) throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/\(name).json")
    let csv = try Simulator.run(scenario).csv
    let tables = [
      ("events.csv", csv.events, ReportTables.eventColumns),
      ("kills.csv", csv.kills, ReportTables.killColumns),
      ("apps.csv", csv.apps, ReportTables.appColumns),
      ("summary.csv", csv.summary, ReportTables.summaryColumns),
    ]
    for (file, text, columns) in tables {
      let records = try CSVReader.records(text)
      #expect(records.first?.fields == columns, "\(file) header")
      #expect(records.count > 1, "\(file) has rows")
      for (index, record) in records.enumerated() {
        #expect(record.fields.count == columns.count, "\(file) row \(index)")
      }
    }
  }

  /// The event log's rows are written straight through, from memos of what the last rows wrote
  /// (`ReportTables.append(_:to:)`); each row must be the one built column by column from
  /// `EventColumn`, whatever came before it: random records with runs of repeated and incremented
  /// numbers (across 9 → 10, 99 → 100 and 1_099 → 1_100), negative and extreme values, numbers
  /// of more than eight and more than sixteen digits (some alike but for their last eight),
  /// device-wide rows and every kind of event, state, callback, reason and mode.
  @Test func memoRowsAreTheColumnsInOrder() {
    let apps = ["com.example.a", "b,with comma", "=formula", "app\"quote"]
    var tables = ReportTables(appIDs: apps, policy: "jetsam")
    var random = RandomStream(seed: 41, stream: 2)
    var previous: EventRecord?
    func pick<T>(_ values: [T]) -> T { values[random.below(values.count)] }
    func number(_ last: Int?) -> Int {
      switch random.below(8) {
      case 0, 1, 2: last ?? 0
      case 3: (last ?? 0) &+ 1
      case 4:
        pick([
          0, 9, 10, 19, 99, 100, 199, 1_099, 9_999_999, 99_999_999, 100_000_000, 123_999_999_999,
          4_200_000_019, 4_212_345_678, 9_999_999_999_999_999, 10_000_000_000_000_000, 999_999, -1,
          -10, -19, Int.max, Int.min, Int.min + 1,
        ])
      default: random.below(1 << (1 + random.below(40)))
      }
    }
    for round in 0..<20_000 {
      let app = random.below(6) == 0 ? -1 : random.below(apps.count)
      var event = EventRecord(
        seq: number(previous?.seq), timeMs: number(previous?.timeMs), app: app,
        kind: pick(EventKind.allCases), from: pick(AppState.allCases.map { $0 } + [nil]),
        to: pick(AppState.allCases.map { $0 } + [nil]),
        callback: pick(Callback.allCases.map { $0 } + [nil]),
        reason: random.below(4) == 0 ? pick(KillReason.allCases) : nil,
        mode: random.below(4) == 0 ? pick(BackgroundMode.allCases) : nil,
        footprintKB: number(previous?.footprintKB), freeKB: number(previous?.freeKB),
        fileBackedKB: number(previous?.fileBackedKB), availableKB: number(previous?.availableKB),
        pendingKB: number(previous?.pendingKB), allocatingApp: -1,
        pressure: pick(PressureLevel.allCases))
      if event.reason == nil, event.mode == nil, random.below(4) == 0 {
        event.assertedBand = pick([21, 30, 100, 190, 210])
      }
      var memo = CSVBuffer()
      tables.append(event, to: &memo)
      let fields = EventColumn.allCases.map { column -> String in
        switch column {
        case .seq: "\(event.seq)"
        case .timeMs: "\(event.timeMs)"
        case .app:
          app >= 0 ? String(decoding: CSVBuffer.encode(field: apps[app]), as: UTF8.self) : ""
        case .event: event.kind.description
        case .fromState: event.from?.description ?? ""
        case .toState: event.to?.description ?? ""
        case .callback: event.callback?.description ?? ""
        case .detail:
          event.reason?.description ?? event.mode?.rawValue
            ?? event.assertedBand.map { "band \($0)" } ?? ""
        case .footprintKB: app >= 0 ? "\(event.footprintKB)" : ""
        case .freeKB: "\(event.freeKB)"
        case .fileBackedKB: "\(event.fileBackedKB)"
        case .availableKB: "\(event.availableKB)"
        case .pendingKB: "\(event.pendingKB)"
        case .pressure: event.pressure.description
        }
      }
      let expected = fields.joined(separator: ",") + "\n"
      #expect(memo.text == expected, "round \(round)")
      if memo.text != expected { break }
      previous = event
    }
  }

  /// The kills' rows are written straight through (`ReportTables.append(_:to:)` for a kill); each
  /// must be the one built column by column from `KillColumn`: random records with every reason,
  /// state and callback, with and without a band and lmkd's figures, negative and extreme numbers.
  @Test func killRowsAreTheColumnsInOrder() {
    let apps = ["com.example.a", "b,with comma", "=formula", "app\"quote"]
    let tables = ReportTables(appIDs: apps, policy: "lmkd")
    var random = RandomStream(seed: 43, stream: 2)
    func pick<T>(_ values: [T]) -> T { values[random.below(values.count)] }
    func number() -> Int {
      random.below(4) == 0
        ? pick([0, 9, 99_999_999, 100_000_000, -1, Int.max, Int.min])
        : random.below(1 << (1 + random.below(40)))
    }
    for round in 0..<5_000 {
      let kill = KillRecord(
        seq: number(), timeMs: number(), app: random.below(apps.count),
        reason: pick(KillReason.allCases), rank: number(), state: pick(AppState.allCases),
        footprintKB: number(), freedKB: number(), availableBeforeKB: number(),
        availableAfterKB: number(), pendingKB: number(), allocatingApp: -1,
        callback: pick(Callback.allCases.map { $0 } + [nil]),
        band: random.below(2) == 0 ? number() : nil,
        lmkd: random.below(2) == 0
          ? LmkdKillInfo(minScoreAdj: number(), thrashingPercent: number(), swapFreeKB: number())
          : nil)
      var row = CSVBuffer()
      tables.append(kill, to: &row)
      let fields = KillColumn.allCases.map { column -> String in
        switch column {
        case .seq: "\(kill.seq)"
        case .timeMs: "\(kill.timeMs)"
        case .app: String(decoding: CSVBuffer.encode(field: apps[kill.app]), as: UTF8.self)
        case .reason: kill.reason.description
        case .policy: "lmkd"
        case .rank: "\(kill.rank)"
        case .state: kill.state.description
        case .footprintKB: "\(kill.footprintKB)"
        case .freedKB: "\(kill.freedKB)"
        case .availableBeforeKB: "\(kill.availableBeforeKB)"
        case .availableAfterKB: "\(kill.availableAfterKB)"
        case .pendingKB: "\(kill.pendingKB)"
        case .callback: kill.callback?.description ?? "none"
        case .band: kill.band.map { "\($0)" } ?? ""
        case .minScoreAdj: kill.lmkd.map { "\($0.minScoreAdj)" } ?? ""
        case .thrashing: kill.lmkd.map { "\($0.thrashingPercent)" } ?? ""
        case .swapFreeKB: kill.lmkd.map { "\($0.swapFreeKB)" } ?? ""
        }
      }
      let expected = fields.joined(separator: ",") + "\n"
      #expect(row.text == expected, "round \(round)")
      if row.text != expected { break }
    }
  }

  @Test func theColumnListsAreTheDeclaredOnes() {
    #expect(ReportTables.eventColumns == EventColumn.allCases.map(\.name))
    #expect(ReportTables.killColumns == KillColumn.allCases.map(\.name))
    // check aligns kills by who, why and in which state; numbers only with --numbers.
    #expect(
      KillColumn.allCases.filter { $0.comparison == .identity } == [.app, .reason, .state, .band])
    #expect(!EventColumn.allCases.contains { $0.comparison == .identity && $0 == .timeMs })
  }
}

/// Every column of summary.csv is explained in docs/reports.md, and the pressure metrics count what
/// their meaning says.
@Suite struct SummaryMetricTests {
  @Test func everyMetricIsDocumented() throws {
    let docs = try String(contentsOfFile: "\(packageRoot)/docs/reports.md", encoding: .utf8)
    for metric in SummaryMetric.all where !metric.name.hasPrefix("kills_") {
      #expect(docs.contains("`\(metric.name)`"), "\(metric.name) is not in docs/reports.md")
      #expect(!metric.meaning.isEmpty)
    }
  }

  @Test func pressureKillsAreTheKillsMoreMemoryPrevents() {
    let pressure = KillReason.allCases.filter(\.isMemoryPressure).map(\.description)
    let lmkd = KillReason.allCases.filter(\.isLmk).map(\.description)
    #expect(lmkd.count == 11 && lmkd.allSatisfy { $0.hasPrefix("lmk-") })
    #expect(
      pressure == [
        "vm-pageshortage", "highwater", "long-idle-exit", "proc-thrashing", "low-swap", "idle-exit",
        "sustained-memory-pressure",
      ] + lmkd)
  }

  /// daily-commute: 4 of its 8 reopenings were cold after vm-pageshortage kills, and its one
  /// exit-on-suspend kill is not a pressure kill.
  @Test func theDailyCommutesPressureFigures() throws {
    let scenario = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    let metrics = try Simulator.run(scenario).summary.metrics
    #expect(metrics.pressureKills == metrics.kills(.vmPageshortage))
    #expect(metrics.totalKills == metrics.pressureKills + metrics.kills(.exitOnSuspend))
    #expect(metrics.pressureColdLaunches <= metrics.coldLaunches)
    #expect(metrics.pressureColdLaunches == metrics.opensOfLaunchedApps - metrics.warmResumes)
    #expect(metrics.pressureWarmResumeRatio == metrics.warmResumeRatio)
  }
}
