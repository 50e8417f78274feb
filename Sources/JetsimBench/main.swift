import Dispatch
import Jetsim
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// jetsim-bench: runs every case in its own process (so peak memory is the case's own) and prints a
// table, or CSV with --csv. Usage: swift run -c release jetsim-bench [--quick] [--csv] [--case NAME]

let arguments = Array(CommandLine.arguments.dropFirst())
// --scale N divides every case's events by N (--quick is --scale 10); docs/performance.md runs the
// engine under valgrind at two scales to show that the heap allocations do not grow with events.
var scale = arguments.contains("--quick") ? 10 : 1
if let index = arguments.firstIndex(of: "--scale"), index + 1 < arguments.count,
  let divisor = Int(arguments[index + 1]), divisor > 0
{
  scale = divisor
}
let cases = BenchmarkCase.all(scale: scale)

func fail(_ message: String) -> Never {
  try? FileSystem.write("jetsim-bench: \(message)\n", to: STDERR_FILENO, path: "standard error")
  exit(64)
}

/// The fields of the one CSV line a child process (this program, with `childArguments`) prints,
/// or nil if it failed.
func child(_ childArguments: [String]) -> [Substring]? {
  ChildProcess.output(childArguments)?.split(whereSeparator: \.isWhitespace).first?
    .split(separator: ",")
}

if let index = arguments.firstIndex(of: "--replay-once") {
  // A child process of --replay-growth: one replay of a report of N processes, printed as
  // "milliseconds,kills".
  guard index + 1 < arguments.count, let processes = Int(arguments[index + 1]), processes > 0 else {
    fail("--replay-once needs a number of processes")
  }
  do {
    let once = try ReportBenchmark.replayOnce(processes: processes)
    print("\(once.replay),\(once.kills)")
  } catch {
    fail("replay of \(processes) processes: \(error)")
  }
  exit(0)
}

if let index = arguments.firstIndex(of: "--run-one") {
  // A child process: run one case and print its measurement as one CSV line.
  guard index + 1 < arguments.count,
    let which = cases.first(where: { $0.name == arguments[index + 1] })
  else {
    fail("--run-one needs a case name")
  }
  do {
    let m = try which.measure()
    print("\(m.events),\(m.kills),\(m.seconds),\(m.cpuSeconds),\(m.peakMemoryKB)")
  } catch {
    fail("\(which.name): \(error)")
  }
  exit(0)
}

if arguments.contains("--scaling") {
  // The speed-up of running independent simulations on two threads instead of one, through the
  // ParallelMap that compare (and sweeps) use: 8 runs of the 60-app case at 4M events each.
  let work = BenchmarkCase(
    name: "scaling", apps: 60, events: 4_000_000, policy: .largestFirst, reports: false)
  let scenario = work.scenario()
  let steps: Int
  do { steps = try work.steps(for: scenario) } catch { fail("\(error)") }
  func time(jobs: Int) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    do {
      _ = try ParallelMap.run(count: 8, jobs: jobs) { index in
        var workload = RandomWorkload(seed: UInt64(index), apps: scenario.apps, count: steps)
        var quiet = DiscardingObserver()
        return try Simulator.run(
          scenario, policy: scenario.makePolicy(), workload: &workload, observer: &quiet)
      }
    } catch {
      fail("\(error)")
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }
  let one = time(jobs: 1)
  let two = time(jobs: 2)
  print(
    "8 runs of 4M events: --jobs 1 \(Units.decimal(one, digits: 3))s, --jobs 2 \(Units.decimal(two, digits: 3))s, speed-up \(Units.decimal(one / two, digits: 2))x on \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores"
  )
  exit(0)
}

if arguments.contains("--jetsam-report") {
  do {
    let ms = try ReportBenchmark.measure()
    print(
      "600-process JetsamEvent report: read \(Units.decimal(ms.read, digits: 1)) ms, import \(Units.decimal(ms.importing, digits: 1)) ms, replay under 6 policies \(Units.decimal(ms.replay, digits: 1)) ms; total \(Units.decimal(ms.read + ms.importing + ms.replay, digits: 1)) ms (best of 20)"
    )
    // How the time grows with the report: the same 30 pressure kills in ever longer lists.
    for processes in [6_000, 60_000, 100_000] {
      let grown = try ReportBenchmark.measure(processes: processes, rounds: 3)
      let total = grown.read + grown.importing + grown.replay
      print(
        "\(processes)-process report: read \(Units.decimal(grown.read, digits: 1)) ms, import \(Units.decimal(grown.importing, digits: 1)) ms, replay \(Units.decimal(grown.replay, digits: 1)) ms; total \(Units.decimal(total, digits: 1)) ms, \(Units.decimal(total * 1000 / Double(processes), digits: 2)) µs a process (best of 3)"
      )
    }
  } catch {
    fail("jetsam report: \(error)")
  }
  exit(0)
}

if arguments.contains("--replay-growth") {
  // Replay against the report's size when the kills grow with it (one process in seven): the time
  // a process must stay flat, as each decision costs O(log n). Each replay runs in a process of its
  // own, as `jetsim replay` does, the sizes taking turns nine times: a slow stretch of the machine
  // falls on every size alike, and each size's best is its time.
  let sizes = [1_000, 10_000, 100_000]
  var best = sizes.map { _ in (replay: Double.infinity, kills: 0) }
  for _ in 0..<9 {
    for (index, processes) in sizes.enumerated() {
      guard let fields = child(["--replay-once", "\(processes)"]), fields.count == 2,
        let milliseconds = Double(fields[0]), let kills = Int(fields[1])
      else { fail("the replay of \(processes) processes failed") }
      best[index] = (min(best[index].replay, milliseconds), kills)
    }
  }
  var perProcess: [Int: Double] = [:]
  for (processes, grown) in zip(sizes, best) {
    perProcess[processes] = grown.replay * 1000 / Double(processes)
    print(
      "\(processes)-process report, \(grown.kills) kills: replay under 6 policies \(Units.decimal(grown.replay, digits: 1)) ms, \(Units.decimal(perProcess[processes] ?? 0, digits: 2)) µs a process"
    )
  }
  let ratio = (perProcess[100_000] ?? 0) / (perProcess[1_000] ?? 1)
  print("time a process at 100,000 ÷ at 1,000: \(Units.decimal(ratio, digits: 2))")
  exit(0)
}

if arguments.contains("--validate-growth") {
  // Validation time against the input's size: a scenario whose user model lists N wakes and runs
  // 2,400 hours. Validation reads the file; it does not draw the model, so the time follows N, not
  // the run's length.
  let folder = temporaryPath("jetsim-bench")
  do {
    _ = try FileSystem.makeDirectories(folder)
    for wakes in [1_000, 10_000, 100_000] {
      let path = "\(folder)/wakes-\(wakes).json"
      try FileSystem.writeAtomically(ValidationBenchmark.scenario(wakes: wakes), to: path)
      let size = fileSize(path)
      let seconds = try TraceBenchmark.validate(path: path)
      print(
        "validate a 2400 h scenario with \(wakes) wakes (\(size >> 10) KB): \(Units.decimal(seconds * 1000, digits: 1)) ms, \(Units.decimal(seconds * 1e6 / Double(wakes), digits: 2)) µs a wake"
      )
    }
  } catch {
    try? FileSystem.removeTree(folder)
    fail("validate growth: \(error)")
  }
  // Not in a `defer`: `exit` does not run them.
  try? FileSystem.removeTree(folder)
  exit(0)
}

if let index = arguments.firstIndex(of: "--trace-lines") {
  // Validating a long trace: the lines read per second and the peak memory, which must not grow
  // with the number of lines. The trace is written to a temporary file first and removed after.
  guard index + 1 < arguments.count, let lines = Int(arguments[index + 1]), lines > 0 else {
    fail("--trace-lines needs a number of lines, such as 10000000")
  }
  let path =
    temporaryPath("jetsim-bench-trace") + ".csv"
  do {
    try TraceBenchmark.write(lines: lines, to: path)
    let before = peakMemoryKB()
    let seconds = try TraceBenchmark.validate(path: path)
    let size = fileSize(path)
    print(
      "validate a \(lines)-line trace (\(size >> 20) MB): \(Units.decimal(seconds, digits: 2)) s, \(Units.decimal(Double(lines) / seconds / 1e6, digits: 2))M lines/s; peak memory \(Units.decimal(Double(peakMemoryKB()) / 1024, digits: 1)) MB (\(Units.decimal(Double(before) / 1024, digits: 1)) MB after writing it)"
    )
  } catch {
    unlink(path)
    fail("trace: \(error)")
  }
  unlink(path)
  exit(0)
}

if arguments.contains("--help") {
  print(
    """
    jetsim-bench: measures jetsim's speed on fixed, seeded workloads (docs/performance.md).

    USAGE: swift run -c release jetsim-bench [--quick] [--csv] [--case NAME]
           swift run -c release jetsim-bench --scaling
           swift run -c release jetsim-bench --jetsam-report
           swift run -c release jetsim-bench --replay-growth
           swift run -c release jetsim-bench --trace-lines 10000000
           swift run -c release jetsim-bench --validate-growth

      --quick      a tenth of the events per case
      --scale N    1/N of the events per case
      --csv        print CSV instead of a table
      --case NAME  run one case (\(cases.map(\.name).joined(separator: ", ")))
      --scaling    the speed-up of two threads over one on independent runs
      --jetsam-report  reading, importing and replaying a 600-process JetsamEvent report, then
                       reports of 6,000 to 100,000 processes with the same kills
      --replay-growth  replaying reports of 1,000 to 100,000 processes, one in seven killed,
                       each replay in a process of its own: the time a process at each size
      --validate-growth  validating scenarios of 1,000 to 100,000 user-model wakes over 2,400 h
      --trace-lines N  writing an N-line trace, then validating it: lines per second, peak memory
    """)
  exit(0)
}

var selected = cases
if let index = arguments.firstIndex(of: "--case") {
  guard index + 1 < arguments.count else { fail("--case needs a name") }
  selected = cases.filter { $0.name == arguments[index + 1] }
  if selected.isEmpty {
    fail("no case '\(arguments[index + 1])'; cases: \(cases.map(\.name).joined(separator: ", "))")
  }
}

let csv = arguments.contains("--csv")
let header = [
  "case", "apps", "policy", "reports", "events", "kills", "seconds", "cpu_seconds", "events_per_s",
  "events_per_cpu_s", "kills_per_s", "peak_mb",
]
if csv {
  print(header.joined(separator: ","))
} else {
  print(
    "case                  apps  policy          reports     events    kills   seconds   cpu s    events/s  ev/cpu s     kills/s  peak MB"
  )
}
for benchmark in selected {
  guard let fields = child(["--run-one", benchmark.name, "--scale", "\(scale)"]),
    fields.count == 5, let events = Int(fields[0]), let kills = Int(fields[1]),
    let seconds = Double(fields[2]), let cpu = Double(fields[3]), let peak = Int(fields[4])
  else { fail("case \(benchmark.name) failed") }
  let m = Measurement(
    events: events, kills: kills, seconds: seconds, cpuSeconds: cpu, peakMemoryKB: peak)
  let rate = Units.decimal(m.eventsPerSecond / 1e6, digits: 2) + "M"
  let cpuRate = Units.decimal(m.eventsPerCPUSecond / 1e6, digits: 2) + "M"
  let killRate = Units.decimal(m.killsPerSecond / 1e3, digits: 1) + "k"
  let peakMB = Units.decimal(Double(peak) / 1024, digits: 1)
  if csv {
    print(
      [
        benchmark.name, "\(benchmark.apps)", benchmark.policy.rawValue, "\(benchmark.reports)",
        "\(events)",
        "\(kills)",
        Units.decimal(seconds, digits: 3), Units.decimal(cpu, digits: 3),
        Units.decimal(m.eventsPerSecond, digits: 0), Units.decimal(m.eventsPerCPUSecond, digits: 0),
        Units.decimal(m.killsPerSecond, digits: 0), peakMB,
      ].joined(separator: ","))
  } else {
    func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
      let padding = String(repeating: " ", count: max(0, width - text.count))
      return left ? text + padding : padding + text
    }
    print(
      pad(benchmark.name, 20, left: true) + pad("\(benchmark.apps)", 6) + "  "
        + pad(benchmark.policy.rawValue, 14, left: true)
        + pad(benchmark.reports ? "yes" : "no", 8) + pad("\(events)", 11) + pad("\(kills)", 9)
        + pad(Units.decimal(seconds, digits: 3), 10) + pad(Units.decimal(cpu, digits: 3), 8)
        + pad(rate, 12) + pad(cpuRate, 10) + pad(killRate, 12)
        + pad(peakMB, 9))
  }
}
