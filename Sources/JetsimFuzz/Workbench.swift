import Foundation
import Jetsim
import JetsimCLI

/// A child's working folder (a copy of the profiles, base shard and sweep folders, a scratch folder
/// per input) and the checks every command must pass: an exit code jetsim documents, errors of
/// one short line, the same error for the same input, no staging folder left behind, and the rule
/// for outputs (docs/hardening.md): exit 0 means every output asked for exists and parses; any
/// other exit but 1 leaves each output and the folder it is in as they were.
final class Workbench {
  /// The exit codes `jetsim` documents for a command that works as designed (README, "Exit
  /// codes"); 70, an output named but not written, is a bug and so a finding.
  static let exitCodes: Set<Int32> = [0, 1, 65, 66, 73, 75]
  /// The longest error line accepted: messages quote at most ~80 characters of any input.
  static let maxErrorBytes = 1_000

  let work: String
  let profiles: String
  let golden: String
  let input: String
  let out: String
  let sweepOut: String
  let tinySweep: String
  /// Findings of the current input, as lines.
  private(set) var findings: [String] = []
  /// Commands run and how many exited 0, for the current input.
  private(set) var commands = 0
  private(set) var successes = 0
  /// Whether to run each command twice and compare (determinism of errors).
  var twice = false
  /// Whether to print every command and its outcome to standard error.
  var verbose = false
  /// The error text of the last command run.
  private(set) var lastErrors = ""
  /// Called after every command: the child's sign of life to the supervisor, so that an input of
  /// several slow commands (a report of 2^17 processes, read by a debug build) is not taken for
  /// one that hangs.
  var heartbeat: () -> Void = {}

  init(work: String, profiles: String, golden: String) throws {
    self.work = work
    self.profiles = "\(work)/Profiles"
    self.golden = golden
    input = "\(work)/input"
    out = "\(work)/input/out"
    sweepOut = "\(work)/sweep-out"
    tinySweep = "\(work)/Profiles/sweeps/fuzz-tiny.json"
    let files = FileManager.default
    try? files.removeItem(atPath: work)
    try files.createDirectory(atPath: work, withIntermediateDirectories: true)
    try files.copyItem(atPath: profiles, toPath: self.profiles)
    guard files.changeCurrentDirectoryPath(work) else { throw Failure("cannot enter \(work)") }
    try prepare()
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The scenarios a mutated device or app profile runs in, and the sweep whose shards and folder
  /// are mutated: two memory sizes and two seeds of the worked example.
  private func prepare() throws {
    let example = "\(profiles)/scenarios/worked-example.json"
    var text = String(decoding: try read(example), as: UTF8.self)
    guard let deviceStart = text.range(of: "\"device\": {"),
      let deviceEnd = text.range(
        of: "},\n  \"apps\"", range: deviceStart.upperBound..<text.endIndex)
    else { throw Failure("\(example) no longer has the device the fuzzer replaces") }
    let withDevice = text.replacingCharacters(
      in: deviceStart.lowerBound..<deviceEnd.lowerBound,
      with: "\"device\": \"../devices/fuzz-mutant.json\"")
    try write(
      Array(withDevice.replacingOccurrences(of: "worked-example", with: "fuzz-device").utf8),
      to: "\(profiles)/scenarios/fuzz-device.json")
    try write(
      try read("\(profiles)/devices/iphone-8.json"), to: "\(profiles)/devices/fuzz-mutant.json")
    text = text.replacingOccurrences(
      of:
        "{ \"id\": \"example.d\", \"name\": \"D\", \"resident\": \"400MB\", \"caches\": \"0MB\", \"backingStores\": \"50MB\", \"backgroundWork\": \"5s\" }",
      with: "\"../apps/fuzz-mutant.json\"")
    try write(
      Array(text.replacingOccurrences(of: "worked-example", with: "fuzz-app").utf8),
      to: "\(profiles)/scenarios/fuzz-app.json")
    try write(try read("\(profiles)/apps/notes.json"), to: "\(profiles)/apps/fuzz-mutant.json")
    try write(
      Array(
        """
        {"version": 1, "name": "fuzz-tiny", "scenario": "../scenarios/worked-example.json",
         "axes": {"memory": ["1GB", "2GB"], "policy": ["largest-first", "jetsam"], "seeds": "1..2"}}
        """.utf8), to: tinySweep)
    for (folder, shard) in [
      ("base-shard-1", ["--shard", "1/2"]), ("base-shard-2", ["--shard", "2/2"]), ("base-full", []),
    ] {
      let code = run(
        ["sweep", tinySweep, "--out", "\(work)/\(folder)", "--jobs", "1", "--quiet"] + shard
      ).code
      guard code == 0 else { throw Failure("the base sweep \(folder) failed (exit \(code))") }
    }
  }

  /// Clears the scratch folder for the next input.
  func startInput() throws {
    findings = []
    commands = 0
    successes = 0
    try? FileManager.default.removeItem(atPath: input)
    try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
  }

  /// Records a finding for the current input.
  func finding(_ text: String) { findings.append(text) }

  /// Runs `arguments` as `jetsim` would, checks the outcome, and returns the exit code.
  @discardableResult
  func execute(_ arguments: [String]) -> Int32 {
    // Saved first: if this command crashes, the supervisor reads what it was.
    try? write(Array(arguments.joined(separator: " ").utf8), to: "\(work)/current-command")
    let outputs = Self.outputs(of: arguments)
    let before = outputs.map(Self.state)
    let first = run(arguments)
    lastErrors = first.errors
    checkOutputs(outputs, before: before, code: first.code, command: arguments.first ?? "")
    if verbose {
      FileHandle.standardError.write(
        Data(
          "jetsim \(arguments.joined(separator: " ")) -> \(first.code) \(first.errors.prefix(300))\n"
            .utf8))
    }
    commands += 1
    heartbeat()
    if first.code == 0 { successes += 1 }
    let name = arguments.first ?? ""
    if !Self.exitCodes.contains(first.code) {
      finding("\(name): exit \(first.code), which jetsim does not document")
    }
    if first.code != 0, first.code != 1 {
      let lines = first.errors.split(separator: "\n", omittingEmptySubsequences: false)
      if lines.count != 2 || !first.errors.hasSuffix("\n") {
        finding(
          "\(name): exit \(first.code) with \(lines.count - 1) error lines: \(first.errors.prefix(300))"
        )
      } else if first.errors.utf8.count > Self.maxErrorBytes {
        finding(
          "\(name): an error of \(first.errors.utf8.count) bytes: \(first.errors.prefix(300))")
      }
    }
    if twice, first.code != 0, !arguments.contains("--update") {
      let second = run(arguments)
      if second.code != first.code || second.errors != first.errors {
        finding(
          "\(name): the same input gave '\(first.errors.prefix(200))' then '\(second.errors.prefix(200))'"
        )
      }
    }
    if let stray = strayStaging() { finding("\(name): left a staging folder behind: \(stray)") }
    return first.code
  }

  /// The outputs a command line asks for: the value of `--out` (or `-o`), and the golden folder
  /// `check --update` records.
  static func outputs(of arguments: [String]) -> [String] {
    var found: [String] = []
    for (index, argument) in arguments.enumerated().dropLast() {
      if argument == "--out" || argument == "-o" { found.append(arguments[index + 1]) }
      if argument == "--expect", arguments.contains("--update") {
        found.append(arguments[index + 1])
      }
    }
    return found
  }

  /// What is at `output` and beside it: the names in its folder, and every file under it (or it)
  /// with its size and modification time.
  static func state(_ output: String) -> [String] {
    let folder = (output as NSString).deletingLastPathComponent
    let files = FileManager.default
    var lines = ((try? files.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    let under = [""] + ((files.enumerator(atPath: output)?.allObjects as? [String]) ?? []).sorted()
    for path in under {
      let full = path.isEmpty ? output : "\(output)/\(path)"
      guard let attributes = try? files.attributesOfItem(atPath: full) else { continue }
      let size = attributes[.size] as? Int ?? -1
      let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      lines.append("\(path) \(size) \(time)")
    }
    return lines
  }

  /// The rule for outputs: after exit 0 each output exists and its JSON and CSV files parse;
  /// after any other exit but 1 (an answer: differences found, a target not met), each output and
  /// its folder are as they were.
  private func checkOutputs(_ outputs: [String], before: [[String]], code: Int32, command: String) {
    for (output, was) in zip(outputs, before) {
      if code == 0 {
        if let problem = Self.unreadable(output) {
          finding("\(command): exit 0, but the output \(problem)")
        }
      } else if code != 1, Self.state(output) != was {
        finding("\(command): exit \(code) changed the output \(output) or the folder it is in")
      }
    }
  }

  /// Why the output at `path` is not what exit 0 promises (missing, or a JSON or CSV file in it
  /// that does not parse), or nil.
  static func unreadable(_ path: String) -> String? {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      return "\(path) is not there"
    }
    let files =
      isFolder.boolValue
      ? ((FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []).map {
        "\(path)/\($0)"
      } : [path]
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else { continue }
      if file.hasSuffix(".json"), (try? JSONParser.parse(Array(data))) == nil {
        return "\(file) is not valid JSON"
      }
      if file.hasSuffix(".csv"),
        (try? CSVReader.records(String(decoding: data, as: UTF8.self))) == nil
      {
        return "\(file) is not valid CSV"
      }
    }
    return nil
  }

  /// Runs `arguments` (checked as `execute` checks them) and returns the exit code and error.
  func verdict(_ arguments: [String]) -> (code: Int32, errors: String) {
    (execute(arguments), lastErrors)
  }

  /// `validate` is the importers' own check: the same verdict, exit code and (with `words`) error
  /// line as `importer` gave the same file.
  func expectSameVerdict(
    _ validate: (code: Int32, errors: String), as imported: (code: Int32, errors: String),
    _ importer: String, words: Bool = true
  ) {
    let sameWords = !words || validate.code == 0 || validate.errors == imported.errors
    guard validate.code != imported.code || !sameWords else { return }
    finding(
      "validate and \(importer) disagree: exit \(validate.code) '\(validate.errors.prefix(200))' vs exit \(imported.code) '\(imported.errors.prefix(200))'"
    )
  }

  /// Runs the scenario's command only if it is small enough for a fuzzer (a day or less).
  func runIfSmall(_ scenario: String, _ arguments: [String]) {
    guard let loaded = try? ProfileLoader.scenario(at: scenario),
      (loaded.durationMs ?? 0) <= 86_400_000
    else { return }
    execute(arguments)
  }

  private func run(_ arguments: [String]) -> (code: Int32, errors: String) {
    var output = ""
    var errors = ""
    let code = JetsimCommandLine.main(arguments, output: &output, errors: &errors)
    return (code.rawValue, errors)
  }

  /// A staging folder anywhere under the working folder, if one is left.
  private func strayStaging() -> String? {
    let walker = FileManager.default.enumerator(atPath: work)
    while let path = walker?.nextObject() as? String {
      if (path as NSString).lastPathComponent.hasPrefix(".jetsim-staging") { return path }
    }
    return nil
  }

  func read(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func write(_ bytes: [UInt8], to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// The files in `folder` whose names end with `suffix`, sorted, without the fuzzer's own.
  func files(in folder: String, ending suffix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
      .filter { $0.hasSuffix(suffix) && !$0.hasPrefix("fuzz-") }.map { "\(folder)/\($0)" }
  }

  /// The subfolders of `folder`, sorted.
  func folders(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter {
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: "\(folder)/\($0)", isDirectory: &isFolder)
        && isFolder.boolValue
    }
  }

  /// Every file under `folder`, sorted.
  func allFiles(in folder: String) throws -> [String] {
    let walker = FileManager.default.enumerator(atPath: folder)
    var found: [String] = []
    while let path = walker?.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isFolder),
        !isFolder.boolValue
      {
        found.append("\(folder)/\(path)")
      }
    }
    return found.sorted()
  }
}
