import Jetsim

/// The short summary `jetsim run` prints: opens, launches, resumes, kills by reason, memory.
enum RunReport {
  /// The opens that failed (`RunMetrics.failedOpens`), as `, failed 36: died before reaching the
  /// screen`; empty when none did.
  static func failedOpens(_ metrics: RunMetrics) -> String {
    let failed = metrics.failedOpens
    return failed > 0 ? ", failed \(failed): died before reaching the screen" : ""
  }

  static func text(_ summary: RunSummary, device: DeviceProfile, folder: String, html: Bool)
    -> String
  {
    let metrics = summary.metrics
    let ratio = metrics.warmResumeRatio.map { percent($0) } ?? "n/a"
    var lines = [
      "\(summary.scenario): \(summary.device), policy \(summary.policy), seed \(summary.seed), \(Units.clock(metrics.durationMs)) simulated",
      "  opens            \(metrics.opens) (cold launches \(metrics.coldLaunches), warm resumes \(metrics.warmResumes)\(failedOpens(metrics)))",
      "  warm resumes     \(ratio) of the \(metrics.opensOfLaunchedApps) reopenings of apps launched before (warm-resume ratio); \(metrics.pressureColdLaunches) lost to memory-pressure kills",
      "  kills            \(kills(metrics, systemProcesses: !device.systemProcesses.isEmpty))",
    ]
    if !device.systemProcesses.isEmpty {
      lines.append(
        "  system processes \(device.systemProcesses.count): \(metrics.systemProcessKills) killed, \(metrics.relaunches) relaunched"
      )
    }
    lines += [
      "  memory warnings  \(metrics.memoryWarnings)",
      "  peak used        \(Units.megabytes(metrics.peakUsedKB)) of \(Units.megabytes(device.memoryKB)); minimum available \(Units.megabytes(metrics.minAvailableKB)) (free \(Units.megabytes(metrics.minFreeKB)))",
    ]
    if metrics.refaultKB > 0 {
      lines.append(
        "  page cache       \(Units.megabytes(metrics.refaultKB)) read again; some task stalled \(Units.formatDuration(metrics.stallMs))"
      )
    }
    if metrics.launchesWaited > 0 {
      lines.append("  launches waited  \(metrics.launchesWaited) (for room made by kills)")
    }
    if summary.unplayed.total > 0 {
      lines.append(
        "  not played       \(summary.unplayed.summary(endMs: metrics.durationMs)); a longer --duration plays them"
      )
    }
    if metrics.shortfalls > 0 {
      lines.append(
        "  shortfalls       \(metrics.shortfalls) (worst \(Units.megabytes(metrics.maxShortfallKB)) below critical)"
      )
    }
    let others = ReportFile.written(by: "run").filter { $0 != .events && (html || $0 != .html) }
    lines.append(
      "  reports          \(folder)/ (\(ReportFile.events.name): \(metrics.events) events; \(ReportFile.list(others)))"
    )
    return lines.joined(separator: "\n") + "\n"
  }

  /// `36 (4 apps, 32 system processes; long-idle-exit 36); 36 for memory pressure, 4 of them
  /// apps`: every number counts rows of kills.csv, the apps' share named where a device has system
  /// processes; `12 (vm-pageshortage 11, exit-on-suspend 1); 11 for memory pressure` where it has
  /// none.
  static func kills(_ metrics: RunMetrics, systemProcesses: Bool) -> String {
    let reasons = KillReason.allCases.filter { metrics.allKills($0) > 0 }.map {
      "\($0) \(metrics.allKills($0))"
    }
    let split =
      systemProcesses
      ? [
        "\(metrics.totalKills.counted("app")), \(metrics.systemProcessKills.counted("system process", "system processes"))"
      ] : []
    var parts = split
    if !reasons.isEmpty { parts.append(reasons.joined(separator: ", ")) }
    let breakdown = parts.isEmpty ? "" : " (\(parts.joined(separator: "; ")))"
    let apps = systemProcesses ? ", \(metrics.pressureKills) of them apps" : ""
    return "\(metrics.allKills)\(breakdown); \(metrics.allPressureKills) for memory pressure\(apps)"
  }

  static func percent(_ value: Double) -> String {
    let tenths = Int((value * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
  }
}

extension RunReport {
  /// The run's summary as one JSON document: the scenario, device, policy, seed, every metric of
  /// `summary.csv` by column name, and the report folder.
  static func json(_ summary: RunSummary, folder: String) -> JSONValue {
    .fields([
      ("scenario", .string(summary.scenario)), ("device", .string(summary.device)),
      ("policy", .string(summary.policy)), ("seed", .integer(summary.seed)),
      ("metrics", metrics(summary.metrics)), ("reports", .string(folder)),
    ])
  }

  /// Every metric of `summary.csv`, by column name: whole numbers, ratios with four decimals,
  /// `null` where undefined.
  static func metrics(_ metrics: RunMetrics) -> JSONValue {
    .fields(
      SummaryMetric.all.map { metric in
        let value = metric.value(metrics)
        return (
          metric.name, metric.isRatio ? .decimal(value) : value.map { .integer(Int($0)) } ?? .null
        )
      })
  }
}
