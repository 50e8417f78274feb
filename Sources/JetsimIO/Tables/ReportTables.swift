import JetsimCore

/// How `jetsim check` compares a column of a golden report with a run's.
package enum ColumnComparison: Sendable {
  /// Part of what an event or a kill is (who, what, why): compared always, to align the rows.
  case identity
  /// A number or value compared only with `--numbers`.
  case value
  /// Not compared (a sequence number; the policy, which the run.json already names).
  case ignored
}

/// A column of a report that `jetsim check` compares row by row (`EventColumn`, `KillColumn`):
/// its name in the header is its raw value.
package protocol ComparedColumn: CaseIterable, RawRepresentable<String>, Sendable {
  /// How `check` compares it.
  var comparison: ColumnComparison { get }
}

extension ComparedColumn {
  /// The column's name in the header.
  package var name: String { rawValue }

  /// The names of the columns compared as `comparison`, in the table's order.
  package static func names(comparedAs comparison: ColumnComparison) -> [String] {
    allCases.filter { $0.comparison == comparison }.map(\.name)
  }
}

/// A column of `events.csv`, in the table's order: the header, the writer and the readers all
/// derive from these cases, so a column is one case (and the compiler then asks for its writer).
package enum EventColumn: String, ComparedColumn {
  case seq
  case timeMs = "time_ms"
  case app, event
  case fromState = "from_state"
  case toState = "to_state"
  case callback, detail
  case footprintKB = "footprint_kb"
  case freeKB = "free_kb"
  case fileBackedKB = "file_backed_kb"
  case availableKB = "available_kb"
  case pendingKB = "pending_kb"
  case pressure

  /// How `check` compares it.
  package var comparison: ColumnComparison {
    switch self {
    case .seq: .ignored
    case .app, .event, .fromState, .toState, .callback, .detail: .identity
    case .timeMs, .footprintKB, .freeKB, .fileBackedKB, .availableKB, .pendingKB, .pressure: .value
    }
  }
}

/// A column of `kills.csv`, in the table's order (see `EventColumn`).
package enum KillColumn: String, ComparedColumn {
  case seq
  case timeMs = "time_ms"
  case app, reason, policy, rank, state
  case footprintKB = "footprint_kb"
  case freedKB = "freed_kb"
  case availableBeforeKB = "available_before_kb"
  case availableAfterKB = "available_after_kb"
  case pendingKB = "pending_kb"
  case callback
  case band
  /// lmkd's kills only (empty for other policies): the evaluation's minimum adj, its thrashing in
  /// percent, its free swap.
  case minScoreAdj = "min_score_adj"
  case thrashing
  case swapFreeKB = "swap_free_kb"

  /// How `check` compares it: a kill is who died, why and in which state.
  package var comparison: ColumnComparison {
    switch self {
    case .seq, .policy: .ignored
    case .app, .reason, .state, .band: .identity
    case .timeMs, .rank, .footprintKB, .freedKB, .availableBeforeKB, .availableAfterKB, .pendingKB,
      .callback, .minScoreAdj, .thrashing, .swapFreeKB:
      .value
    }
  }
}

/// The four report tables (docs/model.md §9, docs/reports.md): their columns, in a fixed order, and how a
/// row is written. Every number is an integer except the ratios of `summary.csv`, written with four
/// decimals the same way on every platform.
package struct ReportTables: Sendable {
  /// `events.csv` columns.
  package static let eventColumns = EventColumn.allCases.map(\.name)
  /// `kills.csv` columns.
  package static let killColumns = KillColumn.allCases.map(\.name)
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
  /// The longest event or kill row: each column at most `maxFieldBytes`, plus the app id and the
  /// policy's name, which may be longer.
  private let maxRowBytes: Int
  /// The longest number (20 digits and a sign) or fixed name (a state, an event, a reason) a
  /// column holds, with its comma.
  private static let maxFieldBytes = 32
  private static let statesTable = ByteTable(AppState.allCases.map { Array($0.description.utf8) })
  private static let callbacksTable = ByteTable(
    Callback.allCases.map { Array($0.description.utf8) } + [Array("none".utf8)])
  private static let reasonsTable = ByteTable(
    KillReason.allCases.map { Array($0.description.utf8) })
  private static let levelsTable = ByteTable(
    PressureLevel.allCases.map { Array($0.description.utf8) })

  /// Room a record keeps beyond its longest row, for the memos' whole-word copies.
  private static let slackBytes = 32
  // What the event log's rows repeat (see `append(_:to:)` for events).
  private var fixedText = TextMemo()
  private var eventSeq = NumberMemo()
  private var eventTime = NumberMemo()
  /// Each process's last footprint (its rows are apart, its footprint changes less often).
  private var eventFootprints: [NumberMemo]
  private var eventFree = NumberMemo()
  private var eventFileBacked = NumberMemo()
  private var eventAvailable = NumberMemo()
  private var eventPending = NumberMemo()

  // The name tables, copied from the statics once so that writing a row touches no lazy global.
  private let states = statesTable
  private let callbacks = callbacksTable
  private let reasons = reasonsTable
  private let levels = levelsTable

  /// Tables for a run of apps `appIDs` under the policy named `policy`.
  package init(appIDs: [String], policy: String) {
    eventFootprints = Array(repeating: NumberMemo(), count: appIDs.count)
    appNames = ByteTable(appIDs.map { CSVBuffer.encode(field: $0) })
    self.policy = ByteTable([CSVBuffer.encode(field: policy)])
    maxRowBytes =
      max(EventColumn.allCases.count, KillColumn.allCases.count) * Self.maxFieldBytes
      + appNames.maxLength + self.policy.maxLength
  }

  /// Appends the `events.csv` row of `event` (see `append(_:to:)` for a run of events).
  package mutating func append(_ event: EventRecord, to out: inout CSVBuffer) {
    withUnsafePointer(to: event) { append(UnsafeBufferPointer(start: $0, count: 1), to: &out) }
  }

  /// Appends the `events.csv` rows of `events`, in order.
  ///
  /// The columns are written in `EventColumn` order, straight through rather than column by
  /// column: the fixed text from the event's kind to its detail is made once per combination
  /// (`TextMemo`), and a number the column wrote last time, or one more, is copied
  /// (`NumberMemo`). `ReportTablesTests` checks each row against one built column by column.
  /// The rows are written a run of `rowsAtOnce` at a time, each read where it lies: the
  /// buffer's room is made once for a run, and the processes' footprint memos are reached
  /// through a pointer (with no check, row by row, that their array is unique).
  package mutating func append(
    _ events: UnsafeBufferPointer<EventRecord>, to out: inout CSVBuffer
  ) {
    guard let first = events.baseAddress else { return }
    // Moved out of `self` while the rows are written (by a method of `self`).
    var footprints: [NumberMemo] = []
    swap(&footprints, &eventFootprints)
    defer { swap(&footprints, &eventFootprints) }
    footprints.withUnsafeMutableBufferPointer { footprints in
      for start in stride(from: 0, to: events.count, by: Self.rowsAtOnce) {
        let end = min(start + Self.rowsAtOnce, events.count)
        out.appendRecord(maxBytes: (end - start) * (maxRowBytes + Self.slackBytes)) { row in
          for index in start..<end { write(first + index, to: &row, footprints: footprints) }
        }
      }
    }
  }

  /// Event rows written in one go: the room of 64 takes about 34 KB (rows of at most 530 bytes).
  static let rowsAtOnce = 64

  /// Writes the `events.csv` row of `event` at `row`, whose room must reach `maxRowBytes` and
  /// `slackBytes` beyond it; `footprints` are the processes' footprint memos.
  @inline(__always) private mutating func write(
    _ event: UnsafePointer<EventRecord>, to row: inout CSVCursor,
    footprints: UnsafeMutableBufferPointer<NumberMemo>
  ) {
    eventSeq.writeField(event.pointee.seq, to: &row, counting: true)
    eventTime.writeField(event.pointee.timeMs, to: &row, long: true)
    let app = event.pointee.app
    if app >= 0 { appNames.write(app, to: &row) }
    row.comma()
    fixedText.write(Self.fixedKey(event.pointee), to: &row) { _ in
      Self.fixedColumns(of: event.pointee)
    }
    if app >= 0 {
      precondition(app < footprints.count, "no such process")
      footprints[app].writeField(event.pointee.footprintKB, to: &row)
    } else {
      row.comma()
    }
    eventFree.writeField(event.pointee.freeKB, to: &row)
    eventFileBacked.writeField(event.pointee.fileBackedKB, to: &row)
    eventAvailable.writeField(event.pointee.availableKB, to: &row)
    eventPending.writeField(event.pointee.pendingKB, to: &row)
    levels.write(Int(event.pointee.pressure.rawValue), to: &row)
    row.newline()
  }

  /// The text of `event`'s columns from `event` to `detail`, each followed by its comma.
  private static func fixedColumns(of event: EventRecord) -> [UInt8] {
    var text: [UInt8] = []
    text += event.kind.description.utf8
    text.append(UInt8(ascii: ","))
    if let from = event.from { text += from.description.utf8 }
    text.append(UInt8(ascii: ","))
    if let to = event.to { text += to.description.utf8 }
    text.append(UInt8(ascii: ","))
    if let callback = event.callback { text += callback.description.utf8 }
    text.append(UInt8(ascii: ","))
    if let reason = event.reason {
      text += reason.description.utf8
    } else if let mode = event.mode {
      text += mode.rawValue.utf8
    } else if let band = event.assertedBand {
      text += "band \(band)".utf8
    }
    text.append(UInt8(ascii: ","))
    return text
  }

  /// What `fixedColumns(of:)` depends on, a byte each: the kind, then each optional as the byte
  /// it is stored in (a case, or the value an enum of fewer than 256 cases keeps for none: a
  /// different byte for each value, read without a comparison); an `assert`'s band (at most 210)
  /// in the top 16 bits, all ones for none.
  @inline(__always) private static func fixedKey(_ event: EventRecord) -> UInt64 {
    let states = storedByte(event.from) | storedByte(event.to) << 8
    let causes =
      storedByte(event.callback) | storedByte(event.reason) << 8 | storedByte(event.mode) << 16
    let band = UInt64(UInt16(truncatingIfNeeded: event.assertedBand ?? -1))
    return UInt64(event.kind.rawValue) | states << 8 | causes << 24 | band << 48
  }

  /// The byte `value`, an optional of a one-byte enum, is stored in.
  @inline(__always) private static func storedByte<Value>(_ value: Value?) -> UInt64 {
    UInt64(unsafeBitCast(value, to: UInt8.self))
  }

  /// Appends the `kills.csv` row of `kill`.
  ///
  /// The columns are written straight through in `KillColumn` order, not by a loop over the
  /// columns that asks each which it is; `ReportTablesTests` checks each row against one built
  /// column by column.
  package func append(_ kill: KillRecord, to out: inout CSVBuffer) {
    out.appendRecord(maxBytes: maxRowBytes + Self.slackBytes) { row in
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
      row.comma()
      row.append(kill.footprintKB)
      row.comma()
      row.append(kill.freedKB)
      row.comma()
      row.append(kill.availableBeforeKB)
      row.comma()
      row.append(kill.availableAfterKB)
      row.comma()
      row.append(kill.pendingKB)
      row.comma()
      // The last entry, `none`, for a kill without a callback.
      callbacks.write(kill.callback.map { Int($0.rawValue) } ?? callbacks.count - 1, to: &row)
      row.comma()
      if let band = kill.band { row.append(band) }
      row.comma()
      if let lmkd = kill.lmkd {
        row.append(lmkd.minScoreAdj)
        row.comma()
        row.append(lmkd.thrashingPercent)
        row.comma()
        row.append(lmkd.swapFreeKB)
      } else {
        row.comma()
        row.comma()
      }
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
      // The numbers through one cursor, read from the run's tables in place: no array an app.
      out.appendRecord(maxBytes: appNumbers * 21 + 1) { row in
        var kills = 0
        for reason in KillReason.allCases { kills += stats.kills(reason) }
        for value in [stats.launches, stats.coldLaunches, stats.warmResumes, kills] {
          row.comma()
          row.append(value)
        }
        for reason in KillReason.allCases {
          row.comma()
          row.append(stats.kills(reason))
        }
        for value in [stats.memoryWarnings, stats.peakFootprintKB] {
          row.comma()
          row.append(value)
        }
        for state in AppState.allCases {
          row.comma()
          row.append(stats.time(in: state))
        }
        row.newline()
      }
    }
    return out
  }

  /// The numbers in a row of `apps.csv`: the columns after the app's id, name and kind.
  private static let appNumbers = appColumns.count - 3

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
  package var columnName: String { description.replacing("-", with: "_") }
}

extension AppState {
  /// The state in a column name: `not_running`.
  var columnName: String {
    self == .notRunning ? "not_running" : description
  }
}
