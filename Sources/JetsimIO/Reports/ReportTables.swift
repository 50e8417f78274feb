import JetsimCore

/// The four report tables (docs/model.md §9, docs/reports.md): their columns, in a fixed order, and how a
/// row is written. Every number is an integer except the ratios of `summary.csv`, written with four
/// decimals the same way on every platform.
package struct ReportTables: Sendable {
  /// `events.csv` columns.
  package static let eventColumns = [
    "seq", "time_ms", "app", "event", "from_state", "to_state", "callback", "detail",
    "footprint_kb", "free_kb", "pending_kb", "pressure",
  ]
  /// `kills.csv` columns.
  package static let killColumns = [
    "seq", "time_ms", "app", "reason", "policy", "rank", "state", "footprint_kb", "freed_kb",
    "free_before_kb", "free_after_kb", "pending_kb", "callback",
  ]
  /// `apps.csv` columns.
  package static let appColumns =
    ["app", "name", "kind", "launches", "cold_launches", "warm_resumes", "kills"]
    + KillReason.allCases.map { "kills_\($0.columnName)" }
    + ["memory_warnings", "peak_footprint_kb"]
    + AppState.allCases.map { "time_\($0.columnName)_ms" }
  /// `summary.csv` columns.
  package static let summaryColumns =
    ["scenario", "device", "policy", "seed"] + SummaryMetric.all.map(\.name)

  private let appNames: ByteTable
  private let policy: ByteTable
  /// The longest event or kill row: eleven numbers or names at most 24 bytes, plus the app id.
  private let maxRowBytes: Int
  private static let statesTable = ByteTable(AppState.allCases.map { Array($0.description.utf8) })
  private static let eventsTable = ByteTable(EventKind.allCases.map { Array($0.description.utf8) })
  private static let callbacksTable = ByteTable(
    Callback.allCases.map { Array($0.description.utf8) } + [Array("none".utf8)])
  private static let reasonsTable = ByteTable(
    KillReason.allCases.map { Array($0.description.utf8) })
  private static let modesTable = ByteTable(BackgroundMode.allCases.map { Array($0.rawValue.utf8) })
  private static let levelsTable = ByteTable(
    PressureLevel.allCases.map { Array($0.description.utf8) })

  // The name tables, copied from the statics once so that writing a row touches no lazy global.
  private let states = statesTable
  private let events = eventsTable
  private let callbacks = callbacksTable
  private let reasons = reasonsTable
  private let modes = modesTable
  private let levels = levelsTable

  /// Tables for a run of apps `appIDs` under the policy named `policy`.
  package init(appIDs: [String], policy: String) {
    appNames = ByteTable(appIDs.map { CSVBuffer.encode(field: $0) })
    self.policy = ByteTable([CSVBuffer.encode(field: policy)])
    maxRowBytes = 13 * 32 + appNames.maxLength + self.policy.maxLength
  }

  /// Appends the `events.csv` row of `event`.
  package func append(_ event: EventRecord, to out: inout CSVBuffer) {
    out.appendRecord(maxBytes: maxRowBytes) { row in
      row.append(event.seq)
      row.comma()
      row.append(event.timeMs)
      row.comma()
      if event.app >= 0 { appNames.write(event.app, to: &row) }
      row.comma()
      events.write(Int(event.kind.rawValue), to: &row)
      row.comma()
      if let from = event.from { states.write(Int(from.rawValue), to: &row) }
      row.comma()
      if let to = event.to { states.write(Int(to.rawValue), to: &row) }
      row.comma()
      if let callback = event.callback { callbacks.write(Int(callback.rawValue), to: &row) }
      row.comma()
      if let reason = event.reason {
        reasons.write(Int(reason.rawValue), to: &row)
      } else if let mode = event.mode, let index = BackgroundMode.allCases.firstIndex(of: mode) {
        modes.write(index, to: &row)
      }
      row.comma()
      if event.app >= 0 { row.append(event.footprintKB) }
      row.comma()
      row.append(event.freeKB)
      row.comma()
      row.append(event.pendingKB)
      row.comma()
      levels.write(Int(event.pressure.rawValue), to: &row)
      row.newline()
    }
  }

  /// Appends the `kills.csv` row of `kill`.
  package func append(_ kill: KillRecord, to out: inout CSVBuffer) {
    out.appendRecord(maxBytes: maxRowBytes) { row in
      row.append(kill.seq)
      row.comma()
      row.append(kill.timeMs)
      row.comma()
      appNames.write(kill.app, to: &row)
      row.comma()
      reasons.write(Int(kill.reason.rawValue), to: &row)
      row.comma()
      policy.write(0, to: &row)
      row.comma()
      row.append(kill.rank)
      row.comma()
      states.write(Int(kill.state.rawValue), to: &row)
      for value in [
        kill.footprintKB, kill.freedKB, kill.freeBeforeKB, kill.freeAfterKB, kill.pendingKB,
      ] {
        row.comma()
        row.append(value)
      }
      row.comma()
      callbacks.write(kill.callback.map { Int($0.rawValue) } ?? Callback.allCases.count, to: &row)
      row.newline()
    }
  }

  /// The whole `apps.csv` of `summary`: the header, then a row an app, in app order.
  package static func appsTable(_ summary: RunSummary) -> CSVBuffer {
    var out = CSVBuffer(capacity: 256 * (summary.apps.count + 1))
    out.appendRow(appColumns)
    for (index, stats) in summary.apps.enumerated() {
      out.append(field: summary.appIDs[index])
      out.comma()
      out.append(field: summary.appNames[index])
      out.comma()
      out.append(
        field: index < summary.appCount ? "app" : summary.systemKinds[index - summary.appCount])
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
  package static func summaryTable(_ summary: RunSummary) -> CSVBuffer {
    var out = CSVBuffer(capacity: 1024)
    out.appendRow(summaryColumns)
    appendSummary(summary, to: &out)
    return out
  }

  /// Appends the `summary.csv` row of `summary` (without a header).
  package static func appendSummary(_ summary: RunSummary, to out: inout CSVBuffer) {
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
