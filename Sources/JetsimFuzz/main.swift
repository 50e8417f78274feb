import Foundation
import Jetsim

// jetsim-fuzz: a seeded mutation fuzzer over every kind of input jetsim reads (docs/hardening.md).
// The supervisor runs the inputs in child processes, a batch each, so a crash costs one input and
// is recorded with the input that caused it; the child runs each mutant through the same command
// line the `jetsim` binary runs, in process.

let usage = """
  jetsim-fuzz: mutates jetsim's inputs and runs each through every command that reads it; any
  crash, undocumented exit code, error of more than one line, error that changes between two runs
  of the same input, or staging folder left behind is a finding.

  USAGE: swift run -c release jetsim-fuzz [--inputs N] [--seed N] [--kinds LIST] [--keep DIR]
           [--profiles DIR] [--golden DIR]

    --inputs N      how many mutated inputs (default 2000; the release check runs 100000)
    --seed N        the seed of the mutations (default 1); input I of seed S is always the same
    --kinds LIST    the kinds to mutate, comma-separated (default all: \(FuzzKind.allCases.map(\.rawValue).joined(separator: ",")))
    --keep DIR      where the inputs behind findings are kept (default $TMPDIR/jetsim-fuzz-findings)
    --profiles DIR  the profiles to start from (default Profiles)
    --golden DIR    the golden report folders to start from (default Reports/golden)
    --verbose       print every command and its outcome

  Exit 0 when there are no findings, 1 when there are, 64 on a usage error.
  """

struct Options {
  var inputs = 2000
  var seed: UInt64 = 1
  var kinds = FuzzKind.allCases
  var keep = NSTemporaryDirectory() + "jetsim-fuzz-findings"
  var profiles = "Profiles"
  var golden = "Reports/golden"
  var batch = 400
  var verbose = false
  /// In a child: the inputs to run and the working folder.
  var child: (from: Int, to: Int, work: String)?

  init(_ arguments: [String]) {
    var rest = arguments[...]
    func value(_ flag: String) -> String {
      guard let value = rest.popFirst() else { fail("\(flag) needs a value; see --help") }
      return value
    }
    func number(_ flag: String, _ range: ClosedRange<Int>) -> Int {
      let text = value(flag)
      guard let number = Int(text), range.contains(number) else {
        fail(
          "\(flag) '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return number
    }
    while let flag = rest.popFirst() {
      switch flag {
      case "--inputs": inputs = number(flag, 1...100_000_000)
      case "--seed": seed = UInt64(number(flag, 0...Int.max))
      case "--batch": batch = number(flag, 1...1_000_000)
      case "--keep": keep = absolute(value(flag))
      case "--profiles": profiles = value(flag)
      case "--golden": golden = value(flag)
      case "--kinds":
        let names = value(flag).split(separator: ",").map(String.init)
        kinds = names.map { name in
          guard let kind = FuzzKind(rawValue: name) else {
            fail(
              "unknown kind '\(name)'; kinds: \(FuzzKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
          }
          return kind
        }
      case "--child":
        child = (number(flag, 0...Int.max), number(flag, 0...Int.max), value(flag))
      case "--verbose": verbose = true
      case "--help", "-h":
        print(usage)
        exit(0)
      default: fail("unknown option '\(flag)'; see --help")
      }
    }
    profiles = absolute(profiles)
    golden = absolute(golden)
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("jetsim-fuzz: \(message)\n".utf8))
  exit(64)
}

func absolute(_ path: String) -> String {
  path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
if let child = options.child {
  exit(runChild(options, from: child.from, to: child.to, work: child.work))
}
exit(supervise(options))

/// Runs inputs `from..<to`, appending one line per input (and one per finding) to `work/progress`.
func runChild(_ options: Options, from: Int, to: Int, work: String) -> Int32 {
  let bench: Workbench
  do {
    bench = try Workbench(work: work, profiles: options.profiles, golden: options.golden)
  } catch {
    FileHandle.standardError.write(Data("jetsim-fuzz: cannot prepare \(work): \(error)\n".utf8))
    return 2
  }
  let progressPath = "\(work)/progress"
  guard FileManager.default.createFile(atPath: progressPath, contents: nil),
    let progress = FileHandle(forWritingAtPath: progressPath)
  else { return 2 }
  for index in from..<to {
    // A line the supervisor reads past (two fields), written after each command: it only moves
    // the file's size, which is what the supervisor watches.
    bench.heartbeat = { progress.write(Data("command\t\(index)\n".utf8)) }
    let kind = options.kinds[index % options.kinds.count]
    var mutator = Mutator(seed: options.seed, input: index)
    bench.twice = index % 8 == 0
    bench.verbose = options.verbose
    do {
      try bench.startInput()
      try kind.fuzz(&mutator, bench)
    } catch {
      FileHandle.standardError.write(Data("jetsim-fuzz: input \(index) (\(kind)): \(error)\n".utf8))
      return 2
    }
    var lines =
      "input\t\(index)\t\(kind)\t\(bench.commands)\t\(bench.successes)\t\(mutator.grewTotals ? 1 : 0)\n"
    for finding in bench.findings {
      lines +=
        "finding\t\(index)\t\(kind)\t\(finding.replacingOccurrences(of: "\n", with: "\\n"))\n"
      try? FileManager.default.copyItem(
        atPath: bench.input, toPath: "\(options.keep)/finding-\(index)")
    }
    progress.write(Data(lines.utf8))
  }
  return 0
}

/// What the children reported, kind by kind, and their findings.
struct Tallies {
  struct Tally { var inputs = 0, commands = 0, successes = 0, totals = 0 }
  var byKind: [FuzzKind: Tally] = [:]
  var findings: [String] = []
  var crashes = 0

  /// Adds a child's progress file; returns the last input it finished.
  mutating func read(progress text: String, keep: String, done: Int) -> Int {
    var done = done
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 5).map(String.init)
      guard fields.count >= 4, let index = Int(fields[1]), let kind = FuzzKind(rawValue: fields[2])
      else { continue }
      if fields[0] == "finding" {
        findings.append("input \(index) (\(kind)): \(fields[3]) [kept in \(keep)/finding-\(index)]")
        continue
      }
      done = max(done, index)
      byKind[kind, default: Tally()].inputs += 1
      if fields.count >= 5, let commands = Int(fields[3]), let successes = Int(fields[4]) {
        byKind[kind, default: Tally()].commands += commands
        byKind[kind, default: Tally()].successes += successes
      }
      if fields.count >= 6, fields[5] == "1" { byKind[kind, default: Tally()].totals += 1 }
    }
    return done
  }

  /// The table and the findings, as the supervisor prints them at the end.
  func summary(_ options: Options, seconds: Int) -> String {
    let commands = byKind.values.reduce(0) { $0 + $1.commands }
    var lines = [
      "jetsim-fuzz: \(options.inputs) inputs (seed \(options.seed)), \(commands) commands: \(crashes) crashes, \(findings.count - crashes) other findings, \(seconds) s",
      "  kind       inputs  commands    exit 0  refused   totals",
    ]
    func pad(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    for kind in options.kinds {
      let tally = byKind[kind] ?? Tally()
      lines.append(
        "  " + kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
          + pad("\(tally.inputs)", 8) + pad("\(tally.commands)", 10)
          + pad("\(tally.successes)", 10) + pad("\(tally.commands - tally.successes)", 9)
          + pad("\(tally.totals)", 9))
    }
    lines += findings.prefix(50).map { "  \($0)" }
    if findings.count > 50 { lines.append("  and \(findings.count - 50) more") }
    return lines.joined(separator: "\n")
  }
}

/// Starts a child on inputs `from..<to` in `work` and waits for it; a child that reports nothing
/// (no input finished, no command run) for two minutes is stuck, and is stopped. Returns the child
/// and whether it hung.
func startChild(_ options: Options, from: Int, to: Int, work: String, errorsPath: String)
  -> (process: Process, hung: Bool)
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  process.arguments =
    [
      "--child", "\(from)", "\(to)", work, "--seed", "\(options.seed)", "--keep", options.keep,
      "--profiles", options.profiles, "--golden", options.golden,
      "--kinds", options.kinds.map(\.rawValue).joined(separator: ","),
    ]
    + (options.verbose ? ["--verbose"] : [])
  process.standardOutput = FileHandle.nullDevice
  // jetsim's notes on standard error (a sweep resumed) are not findings; keep them aside.
  guard FileManager.default.createFile(atPath: errorsPath, contents: nil) else {
    fail("cannot write \(errorsPath)")
  }
  if !options.verbose { process.standardError = FileHandle(forWritingAtPath: errorsPath) }
  do { try process.run() } catch { fail("cannot start a child: \(error)") }
  var lastSize: UInt64 = 0
  var lastChange = Date()
  var hung = false
  while process.isRunning {
    Thread.sleep(forTimeInterval: 0.2)
    let size =
      (try? FileManager.default.attributesOfItem(atPath: "\(work)/progress")[.size] as? UInt64)
      ?? 0
    if size != lastSize {
      (lastSize, lastChange) = (size, Date())
    } else if Date().timeIntervalSince(lastChange) > 120 {
      kill(process.processIdentifier, SIGKILL)
      hung = true
    }
  }
  process.waitUntilExit()
  return (process, hung)
}

/// Runs every input in child processes, a batch each, and prints what they found.
func supervise(_ options: Options) -> Int32 {
  var tallies = Tallies()
  let work = NSTemporaryDirectory() + "jetsim-fuzz-\(ProcessInfo.processInfo.processIdentifier)"
  let errorsPath = work + ".err"
  defer {
    try? FileManager.default.removeItem(atPath: work)
    try? FileManager.default.removeItem(atPath: errorsPath)
  }
  try? FileManager.default.createDirectory(atPath: options.keep, withIntermediateDirectories: true)
  let start = Date()
  var next = 0
  while next < options.inputs {
    let to = min(options.inputs, next + options.batch)
    let (process, hung) = startChild(
      options, from: next, to: to, work: work, errorsPath: errorsPath)
    let text = (try? String(contentsOfFile: "\(work)/progress", encoding: .utf8)) ?? ""
    let done = tallies.read(progress: text, keep: options.keep, done: next - 1)
    if process.terminationReason == .uncaughtSignal || hung {
      // The input after the last one reported crashed (or hung) its child.
      next = done + 1
      tallies.recordCrash(
        of: next, options: options, work: work,
        how: hung ? "hung" : "crashed (signal \(process.terminationStatus))")
    } else if process.terminationStatus != 0 {
      let errors = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
      let last = errors.split(separator: "\n").last.map(String.init) ?? ""
      fail(
        "a child failed (exit \(process.terminationStatus)) on inputs \(next) to \(to - 1): \(last)"
      )
    } else {
      next = to
    }
    FileHandle.standardError.write(
      Data(
        "jetsim-fuzz: \(next)/\(options.inputs) inputs, \(tallies.crashes) crashes, \(tallies.findings.count) findings, \(Int(Date().timeIntervalSince(start))) s\n"
          .utf8))
  }
  print(tallies.summary(options, seconds: Int(Date().timeIntervalSince(start))))
  return tallies.findings.isEmpty ? 0 : 1
}

extension Tallies {
  /// Counts input `index` as a crash (or hang), keeping its input folder and the command.
  mutating func recordCrash(of index: Int, options: Options, work: String, how: String) {
    let kind = options.kinds[index % options.kinds.count]
    let command = (try? String(contentsOfFile: "\(work)/current-command", encoding: .utf8)) ?? "?"
    let kept = "\(options.keep)/crash-\(index)"
    try? FileManager.default.removeItem(atPath: kept)
    try? FileManager.default.copyItem(atPath: "\(work)/input", toPath: kept)
    crashes += 1
    byKind[kind, default: Tally()].inputs += 1
    findings.append("input \(index) (\(kind)): \(how) in 'jetsim \(command)' [kept in \(kept)]")
  }
}
