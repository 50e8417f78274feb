/// The four report tables (docs/model.md §9, docs/reports.md): their columns, in a fixed order, and how a
/// row is written. Every number is an integer except the ratios of `summary.csv`, written with four
/// decimals the same way on every platform.
public struct ReportTables: Sendable {
  /// `events.csv` columns.
  public static let eventColumns = [
    "seq", "time_ms", "app", "event", "from_state", "to_state", "callback", "detail",
    "footprint_kb",
    "free_kb", "pressure",
  ]
  /// `kills.csv` columns.
  public static let killColumns = [
    "seq", "time_ms", "app", "reason", "policy", "rank", "state", "footprint_kb", "freed_kb",
    "free_before_kb", "free_after_kb", "callback",
  ]
  /// `apps.csv` columns.
  public static let appColumns =
    ["app", "name", "launches", "cold_launches", "warm_resumes", "kills"]
    + KillReason.allCases.map { "kills_\($0.columnName)" }
    + ["memory_warnings", "peak_footprint_kb"]
    + AppState.allCases.map { "time_\($0.columnName)_ms" }
  /// `summary.csv` columns.
  public static let summaryColumns =
    ["scenario", "device", "policy", "seed"] + SummaryMetric.all.map(\.name)

  private let appNames: [[UInt8]]
  private let policy: [UInt8]
  private static let names:
    (
      states: [[UInt8]], events: [[UInt8]], callbacks: [[UInt8]], reasons: [[UInt8]],
      levels: [[UInt8]]
    ) = (
      AppState.allCases.map { Array($0.description.utf8) },
      EventKind.allCases.map { Array($0.description.utf8) },
      Callback.allCases.map { Array($0.description.utf8) },
      KillReason.allCases.map { Array($0.description.utf8) },
      PressureLevel.allCases.map { Array($0.description.utf8) }
    )

  /// Tables for a run of apps `appIDs` under the policy named `policy`.
  public init(appIDs: [String], policy: String) {
    appNames = appIDs.map(CSVBuffer.encode(field:))
    self.policy = CSVBuffer.encode(field: policy)
  }

  /// Appends the `events.csv` row of `event`.
  public func append(_ event: EventRecord, to out: inout CSVBuffer) {
    let names = Self.names
    out.append(event.seq)
    out.comma()
    out.append(event.timeMs)
    out.comma()
    if event.app >= 0 { out.append(raw: appNames[event.app]) }
    out.comma()
    out.append(raw: names.events[Int(event.kind.rawValue)])
    out.comma()
    if let from = event.from { out.append(raw: names.states[Int(from.rawValue)]) }
    out.comma()
    if let to = event.to { out.append(raw: names.states[Int(to.rawValue)]) }
    out.comma()
    if let callback = event.callback { out.append(raw: names.callbacks[Int(callback.rawValue)]) }
    out.comma()
    if let reason = event.reason {
      out.append(raw: names.reasons[Int(reason.rawValue)])
    } else if let mode = event.mode {
      out.append(field: mode.rawValue)
    }
    out.comma()
    if event.app >= 0 { out.append(event.footprintKB) }
    out.comma()
    out.append(event.freeKB)
    out.comma()
    out.append(raw: names.levels[Int(event.pressure.rawValue)])
    out.newline()
  }

  /// Appends the `kills.csv` row of `kill`.
  public func append(_ kill: KillRecord, to out: inout CSVBuffer) {
    let names = Self.names
    out.append(kill.seq)
    out.comma()
    out.append(kill.timeMs)
    out.comma()
    out.append(raw: appNames[kill.app])
    out.comma()
    out.append(raw: names.reasons[Int(kill.reason.rawValue)])
    out.comma()
    out.append(raw: policy)
    out.comma()
    out.append(kill.rank)
    out.comma()
    out.append(raw: names.states[Int(kill.state.rawValue)])
    for value in [kill.footprintKB, kill.freedKB, kill.freeBeforeKB, kill.freeAfterKB] {
      out.comma()
      out.append(value)
    }
    out.comma()
    out.append(field: kill.callback?.description ?? "none")
    out.newline()
  }

  /// The whole `apps.csv` of `summary`: the header, then a row an app, in app order.
  public static func appsTable(_ summary: RunSummary) -> CSVBuffer {
    var out = CSVBuffer(capacity: 256 * (summary.apps.count + 1))
    out.appendHeader(appColumns)
    for (index, stats) in summary.apps.enumerated() {
      out.append(field: summary.appIDs[index])
      out.comma()
      out.append(field: summary.appNames[index])
      var values = [
        stats.launches, stats.coldLaunches, stats.warmResumes, stats.killsByReason.reduce(0, +),
      ]
      values += stats.killsByReason
      values += [stats.memoryWarnings, stats.peakFootprintKB]
      values += stats.timeInStateMs
      for value in values {
        out.comma()
        out.append(value)
      }
      out.newline()
    }
    return out
  }

  /// The whole `summary.csv` of `summary`: the header and one row.
  public static func summaryTable(_ summary: RunSummary) -> CSVBuffer {
    var out = CSVBuffer(capacity: 1024)
    out.appendHeader(summaryColumns)
    appendSummary(summary, to: &out)
    return out
  }

  /// Appends the `summary.csv` row of `summary` (without a header).
  public static func appendSummary(_ summary: RunSummary, to out: inout CSVBuffer) {
    out.append(field: summary.scenario)
    out.comma()
    out.append(field: summary.device)
    out.comma()
    out.append(field: summary.policy)
    out.comma()
    out.append(raw: Array(String(summary.seed).utf8))
    for metric in SummaryMetric.all {
      out.comma()
      out.append(raw: Array(metric.text(metric.value(summary.metrics)).utf8))
    }
    out.newline()
  }
}

extension KillReason {
  /// The reason in a column name: `vm_pageshortage`.
  var columnName: String { description.replacing("-", with: "_") }
}

extension AppState {
  /// The state in a column name: `not_running`.
  var columnName: String {
    self == .notRunning ? "not_running" : description
  }
}
