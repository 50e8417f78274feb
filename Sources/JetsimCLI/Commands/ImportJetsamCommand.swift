import Jetsim

/// The options of `jetsim import-jetsam`.
struct ImportJetsamOptions: Subcommand, Equatable {
  var reports: [String]
  var out: String
  /// `--quiet` and `--format`.
  var printing = OutputOptions()
}

extension ImportJetsamOptions {
  static let out = CommonOptions.out.helped(
    "where to write a folder for each report (device.json, scenario.json) and imported.csv"
  ).required("the folder to write the profiles to")

  static let spec = CommandSpec(
    name: "import-jetsam",
    abstract:
      "Turn JetsamEvent reports into device profiles and scenarios starting from their snapshot.",
    discussion: """
      Reads each REPORT (a JetsamEvent .ips, .ips.synced or .crash: a JSON header line then the \
      body, or the body alone) and writes DIR/<report>/device.json (the device: memory from its \
      product code, its daemons and extensions as system processes) and DIR/<report>/scenario.json \
      (its apps, and a snapshot of every process just before the first kill, victims restored), \
      with DIR/imported.csv listing them. A trimmed report, or one with no kill, is imported with a \
      warning; one with no app process is refused, since a scenario needs an app. See docs/validation.md.
      """,
    arguments: [.jetsamReports],
    options: [out],
    examples: [
      "jetsim import-jetsam Profiles/jetsam-reports/ios14-iphone11-highwater.ips -o /tmp/iphone11",
      "jetsim run /tmp/iphone11/ios14-iphone11-highwater/scenario.json --policy jetsam",
    ])

  init(_ parsed: ParsedArguments) throws(UsageError) {
    self.init(reports: parsed.positionals, out: parsed.required(Self.out))
    printing = try OutputOptions(parsed)
  }

  /// Imports every report (all or none is written), then says what each became.
  func execute() throws(JetsimError) -> CommandResult {
    var imported: [(name: String, imported: ImportedReport)] = []
    var used = Set<String>()
    for path in reports {
      let base = JetsamImport.folderName(for: path)
      var name = base
      var copy = 1
      while !used.insert(name).inserted {
        copy += 1
        name = "\(base)-\(copy)"
      }
      let result = JetsamImport.convert(try JetsamReport.load(at: path))
      try result.checkImportable()
      imported.append((name, result))
    }
    try JetsamImport.write(imported, to: out)
    var output = ""
    var errors = ""
    var json: [JSONValue] = []
    for (name, result) in imported {
      let report = result.report
      output +=
        "\(report.file): \(result.device.name), \(report.processes.count.counted("process", "processes")) (\(result.apps.count.counted("app")), \(result.device.systemProcesses.count.counted("system process", "system processes"))), \(report.victims.count.counted("kill"))\n"
      output += "  wrote \(out)/\(name)/\(ReportFile.device.name) and \(ReportFile.scenario.name)\n"
      for warning in result.warnings {
        errors += "jetsim: warning: \(report.file): \(warning)\n"
      }
      json.append(
        .fields([
          ("report", .string(report.file)), ("device", .string(result.device.name)),
          ("processes", .integer(report.processes.count)), ("apps", .integer(result.apps.count)),
          ("system_processes", .integer(result.device.systemProcesses.count)),
          ("kills", .integer(report.victims.count)), ("folder", .string("\(out)/\(name)")),
          ("warnings", .list(result.warnings.map { .string($0) })),
        ]))
    }
    if printing.format == .json {
      output = JSONText.render(
        .fields([
          ("imported", .list(json)), ("list", .string("\(out)/\(ReportFile.imported.name)")),
        ])
      )
    }
    let wrote =
      ["\(out)/\(ReportFile.imported.name)"]
      + imported.flatMap { folder in
        [ReportFile.device, .scenario].map { "\(out)/\(folder.name)/\($0.name)" }
      }
    return CommandResult(output: printing.quiet ? "" : output, errors: errors, wrote: wrote)
  }
}
