import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// Traces are read a line at a time through one buffer (docs/profiles.md, "Traces"): line ends of
/// every kind, lines across read boundaries, quoting, and errors that name the line.
@Suite struct TraceStreamingTests {
  let scratch: ScratchFolder
  /// What a trace line naming the undefined com.example.mail says, after `t.csv:N:`.
  static let unknownMail =
    "'com.example.mail' is not an app or system process of the scenario; add its profile to 'apps' (or the device's 'systemProcesses')"
  init() throws { scratch = try ScratchFolder() }

  let lines = [
    "time_ms,action,app,value", "0,open,com.example.notes,", "",
    "1500,allocate,com.example.notes,50MB",
    "2000,\"home\",,", "2500,wake,\"com.example.notes\",30s",
    "9000,free,com.example.notes,\"1.5 MB\"",
  ]
  let expected = [
    TimedAction(0, .open("com.example.notes")),
    TimedAction(1500, .allocate("com.example.notes", kilobytes: 51_200)),
    TimedAction(2000, .home),
    TimedAction(2500, .wake("com.example.notes", durationMs: 30_000)),
    TimedAction(9000, .free("com.example.notes", kilobytes: 1536)),
  ]

  @Test(arguments: ["\n", "\r\n", "\r"])
  func everyLineEndReadsTheSame(end: String) throws {
    let path = try scratch.write("t.csv", lines.joined(separator: end) + end)
    #expect(try TraceReader.actions(at: path) == expected)
    // The last line needs no line end.
    let bare = try scratch.write("bare.csv", lines.joined(separator: end))
    #expect(try TraceReader.actions(at: bare) == expected)
  }

  @Test func linesAreTheSameWhereverTheReadsEnd() throws {
    // Mixed line ends, a `\r\n` split across two reads at some chunk size, a blank line.
    var text = ""
    for (index, line) in lines.enumerated() { text += line + ["\n", "\r\n", "\r"][index % 3] }
    let path = try scratch.write("t.csv", text)
    var wanted: [String] = []
    let whole = try LineReader(path: path)
    while let line = try whole.nextLine({ String(decoding: $0, as: UTF8.self) }) {
      wanted.append(line)
    }
    #expect(wanted == lines)
    for chunk in 1...12 {
      let reader = try LineReader(path: path, hashing: true, chunkBytes: chunk)
      var read: [String] = []
      while let line = try reader.nextLine({ String(decoding: $0, as: UTF8.self) }) {
        read.append(line)
      }
      #expect(read == lines, "chunk \(chunk)")
      #expect(reader.lineNumber == lines.count)
      #expect(reader.digest == SHA256.hex(Array(text.utf8)), "chunk \(chunk)")
    }
  }

  /// A run reads the trace through `any StepCursor`: a cursor of three words at most is held in
  /// the existential itself, not in a box copied and checked at each line (9 M instructions on
  /// 200,000 lines).
  @Test func theCursorFitsInAnExistential() {
    #expect(MemoryLayout<TraceCursor>.size <= 3 * MemoryLayout<Int>.size)
  }

  @Test func theDigestIsKnownOnlyAtTheEnd() throws {
    let path = try scratch.write("t.csv", "a\nb\n")
    let reader = try LineReader(path: path, hashing: true)
    _ = try reader.nextLine { _ in () }
    #expect(reader.digest == nil)
    while try reader.nextLine({ _ in () }) != nil {}
    #expect(reader.digest == SHA256.hex(Array("a\nb\n".utf8)))
    #expect(try LineReader(path: path).digest == nil)
  }

  @Test func aLineOverTheLimitIsAnErrorAtItsLine() throws {
    let long = String(repeating: "9", count: LineReader.maxLineBytes + 10)
    let path = try scratch.write("t.csv", "time_ms,action,app,value\n0,home,,\n\(long)\n")
    let error = try #require(throws: JetsimError.self) { try TraceReader.actions(at: path) }
    #expect("\(error)".hasPrefix("\(path):3: a line longer than 1 MB"))
    #expect("\(error)".utf8.count < 200 + path.utf8.count)
  }

  @Test(arguments: [
    ("0,\"home,,", "a quoted field is never closed on its line"),
    ("0,\"home\"x,,", "text after a closing quote"),
    ("0,home,,,", "expected 4 fields (time_ms,action,app,value), found 5"),
    ("-5,home,,", "time_ms '-5' is not a whole number of milliseconds"),
    ("99999999999999999999,home,,", "time_ms '99999999999999999999' is not a whole number"),
    ("0,wake,com.example.notes,\"3\"\"0s\"", "'wake' needs a positive duration"),
  ])
  func aBadFieldIsNamedWithItsLine(line: String, message: String) throws {
    let path = try scratch.write("t.csv", "time_ms,action,app,value\r\n0,home,,\r\n\(line)\r\n")
    let error = try #require(throws: JetsimError.self) { try TraceReader.actions(at: path) }
    #expect("\(error)".hasPrefix("\(path):3: \(message)"), "\(error)")
  }

  @Test func textThatIsNotUTF8IsNamed() throws {
    let path = scratch.path + "/t.csv"
    var bytes = Array("time_ms,action,app,value\n0,open,com.example.".utf8)
    bytes += [0xFF, 0xFE] + Array(",\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(throws: JetsimError.traceLine(path: path, line: 2, message: "not UTF-8 text")) {
      try TraceReader.actions(at: path)
    }
  }

  @Test func nonASCIIAppIdsAreRead() throws {
    let path = try scratch.write("t.csv", "time_ms,action,app,value\n0,open,com.exemple.météo,\n")
    #expect(try TraceReader.actions(at: path) == [TimedAction(0, .open("com.exemple.météo"))])
  }

  @Test func aRunFailsWhenItsTraceChangedAfterTheCheck() throws {
    let app = #"{"version": 1, "id": "com.example.notes", "resident": "45MB"}"#
    try scratch.write("t.csv", "time_ms,action,app,value\n0,open,com.example.notes,\n5,home,,\n")
    let file = try scratch.write(
      "s.json",
      """
      {"version": 1, "name": "s", "device": {"name": "d", "memory": "1GB", "reserved": "200MB"},
       "apps": [\(app)], "trace": "t.csv"}
      """)
    let scenario = try ProfileLoader.scenario(at: file)
    #expect(try Simulator.run(scenario).summary.metrics.opens == 1)
    // A line that no longer reads stops the run at that line ...
    let trace = try scratch.write(
      "t.csv", "time_ms,action,app,value\n0,open,com.example.notes,\n5,open,com.example.mail,\n")
    #expect(
      throws: JetsimError.traceLine(
        path: trace, line: 3, message: Self.unknownMail)
    ) { try Simulator.run(scenario) }
    // ... and a file that reads but is not the one checked fails at its end.
    try scratch.write("t.csv", "time_ms,action,app,value\n0,open,com.example.notes,\n6,home,,\n")
    let error = try #require(throws: JetsimError.self) { try Simulator.run(scenario) }
    #expect("\(error)".contains("the file changed after jetsim checked it"))
  }

  /// `jetsim run` reads its trace once: the run checks each line as it reads it, and the digest
  /// `run.json` records is the one a separate check finds, whether the run reads the trace to its
  /// end or stops earlier (then the rest is checked, and a bad line there is still an error).
  @Test func oneRunChecksItsTraceAsItReadsIt() throws {
    let app = #"{"version": 1, "id": "com.example.notes", "resident": "45MB"}"#
    try scratch.write(
      "t.csv", "time_ms,action,app,value\n0,open,com.example.notes,\n5,home,,\n9000,lock,,\n")
    let file = try scratch.write(
      "s.json",
      """
      {"version": 1, "name": "s", "device": {"name": "d", "memory": "1GB", "reserved": "200MB"},
       "apps": [\(app)], "trace": "t.csv"}
      """)
    let checked = try ProfileLoader.scenario(at: file)
    let expected = try #require(checked.inputs.last)
    #expect(expected.role == "trace")
    for duration in [nil, 100] as [Int?] {
      var (scenario, check) = try ProfileLoader.scenarioForOneRun(at: file)
      let traceCheck = try #require(check)
      #expect(!scenario.inputs.contains { $0.role == "trace" }, "known only after the run")
      scenario.durationMs = duration
      let summary = try Simulator.run(scenario).summary
      #expect(summary.metrics.opens == 1)
      // Both runs read the last line (the one at 100 ms looks ahead to it): the reader's digest.
      #expect(summary.traceDigest == expected.sha256)
      #expect(try traceCheck.finish(summary) == expected, "duration \(duration ?? -1)")
    }
    // A bad line after where the run stops is still an error: the run reads the lines after its
    // end to count them (`RunSummary.unplayed`), and checks them as it goes.
    let trace = try scratch.write(
      "t.csv",
      "time_ms,action,app,value\n0,open,com.example.notes,\n5000,home,,\n9000,open,com.example.mail,\n"
    )
    var (scenario, _) = try ProfileLoader.scenarioForOneRun(at: file)
    scenario.durationMs = 100
    #expect(
      throws: JetsimError.traceLine(
        path: trace, line: 4, message: Self.unknownMail)
    ) { try Simulator.run(scenario) }
    // Read to its end by the run, the bad line fails the run itself.
    (scenario, _) = try ProfileLoader.scenarioForOneRun(at: file)
    #expect(throws: JetsimError.self) { try Simulator.run(scenario) }
  }

  /// A run reads its trace as steps compiled from each line's bytes (`TraceCursor.nextEntry`);
  /// everything else reads actions (`next()`). Over thousands of mutated traces (unknown apps,
  /// quotes, bad times and values, lines out of order), both give the same steps, then the same
  /// error at the same line.
  @Test func stepsFromBytesAreTheActionsCompiled() throws {
    let (scenario, original) = try FuzzTests.eveningSocial()
    var random = RandomStream(seed: 5, stream: 12)
    var compiledFromBytes = 0
    var compiledAsActions = 0
    var failures = 0
    for round in 0..<1500 {
      let text = round == 0 ? original : FuzzTests.mutateTrace(original, &random)
      let path = try scratch.write("mutant.csv", text)
      var asSteps = scenario
      asSteps.trace = TraceReader.feed(path: path)
      var asActions = scenario
      asActions.trace = ActionFeed(path: path) { () throws(JetsimError) -> any ActionCursor in
        ActionsOnly(cursor: try TraceCursor(path: path))
      }
      func steps(_ scenario: Scenario) -> ([WorkloadStep], String) {
        do {
          var workload = try scenario.workload()
          var steps: [WorkloadStep] = []
          while let step = workload.next() { steps.append(step) }
          return (steps, workload.failure.map { "\($0)" } ?? "")
        } catch {
          return ([], "\(error)")
        }
      }
      let (fromBytes, bytesFailure) = steps(asSteps)
      let (fromActions, actionsFailure) = steps(asActions)
      #expect(fromBytes == fromActions, "round \(round)")
      #expect(bytesFailure == actionsFailure, "round \(round)")
      if !bytesFailure.isEmpty { failures += 1 }
      // How the lines were read: most from their bytes, the rest as actions.
      if var cursor = try? TraceCursor(path: path) {
        let apps = AppIndex(scenario.apps.map(\.id))
        while let entry = try? cursor.nextEntry(apps: apps) {
          if case .step = entry { compiledFromBytes += 1 } else { compiledAsActions += 1 }
        }
      }
    }
    #expect(compiledFromBytes > 10 * compiledAsActions && compiledAsActions > 100)
    #expect(failures > 300 && failures < 1400)
  }

  /// A line's time is read from its bytes eight digits at a time when it starts with eight
  /// (`TraceCursor.step`): times of every length up to the limit are the ones its actions give,
  /// and a line whose first eight bytes are digits followed by anything but a digit or a comma is
  /// left to be read as an action (and refused as one).
  @Test func longTimesReadFromBytesAreTheActionsTimes() throws {
    var text = "time_ms,action,app,value\n"
    var times: [Int] = []
    for digits in 1...15 {
      for lead in 1...9 {
        let time = Int(String(repeating: String(lead), count: digits))!
        if time >= (times.last ?? 0), time <= Units.maxMilliseconds { times.append(time) }
      }
    }
    for time in times { text += "\(time),open,a,\n" }
    let path = try scratch.write("long.csv", text)
    var cursor = try TraceCursor(path: path)
    let apps = AppIndex(["a"])
    var read: [Int] = []
    while let entry = try cursor.nextEntry(apps: apps) {
      guard case .step(let step) = entry else { break }
      read.append(step.timeMs)
    }
    #expect(read == times)
    #expect(try TraceReader.actions(at: path).map(\.timeMs) == times)
    for line in ["12345678x,open,a,", "12345678/,open,a,", "123456789:1,open,a,"] {
      let bad = try scratch.write("bad.csv", "time_ms,action,app,value\n\(line)\n")
      var cursor = try TraceCursor(path: bad)
      #expect(throws: JetsimError.self, "\(line)") { try cursor.nextEntry(apps: apps) }
    }
  }

  /// A line's app field is scanned eight bytes at a time where eight are left
  /// (`TraceCursor.step`): an id of any length is found, and a quote or a byte beyond ASCII at
  /// any place in it leaves the line to be read as an action.
  @Test func appFieldsAreScannedWordByWord() {
    let ids = (1...12).map { String("abcdefghijkl".prefix($0)) }
    let apps = AppIndex(ids)
    func step(_ line: String) -> WorkloadStep? {
      var line = line
      return line.withUTF8 { TraceCursor.step($0, apps: apps, notBefore: 0) }
    }
    for (index, id) in ids.enumerated() {
      #expect(step("5,open,\(id),")?.app == Int32(index), "\(id)")
      for place in 0..<id.count {
        for special in ["\"", "é"] {
          var bytes = Array(id)
          bytes[place] = Character(special)
          #expect(step("5,open,\(String(bytes)),") == nil, "\(String(bytes))")
        }
      }
    }
    #expect(step("5,open,abcdefgh,1") == nil, "a value where none is taken")
    #expect(step("5,open,abcdefghijkl,,") == nil, "a fifth field")
  }

  @Test func appIdsAreFoundFromTheirBytes() {
    // Long ids and short ones, of fewer than four bytes and of four to eight (their last word
    // overlapping the one before), some alike but for their last byte.
    let short = ["abc", "abcd", "abcde", "app0001", "app0002", "app0010", "app00010"]
    let ids = (0..<300).map { "com.example.app\($0)" } + short + ["", "é", "com.example.app7"]
    let index = AppIndex(ids)
    func find(_ id: String) -> Int32? {
      var id = id
      let found = id.withUTF8 { index.index(of: $0) }
      // A `String` is looked up as its bytes are.
      #expect(index.index(of: id) == found.map(Int.init))
      return found
    }
    for (position, id) in ids.enumerated().dropLast() { #expect(find(id) == Int32(position)) }
    #expect(find("com.example.app7") == 7, "a repeated id keeps its first index")
    #expect(find("com.example.app300") == nil)
    #expect(find("com.example.app") == nil)
    #expect(find("e") == nil)
    for missing in ["ab", "abce", "abcdf", "app0003", "app0100", "app00011"] {
      #expect(find(missing) == nil, "\(missing)")
    }
  }
}

/// A trace file's cursor seen only as an `ActionCursor`: the workload reads it an action at a time.
private struct ActionsOnly: ActionCursor {
  var cursor: TraceCursor
  mutating func next() throws(JetsimError) -> TimedAction? { try cursor.next() }
  var location: (path: String, location: String) { cursor.location }
  var line: Int? { cursor.line }
}
