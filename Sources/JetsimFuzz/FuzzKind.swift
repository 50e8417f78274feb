import Foundation
import Jetsim

/// The kinds of input the fuzzer mutates, and the commands each mutant goes through: every command
/// that reads that kind of file, as the `jetsim` binary runs it.
enum FuzzKind: String, CaseIterable {
  case profile, scenario, trace, sweep, lsapp, jetsam, golden, shard, metrickit

  /// Mutates one input of this kind and runs it through its commands: one function a kind, below
  /// (the switch is exhaustive, so a new kind cannot be left without one).
  func fuzz(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let mutate: (inout Mutator, Workbench) throws -> Void =
      switch self {
      case .profile: Self.profile
      case .scenario: Self.scenario
      case .trace: Self.trace
      case .sweep: Self.sweep
      case .lsapp: Self.lsapp
      case .jetsam: Self.jetsam
      case .golden: Self.golden
      case .shard: Self.shard
      case .metrickit: Self.metrickit
      }
    try mutate(&mutator, bench)
  }
}

extension FuzzKind {
  /// A device or app profile: validated alone, then run in a scenario that uses it.
  static func profile(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let profiles = bench.profiles
    let isDevice = mutator.below(2) == 0
    let folder = isDevice ? "devices" : "apps"
    let base = mutator.pick(try bench.files(in: "\(profiles)/\(folder)", ending: ".json"))
    let mutant = "\(profiles)/\(folder)/fuzz-mutant.json"
    try bench.write(mutator.json(bench.read(base)), to: mutant)
    if bench.execute(["validate", mutant]) == 0 {
      let scenario = "\(profiles)/scenarios/fuzz-\(isDevice ? "device" : "app").json"
      bench.runIfSmall(scenario, ["run", scenario, "--out", bench.out, "--quiet", "--no-html"])
    }
  }

  /// A scenario: validated, then run (now and then with its report.html).
  static func scenario(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let profiles = bench.profiles
    let base = mutator.pick(try bench.files(in: "\(profiles)/scenarios", ending: ".json"))
    let mutant = "\(profiles)/scenarios/fuzz-mutant.json"
    try bench.write(mutator.json(bench.read(base)), to: mutant)
    if bench.execute(["validate", mutant]) == 0 {
      let html = mutator.below(4) == 0 ? [] : ["--no-html"]
      bench.runIfSmall(mutant, ["run", mutant, "--out", bench.out, "--quiet"] + html)
    }
  }

  /// A trace: validated, then run in place of evening-social's workload.
  static func trace(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let profiles = bench.profiles
    let mutant = "\(profiles)/traces/fuzz-mutant.csv"
    let original = try bench.read("\(profiles)/traces/evening-social.csv")
    try bench.write(mutator.table(original, separator: ","), to: mutant)
    if bench.execute(["validate", mutant]) == 0 {
      bench.execute([
        "run", "\(profiles)/scenarios/evening-social.json", "--trace", mutant, "--out", bench.out,
        "--quiet", "--no-html",
      ])
    }
  }

  /// A sweep file: validated, then swept when it is small (now and then onto a folder an earlier sweep left, or resumed).
  static func sweep(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let profiles = bench.profiles
    let base = mutator.pick(try bench.files(in: "\(profiles)/sweeps", ending: ".json"))
    let mutant = "\(profiles)/sweeps/fuzz-mutant.json"
    try bench.write(mutator.json(bench.read(base)), to: mutant)
    if bench.execute(["validate", mutant]) == 0,
      let sweep = try? SweepDefinition.load(at: mutant),
      sweep.runCount <= 24, (sweep.base.durationMs ?? 0) <= 86_400_000
    {
      // A folder left by an earlier sweep, now and then: refused or resumed, never damaged.
      if mutator.below(4) > 0 { try? FileManager.default.removeItem(atPath: bench.sweepOut) }
      let resume = mutator.below(3) == 0 ? ["--resume"] : []
      bench.execute(
        ["sweep", mutant, "--out", bench.sweepOut, "--jobs", "1", "--quiet"] + resume)
    }
  }

  /// An LSApp log, as TSV or CSV: validated and imported (now and then for another user, or run); validate and import-lsapp must agree.
  static func lsapp(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let profiles = bench.profiles
    let tsv = mutator.below(2) == 0
    var original = try bench.read("\(profiles)/traces/lsapp-sample.tsv")
    if !tsv { original = original.map { $0 == 9 ? UInt8(ascii: ",") : $0 } }
    let log = "\(bench.input)/log.\(tsv ? "tsv" : "csv")"
    let mutant = mutator.table(original, separator: tsv ? "\t" : ",")
    try bench.write(mutant, to: log)
    // A `.csv` whose header is no log's is a trace to validate: its words are a trace's then.
    let header = String(decoding: mutant.prefix { $0 != 10 && $0 != 13 }, as: UTF8.self)
    let asLog = tsv || LSAppImport.isLogHeader(header)
    let check = bench.verdict(["validate", log])
    let user = mutator.below(3) == 0 ? ["--user", mutator.pick(["1", "2", "3", "9"])] : []
    let run = mutator.below(2) == 0 ? ["--run"] : []
    let code = bench.execute(
      [
        "import-lsapp", log, "--scenario", "\(profiles)/scenarios/daily-commute.json", "--out",
        "\(bench.input)/lsapp",
      ] + user + run)
    // validate accepts exactly what import-lsapp accepts (for the first user), in its words when
    // it reads the file as a log.
    if user.isEmpty {
      bench.expectSameVerdict(check, as: (code, bench.lastErrors), "import-lsapp", words: asLog)
    }
  }

  /// A JetsamEvent report: validated, imported and replayed; validate and import-jetsam must agree.
  static func jetsam(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let profiles = bench.profiles
    let base = mutator.pick(
      try bench.files(in: "\(profiles)/jetsam-reports", ending: ".ips")
        + bench.files(in: "\(profiles)/jetsam-reports", ending: ".crash")
        + bench.files(in: "\(profiles)/jetsam-reports/held-out", ending: ".crash"))
    let report = "\(bench.input)/report.\(base.hasSuffix(".ips") ? "ips" : "crash")"
    try bench.write(mutator.json(bench.read(base)), to: report)
    let check = bench.verdict(["validate", report])
    let code = bench.execute([
      "import-jetsam", report, "--out", "\(bench.input)/imported", "--quiet",
    ])
    bench.expectSameVerdict(check, as: (code, bench.lastErrors), "import-jetsam")
    if code == 0 {
      bench.execute(["replay", report, "--out", "\(bench.input)/replay", "--quiet"])
    }
  }

  /// One MetricKit payload, or a list of them (which the totals mutations can grow): validated and imported into a profile.
  static func metrickit(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let profiles = bench.profiles
    let samples = try bench.files(in: "\(profiles)/metrickit", ending: ".json")
    var original = try bench.read(mutator.pick(samples))
    if mutator.below(2) == 0 {
      original =
        Array("[".utf8) + (try bench.read(samples[0])) + Array(",".utf8)
        + (try bench.read(samples[samples.count - 1])) + Array("]".utf8)
    }
    let payload = "\(bench.input)/payload.json"
    try bench.write(mutator.json(original), to: payload)
    let check = bench.verdict(["validate", payload])
    let validated = check.code == 0
    let code = bench.execute([
      "import-metrickit", payload, "--app", "com.example.photofeed", "--profile",
      "\(profiles)/apps/photofeed.json", "--out", "\(bench.input)/filled.json", "--quiet",
    ])
    // import-metrickit reads what validate accepts (it may still skip another app's payload).
    if code != 0, validated, code != 65 {
      bench.finding("validate accepts a payload import-metrickit fails on (exit \(code))")
    }
    if !validated {
      bench.expectSameVerdict(check, as: (code, bench.lastErrors), "import-metrickit")
    }
  }

  /// A golden report folder with one file mutated: checked, now and then updated.
  static func golden(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let profiles = bench.profiles
    let name = mutator.pick(try bench.folders(in: bench.golden))
    let folder = "\(bench.input)/golden"
    try FileManager.default.copyItem(atPath: "\(bench.golden)/\(name)", toPath: folder)
    let file = "\(folder)/\(mutator.pick([ReportFile.kills, .kills, .events, .provenance]).name)"
    let original = try bench.read(file)
    try bench.write(
      file.hasSuffix(".csv")
        ? mutator.table(original, separator: ",") : mutator.json(original), to: file)
    var options = ["--events", "--numbers"].filter { _ in mutator.below(2) == 0 }
    if mutator.below(6) == 0 { options.append("--update") }
    bench.execute(
      ["check", "\(profiles)/scenarios/\(name).json", "--expect", folder, "--quiet"] + options)
  }

  /// Finished shards, or a sweep's own folder, with one file damaged, deleted or added: merged or resumed.
  static func shard(_ mutator: inout Mutator, _ bench: Workbench) throws {
    let shards = mutator.below(3) > 0
    let folders = shards ? ["shard-1", "shard-2"] : ["full"]
    for folder in folders {
      try FileManager.default.copyItem(
        atPath: "\(bench.work)/base-\(folder)", toPath: "\(bench.input)/\(folder)")
    }
    let target = "\(bench.input)/\(mutator.pick(folders))"
    let files = try bench.allFiles(in: target)
    let file = mutator.pick(files)
    switch mutator.below(8) {
    case 0: try FileManager.default.removeItem(atPath: file)
    case 1:
      try bench.write(mutator.bytes([]) + Array("stray".utf8), to: "\(target)/runs/stray.tsv")
    default:
      let original = try bench.read(file)
      try bench.write(
        file.hasSuffix(".json")
          ? mutator.json(original) : mutator.table(original, separator: "\t"),
        to: file)
    }
    if shards {
      bench.execute(
        [
          "merge", "\(bench.input)/shard-1", "\(bench.input)/shard-2", "--out",
          "\(bench.input)/merged",
          "--quiet",
        ])
    } else {
      bench.execute(
        ["sweep", bench.tinySweep, "--resume", "--out", target, "--jobs", "1", "--quiet"])
    }
  }
}
