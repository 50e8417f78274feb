import JetsimCore
import JetsimIO

/// The files of a replay: `replay.csv`, `replay-summary.csv`, `replay.html` (docs/reports.md).
public struct ReplayReport: Sendable {
  /// The reports replayed.
  public var replays: [ReportReplay]
  /// The policies, in the order asked.
  public var policies: [String]

  /// The files of `replays` under `policies`.
  public init(replays: [ReportReplay], policies: [String]) {
    self.replays = replays
    self.policies = policies
  }

  /// Each policy's agreement with the kernel.
  public var agreement: [ReplayAgreement] { Replay.agreement(replays, policies: policies) }

  /// The columns of `replay.csv`.
  public static let columns = [
    "report", "policy", "kill", "real_process", "real_reason", "predicted_process", "match",
  ]
  /// The columns of `replay-summary.csv`.
  public static let summaryColumns = [
    "policy", "reports", "kills", "first_victim_matches", "victims_matched", "pairs_in_order",
    "pairs",
  ]

  /// `replay.csv`: one row a kill of each report under each policy.
  public var csv: String {
    var buffer = CSVBuffer()
    buffer.appendRow(Self.columns)
    for replay in replays {
      let name = FileSystem.split(replay.report).name
      for policy in policies {
        for row in replay.rows(for: policy) {
          buffer.appendRow([
            name, policy, "\(row.kill)", row.realProcess, row.realReason, row.predictedProcess,
            row.match,
          ])
        }
      }
    }
    return buffer.text
  }

  /// `replay-summary.csv`: one row a policy.
  public var summaryCSV: String {
    var buffer = CSVBuffer()
    buffer.appendRow(Self.summaryColumns)
    for row in agreement {
      buffer.appendRow(
        [row.policy]
          + [
            row.reports, row.kills, row.firstVictimMatches, row.victimsMatched, row.pairsInOrder,
            row.pairs,
          ].map(String.init))
    }
    return buffer.text
  }

  /// The agreement as a table for the terminal.
  public var table: String {
    let header = ["policy", "reports", "kills", "first victim", "victims", "pairs in order"]
    let rows = agreement.map { row in
      [
        row.policy, "\(row.reports)", "\(row.kills)",
        "\(row.firstVictimMatches)/\(row.reports)", "\(row.victimsMatched)/\(row.kills)",
        "\(row.pairsInOrder)/\(row.pairs)",
      ]
    }
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      row.enumerated().map { column, cell in
        column == 0
          ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[column] - cell.count) + cell
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  /// `replay.html`: the agreement, then each report's kills beside each policy's choices.
  public var html: String {
    var page = HTMLDocument(title: "jetsim replay of \(replays.count) JetsamEvent reports")
    page.heading(
      "Replay of \(replays.count) JetsamEvent \(replays.count == 1 ? "report" : "reports")")
    page.paragraph(
      "From the state each report records just before its first kill, every policy was asked for victims, one at a time, until they freed what the kernel's pressure kills freed. Kills for other reasons (limits, vnodes) are shown but not scored."
    )
    page.section("Agreement with the kernel")
    page.table(
      header: [
        "policy", "reports", "kills", "first victim matches", "victims matched",
        "pairs in order",
      ],
      rows: agreement.map { row in
        [
          row.policy, "\(row.reports)", "\(row.kills)",
          "\(row.firstVictimMatches) of \(row.reports)", "\(row.victimsMatched) of \(row.kills)",
          "\(row.pairsInOrder) of \(row.pairs)",
        ]
      }, numericColumns: [1, 2, 3, 4, 5])
    for replay in replays {
      page.section(FileSystem.split(replay.report).name)
      for warning in replay.warnings { page.paragraph("Note: \(warning).") }
      let rows = policies.map { replay.rows(for: $0) }
      let count = rows.map(\.count).max() ?? 0
      guard count > 0 else {
        page.paragraph("No kill to replay.")
        continue
      }
      var table: [[String]] = []
      for index in 0..<count {
        let first = rows.lazy.compactMap { $0.indices.contains(index) ? $0[index] : nil }.first
        var line = [
          first.map { "\($0.kill)" } ?? "", first?.realProcess ?? "", first?.realReason ?? "",
        ]
        for policyRows in rows {
          guard policyRows.indices.contains(index) else {
            line.append("")
            continue
          }
          let row = policyRows[index]
          line.append(
            row.match == "not-scored"
              ? "(not scored)"
              : row.predictedProcess.isEmpty
                ? "—" : row.predictedProcess + (row.match == "yes" ? " ✓" : ""))
        }
        table.append(line)
      }
      page.table(
        header: ["kill", "killed by the kernel", "reason"] + policies, rows: table,
        numericColumns: [0])
    }
    return page.finish()
  }
}

extension ReplayReport {
  /// Replays the reports at `paths` under `policies`, each report imported as `jetsim
  /// import-jetsam` would.
  public static func replay(reportsAt paths: [String], policies: [PolicyName])
    throws(JetsimError) -> ReplayReport
  {
    var replays: [ReportReplay] = []
    for path in paths {
      let imported = JetsamImport.convert(try JetsamReport.load(at: path))
      replays.append(try Replay.replay(imported, policies: policies))
    }
    return ReplayReport(replays: replays, policies: policies.map(\.rawValue))
  }

  /// Writes `replay.csv`, `replay-summary.csv` and `replay.html` into the folder `destination`, all
  /// or none.
  public func write(to destination: String) throws(JetsimError) {
    try ReportFolder.write(
      [("replay.csv", csv), ("replay-summary.csv", summaryCSV), ("replay.html", html)],
      to: destination, kind: .replay)
  }
}

extension ReplayReport {
  /// The agreement and each report's victims as one JSON document, for scripts and CI.
  public var json: String {
    JSONText.render(
      .fields([
        (
          "agreement",
          .list(
            agreement.map { row in
              .fields([
                ("policy", .string(row.policy)), ("reports", .integer(row.reports)),
                ("kills", .integer(row.kills)),
                ("first_victim_matches", .integer(row.firstVictimMatches)),
                ("victims_matched", .integer(row.victimsMatched)),
                ("pairs_in_order", .integer(row.pairsInOrder)), ("pairs", .integer(row.pairs)),
              ])
            })
        ),
        (
          "reports",
          .list(
            replays.map { replay in
              .fields([
                ("report", .string(replay.report)),
                ("real_victims", .list(replay.realVictims.map { .string($0) })),
                (
                  "predicted",
                  .list(
                    policies.map { policy in
                      .fields([
                        ("policy", .string(policy)),
                        ("victims", .list((replay.predicted[policy] ?? []).map { .string($0) })),
                      ])
                    })
                ),
              ])
            })
        ),
      ]))
  }
}
