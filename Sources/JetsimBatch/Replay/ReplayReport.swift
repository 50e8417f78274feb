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

  /// Each policy's agreement with the kernel, the list-order baseline's first and the shuffled
  /// control's after jetsam's, with the count handed in (the freed-total mode: victims until they free what the kernel's freed).
  public var agreement: [ReplayAgreement] { Replay.agreement(replays, policies: policies) }

  /// The same, each policy deciding how many to kill (over the reports with page counts).
  public var decidedAgreement: [ReplayAgreement] {
    Replay.agreement(replays, policies: policies, mode: .decided)
  }

  /// The policies scored, in order: the list-order baseline, those asked, and the shuffled control
  /// after jetsam.
  public var scoredPolicies: [String] { agreement.map(\.policy) }

  /// The columns of `replay.csv`.
  public static let columns = [
    "report", "policy", "kill", "real_process", "real_reason", "predicted_process", "match",
  ]
  /// The columns of `replay-summary.csv`.
  public static let summaryColumns = [
    "policy", "reports", "kills", "decided_reports", "decided_kills", "decided_prefix_matched",
    "decided_kendall_tau", "first_victim_matches", "victims_matched", "prefix_matched",
    "pairs_in_order", "pairs_reversed", "pairs", "kendall_tau",
  ]

  /// One row a policy, as the summary shows it: the reports and kills scored; with each policy
  /// deciding how many to kill, its count, prefix and tau (over the reports with page counts); then
  /// the freed-total mode's first victims, victims, prefix, pairs in order and tau.
  var agreementRows: [[String]] {
    let decided = Dictionary(
      decidedAgreement.map { ($0.policy, $0) }, uniquingKeysWith: { first, _ in first })
    func tau(_ row: ReplayAgreement?) -> String {
      row?.kendallTau.map { Units.decimal($0, digits: 3) } ?? "n/a"
    }
    return agreement.map { row in
      let mine = decided[row.policy].flatMap { $0.reports > 0 ? $0 : nil }
      return [
        row.policy, "\(row.reports)", "\(row.kills)",
        mine.map { "\($0.predictedKills) of \($0.kills)" } ?? "n/a",
        mine.map { "\($0.prefixMatched)" } ?? "n/a", tau(mine),
        "\(row.firstVictimMatches)/\(row.reports)", "\(row.victimsMatched)/\(row.kills)",
        "\(row.prefixMatched)", "\(row.pairsInOrder)/\(row.pairs)", tau(row),
      ]
    }
  }

  /// The header of `agreementRows`.
  static let agreementHeader = [
    "policy", "reports", "kills", "decides", "prefix", "tau", "first victim", "victims",
    "prefix", "pairs in order", "tau",
  ]

  /// What the two groups of columns are.
  static let agreementCaption =
    "decides, prefix, tau: each policy decides how many to kill from the available memory and the device's levels; first victim to tau: the freed-total mode, victims until they free what the kernel's pressure kills freed"
  /// The columns of `levels.csv`.
  public static let levelColumns = [
    "report", "available_kb", "critical_kb", "critical_margin_kb", "idle_kb", "idle_margin_kb",
    "below_critical", "below_idle", "pressure_kills",
  ]

  /// `levels.csv`: for every report with a pressure kill and page counts, the memory jetsam
  /// counted as available at the snapshot against jetsim's critical and idle levels for the
  /// device (a margin below zero: below the level, as the kernel's rule says it must be to kill).
  public var levelsCSV: String {
    var buffer = CSVBuffer()
    buffer.appendRow(Self.levelColumns)
    for replay in replays where !replay.realVictims.isEmpty {
      guard let levels = replay.levels else { continue }
      buffer.appendRow([
        FileSystem.split(replay.report).name, "\(levels.availableKB)", "\(levels.criticalKB)",
        "\(levels.availableKB - levels.criticalKB)", "\(levels.idleKB)",
        "\(levels.availableKB - levels.idleKB)",
        levels.availableKB < levels.criticalKB ? "yes" : "no",
        levels.availableKB < levels.idleKB ? "yes" : "no", "\(replay.realVictims.count)",
      ])
    }
    return buffer.text
  }

  /// One line a report with a pressure kill and page counts: available memory against the levels.
  public var levelLines: [String] {
    replays.filter { !$0.realVictims.isEmpty && $0.levels != nil }.map { replay in
      let levels = replay.levels ?? (0, 0, 0)
      func side(_ level: Int) -> String {
        let margin = levels.availableKB - level
        return "\(margin < 0 ? "below" : "not below") by \(Units.megabytes(abs(margin)))"
      }
      return
        "\(FileSystem.split(replay.report).name): \(Units.megabytes(levels.availableKB)) available at the first kill; critical level \(Units.megabytes(levels.criticalKB)) (\(side(levels.criticalKB))), idle level \(Units.megabytes(levels.idleKB)) (\(side(levels.idleKB)))"
    }
  }
  /// The columns of `bands.csv`.
  public static let bandColumns = [
    "report", "pid", "process", "states", "real_band", "predicted_band", "real_class",
    "predicted_class",
  ]

  /// `bands.csv`: for every report that gives priorities, each process's real band beside the
  /// band predicted without reading it.
  public var bandsCSV: String {
    var buffer = CSVBuffer()
    buffer.appendRow(Self.bandColumns)
    for replay in replays {
      let name = FileSystem.split(replay.report).name
      for row in replay.bands {
        buffer.appendRow([
          name, row.pid.map(String.init) ?? "", row.process, row.states.joined(separator: " "),
          "\(row.realBand)", "\(row.predictedBand)", BandPredictor.bandClass(row.realBand),
          BandPredictor.bandClass(row.predictedBand),
        ])
      }
    }
    return buffer.text
  }

  /// One line a report that gives priorities: how many bands the predictor got exactly, and in
  /// the right class, beside the baseline that predicts nothing (every process in IDLE) and the
  /// most a rule reading the same fields could score on that report.
  public var bandLines: [String] {
    replays.filter { !$0.bands.isEmpty }.map { replay in
      let (exact, sameClass) = replay.bandScore
      let baseline = replay.idleBaselineScore
      let ceiling = replay.evidenceCeilingScore
      let count = replay.bands.count
      func share(_ value: Int) -> String {
        Units.decimal(Double(value) * 100 / Double(count), digits: 1)
      }
      return
        "\(FileSystem.split(replay.report).name): bands predicted without priorities: \(exact) of \(count) exact (\(share(exact)) %), \(sameClass) in the right class (\(share(sameClass)) %); baseline, every process in IDLE: \(baseline.exact) exact (\(share(baseline.exact)) %), \(baseline.sameClass) in the right class (\(share(baseline.sameClass)) %); the most a rule reading the same fields could score here: \(ceiling.exact) exact (\(share(ceiling.exact)) %), \(ceiling.sameClass) in the right class (\(share(ceiling.sameClass)) %)"
    }
  }

  /// `replay.csv`: one row a kill of each report under each policy.
  public var csv: String {
    var buffer = CSVBuffer()
    buffer.appendRow(Self.columns)
    for replay in replays {
      let name = FileSystem.split(replay.report).name
      for policy in scoredPolicies {
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
    let decided = Dictionary(
      decidedAgreement.map { ($0.policy, $0) }, uniquingKeysWith: { first, _ in first })
    func tau(_ row: ReplayAgreement?) -> String {
      row?.kendallTau.map { FixedPoint.format($0) } ?? ""
    }
    for row in agreement {
      let mine = decided[row.policy]
      let counts = [
        row.reports, row.kills, mine?.reports ?? 0, mine?.predictedKills ?? 0,
        mine?.prefixMatched ?? 0,
      ]
      let freedTotal = [
        row.firstVictimMatches, row.victimsMatched, row.prefixMatched, row.pairsInOrder,
        row.pairsReversed, row.pairs,
      ]
      buffer.appendRow(
        [row.policy] + counts.map(String.init) + [tau(mine)] + freedTotal.map(String.init)
          + [tau(row)])
    }
    return buffer.text
  }

  /// The agreement as a table for the terminal.
  public var table: String {
    let header = Self.agreementHeader
    let all = [header] + agreementRows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { row in
      row.enumerated().map { column, cell in
        column == 0
          ? cell + String(repeating: " ", count: widths[0] - cell.count)
          : String(repeating: " ", count: widths[column] - cell.count) + cell
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n  (\(Self.agreementCaption))\n"
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
      header: Self.agreementHeader, rows: agreementRows,
      numericColumns: Set(1..<Self.agreementHeader.count))
    page.paragraph(
      "\(Self.agreementCaption). \(Replay.listOrderBaseline) is the baseline that needs no policy: the report's processes in its list order, which the kernel writes band by band, so a policy can only match it by knowing what the list knows. \(Replay.shuffledControl) is the control: jetsam on the same snapshots with each band's order shuffled (seeded). Prefix: the kernel's first victims, in order, before the first difference. Tau: Kendall's tau, from 1 (the kernel's order) to −1 (its reverse), a victim never chosen ranked after every chosen one. A victim dies, when the policy decides, while the memory the kernel counts as available (file-backed and free pages), with what the victims before it freed, is below the level of its band: the device's idle level in the IDLE band, its critical level above."
    )
    for line in bandLines + levelLines { page.paragraph(line) }
    for replay in replays {
      page.section(FileSystem.split(replay.report).name)
      for warning in replay.warnings { page.paragraph("Note: \(warning).") }
      let rows = scoredPolicies.map { replay.rows(for: $0) }
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
        header: ["kill", "killed by the kernel", "reason"] + scoredPolicies, rows: table,
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

  /// Writes `replay.csv`, `replay-summary.csv`, `bands.csv` and `replay.html` into the folder
  /// `destination`, all or none.
  public func write(to destination: String) throws(JetsimError) {
    try ReportFolder.write(
      [
        (.replay, csv), (.replaySummary, summaryCSV), (.bands, bandsCSV), (.levels, levelsCSV),
        (.replayHTML, html),
      ], to: destination, kind: .replay)
  }
}

extension ReplayReport {
  /// One policy's agreement as a JSON object.
  static func json(_ row: ReplayAgreement) -> JSONValue {
    .fields([
      ("policy", .string(row.policy)), ("reports", .integer(row.reports)),
      ("kills", .integer(row.kills)), ("decided_kills", .integer(row.predictedKills)),
      ("first_victim_matches", .integer(row.firstVictimMatches)),
      ("victims_matched", .integer(row.victimsMatched)),
      ("prefix_matched", .integer(row.prefixMatched)),
      ("pairs_in_order", .integer(row.pairsInOrder)),
      ("pairs_reversed", .integer(row.pairsReversed)), ("pairs", .integer(row.pairs)),
      ("kendall_tau", .decimal(row.kendallTau)),
    ])
  }

  /// The agreement in both modes and each report's victims as one JSON document, for scripts and
  /// CI.
  public var json: String {
    JSONText.render(
      .fields([
        ("agreement", .list(agreement.map(Self.json))),
        ("decided_agreement", .list(decidedAgreement.map(Self.json))),
        (
          "reports",
          .list(
            replays.map { replay in
              .fields([
                ("report", .string(replay.report)),
                ("not_scored_because", replay.notScoredBecause.map { .string($0) } ?? .null),
                (
                  "bands",
                  replay.bands.isEmpty
                    ? .null
                    : .fields([
                      ("processes", .integer(replay.bands.count)),
                      ("exact", .integer(replay.bandScore.exact)),
                      ("same_class", .integer(replay.bandScore.sameClass)),
                      ("idle_baseline_exact", .integer(replay.idleBaselineScore.exact)),
                      (
                        "idle_baseline_same_class",
                        .integer(replay.idleBaselineScore.sameClass)
                      ),
                      ("evidence_ceiling_exact", .integer(replay.evidenceCeilingScore.exact)),
                      (
                        "evidence_ceiling_same_class",
                        .integer(replay.evidenceCeilingScore.sameClass)
                      ),
                    ])
                ),
                ("real_victims", .list(replay.realVictims.map { .string($0) })),
                (
                  "predicted",
                  .list(
                    scoredPolicies.map { policy in
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
