import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimBatch
@testable import JetsimCore
@testable import JetsimIO

@Suite struct SweepTests {
  let scratch: ScratchFolder
  let definition: SweepDefinition

  init() throws {
    scratch = try ScratchFolder()
    definition = try SweepDefinition.load(
      at: "\(packageRoot)/Profiles/sweeps/heavy-social-policies.json")
  }

  /// The files a finished sweep leaves for people and for merge: the same bytes, however it ran.
  func files(_ folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in ["sweep.csv", "sweep-summary.csv", "sweep-manifest.json"] {
      result[name] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
    }
    return result
  }

  @Test func theSweepHasTheCartesianProductInAStableOrder() throws {
    #expect(definition.pointCount == 12 && definition.runCount == 60)
    #expect(definition.columns == ["memory_kb", "policy", "seed"])
    #expect(definition.run(0).labels == ["3145728", "largest-first", "1"])
    #expect(definition.run(6).labels == ["3145728", "jetsam", "2"])
    #expect(definition.run(59).labels == ["8388608", "lmkd", "5"])
    #expect(definition.run(59).scenario.device.memoryKB == 8 * 1_048_576)
    #expect(definition.run(59).scenario.policy == .lmkd)
  }

  @Test func oneThreadAndTwoGiveIdenticalFiles() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/one", jobs: 1)
    _ = try Sweep.run(definition, into: scratch.path + "/two", jobs: 2)
    let one = try files(scratch.path + "/one")
    #expect(
      String(decoding: one["sweep.csv"] ?? Data(), as: UTF8.self).split(separator: "\n").count == 1
        + 60)
    #expect(one == (try files(scratch.path + "/two")))
  }

  @Test func shardsMergedEqualOneMachine() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/whole", jobs: 2)
    var shards: [String] = []
    for index in 1...3 {
      let folder = scratch.path + "/shard-\(index)"
      let outcome = try Sweep.run(definition, into: folder, jobs: 1, shard: ShardSpec("\(index)/3"))
      #expect(outcome.owned == 20 && !outcome.assembled)
      shards.append(folder)
    }
    #expect(try Sweep.merge(shards, into: scratch.path + "/merged") == 60)
    #expect(try files(scratch.path + "/merged") == files(scratch.path + "/whole"))
    // Into a shard's own folder, whose journal the merge replaces after reading it.
    #expect(try Sweep.merge(shards, into: shards[0]) == 60)
    #expect(try files(shards[0]) == files(scratch.path + "/whole"))
  }

  /// More shards than journals are held open at once (a merge reads their rows in turn): the
  /// merge still reads every run, and gives one machine's files.
  @Test func manyShardsMergedEqualOneMachine() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/whole", jobs: 2)
    let shards = try (1...20).map { index in
      let folder = scratch.path + "/many-\(index)"
      _ = try Sweep.run(definition, into: folder, jobs: 1, shard: ShardSpec("\(index)/20"))
      return folder
    }
    #expect(try Sweep.merge(shards, into: scratch.path + "/merged") == 60)
    #expect(try files(scratch.path + "/merged") == files(scratch.path + "/whole"))
  }

  /// Journals as crashes, resumes and hand edits leave them (rows in any order, split across
  /// several files, some twice, some missing, `\r\n` and blank lines, a torn last line): a resume
  /// runs exactly the missing runs and writes the files of one uninterrupted sweep.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func anyJournalsResumeToTheSameFiles(seed: UInt64) throws {
    let whole = scratch.path + "/whole-\(seed)"
    _ = try Sweep.run(definition, into: whole, jobs: 2)
    let manifest = try SweepManifest(contentsOf: whole + "/sweep-manifest.json")
    let done = try Sweep.JournalIndex(folders: [whole], manifest: manifest)
    var random = RandomStream(seed: seed, stream: 0)
    let folder = scratch.path + "/edited-\(seed)"
    _ = try Sweep.run(definition, into: folder, jobs: 2)
    let runs = folder + "/runs"
    for name in try FileManager.default.contentsOfDirectory(atPath: runs) {
      try FileManager.default.removeItem(atPath: "\(runs)/\(name)")
    }
    let kept = (0..<60).filter { _ in random.next() % 5 != 0 }
    var journals = [String](repeating: "", count: Int(1 + random.next() % 4))
    let doubled = kept.filter { _ in random.next() % 6 == 0 }
    for run in kept.shuffled(using: &random) + doubled {
      var line = "\(run)\t" + (try done.row(run))
      if random.next() % 3 == 0 { line = line.replacingOccurrences(of: "\n", with: "\r\n") }
      if random.next() % 7 == 0 { line += "\n" }
      journals[Int(random.next() % UInt64(journals.count))] += line
    }
    journals[0] += "7\t3145728,jetsam"  // torn by a crash
    for (number, text) in journals.enumerated() {
      try Data(text.utf8).write(to: URL(fileURLWithPath: "\(runs)/journal-\(number)-1.tsv"))
    }
    let resumed = try Sweep.run(definition, into: folder, jobs: 2, resume: true)
    #expect(resumed.ran == 60 - kept.count && resumed.alreadyDone == kept.count)
    #expect(try files(folder) == files(whole))
  }

  /// A resume with nothing left to run adds no journal; a journal edited to `\r\n` line ends
  /// and given blank lines still gives the same files, and its blank lines count as no run.
  @Test func aJournalWithWindowsLineEndsAndBlankLinesGivesTheSameFiles() throws {
    let folder = scratch.path + "/crlf"
    _ = try Sweep.run(definition, into: folder, jobs: 2)
    let whole = try files(folder)
    let runs = folder + "/runs"
    let names = try FileManager.default.contentsOfDirectory(atPath: runs)
    #expect(try Sweep.run(definition, into: folder, jobs: 1, resume: true).ran == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: runs) == names)
    let name = try #require(names.first)
    let text = try String(contentsOfFile: "\(runs)/\(name)", encoding: .utf8)
    try Data(("\n" + text.replacingOccurrences(of: "\n", with: "\r\n\n")).utf8).write(
      to: URL(fileURLWithPath: "\(runs)/\(name)"))
    #expect(Sweep.journalRowCount(in: folder) == 60)
    let again = try Sweep.run(definition, into: folder, jobs: 1, resume: true)
    #expect(again.start == .resumed(done: 60) && again.ran == 0)
    #expect(try files(folder) == whole)
  }

  @Test func aMissingShardIsNamed() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/a", jobs: 1, shard: ShardSpec("1/2"))
    let error = try #require(throws: JetsimError.self) {
      try Sweep.merge([scratch.path + "/a"], into: scratch.path + "/m")
    }
    #expect("\(error)".contains("30 of 60 runs missing (the first: run 1)"))
  }

  @Test func resumingAnInterruptedSweepGivesTheUninterruptedFiles() throws {
    let whole = scratch.path + "/whole"
    _ = try Sweep.run(definition, into: whole, jobs: 2)
    // An interrupted sweep: 40 runs finished, one torn mid-line, nothing assembled.
    let interrupted = scratch.path + "/interrupted"
    _ = try Sweep.run(definition, into: interrupted, jobs: 2)
    let runs = interrupted + "/runs"
    for name in try FileManager.default.contentsOfDirectory(atPath: runs) {
      try FileManager.default.removeItem(atPath: "\(runs)/\(name)")
    }
    let manifest = try SweepManifest(contentsOf: whole + "/sweep-manifest.json")
    let done = try Sweep.JournalIndex(folders: [whole], manifest: manifest)
    let journal =
      try (0..<60).filter { $0 % 3 != 0 }.map { "\($0)\t\(try done.row($0))" }.joined()
      + "3\t3145728,jetsam,2,7200000,14"
    try Data(journal.utf8).write(to: URL(fileURLWithPath: runs + "/journal-1-1.tsv"))
    try FileManager.default.removeItem(atPath: interrupted + "/sweep.csv")
    try FileManager.default.removeItem(atPath: interrupted + "/sweep-summary.csv")
    let outcome = try Sweep.run(definition, into: interrupted, jobs: 2, resume: true)
    #expect(outcome.ran == 20 && outcome.alreadyDone == 40)
    #expect(try files(interrupted) == files(whole))
  }

  @Test func resumeRefusesADifferentSweep() throws {
    _ = try Sweep.run(definition, into: scratch.path + "/s", jobs: 1)
    let other = try SweepDefinition.load(
      at: "\(packageRoot)/Profiles/sweeps/light-user-memory.json")
    #expect(throws: JetsimError.self) {
      try Sweep.run(other, into: scratch.path + "/s", jobs: 1, resume: true)
    }
  }

  @Test func resumeWithNothingToResumeStartsAndAFreshStartSaysWhatItDiscards() throws {
    let folder = scratch.path + "/new"
    let first = try Sweep.run(definition, into: folder, jobs: 2, resume: true)
    #expect(first.start == .nothingToResume)
    #expect(first.ran == 60)
    let again = try Sweep.run(definition, into: folder, jobs: 2)
    #expect(again.start == .restarted(done: 60, finished: true))
    let resumed = try Sweep.run(definition, into: folder, jobs: 2, resume: true)
    #expect(resumed.start == .resumed(done: 60))
    #expect(resumed.ran == 0)
  }

  @Test func aFolderHoldingSomethingElseIsLeftAlone() throws {
    let folder = scratch.path + "/theirs"
    _ = try scratch.write("theirs/runs/notes.txt", "mine")
    let error = try #require(throws: JetsimError.self) {
      try Sweep.run(definition, into: folder, jobs: 1)
    }
    #expect("\(error)".contains("it holds 'runs/notes.txt', which a sweep does not write"))
    #expect(try String(contentsOfFile: folder + "/runs/notes.txt", encoding: .utf8) == "mine")
  }

  @Test(arguments: [
    (#""runs": 99999999999"#, "'runs' is 99999999999; expected a whole number from 1 to 10000000"),
    (#""runs": -1"#, "'runs' is -1; expected a whole number from 1 to 10000000"),
    (#""columns": []"#, "'columns' is 0 names; expected 1 to 1000 names on one line each"),
    (#""seeds": 61"#, "'seeds' is 61; expected a whole number from 1 to 60"),
  ])
  func aDamagedManifestIsOneLine(change: String, message: String) throws {
    let folder = scratch.path + "/damaged"
    _ = try Sweep.run(definition, into: folder, jobs: 2)
    let path = folder + "/sweep-manifest.json"
    var text = try String(contentsOfFile: path, encoding: .utf8)
    let key = String(change.prefix { $0 != ":" })
    let line = try #require(text.split(separator: "\n").first { $0.contains(key) })
    text = text.replacingOccurrences(
      of: line, with: "  " + change + (line.hasSuffix(",") ? "," : ""))
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: JetsimError.self) {
      try Sweep.merge([folder], into: scratch.path + "/merged")
    }
    #expect("\(error)" == "\(path): \(message)")
  }

  @Test func aDamagedJournalLineIsNamed() throws {
    let folder = scratch.path + "/journal"
    _ = try Sweep.run(definition, into: folder, jobs: 1)
    let runs = folder + "/runs"
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: runs).first)
    var lines = try String(contentsOfFile: "\(runs)/\(name)", encoding: .utf8).split(
      separator: "\n"
    ).map(String.init)
    lines[1] = String(lines[1].prefix(20))
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: "\(runs)/\(name)"))
    let error = try #require(throws: JetsimError.self) {
      try Sweep.run(definition, into: folder, jobs: 1, resume: true)
    }
    #expect(
      "\(error)".hasPrefix("\(runs)/\(name):2: the row of run ")
        && "\(error)".contains("the journal is damaged"))
  }

  /// A journal is read a chunk at a time: every complete line, wherever the chunks cut it, with
  /// its offset and number; a last line with no line end is left out.
  @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
  func journalLinesAreFoundAcrossChunks(chunk: Int) throws {
    var random = RandomStream(seed: UInt64(chunk), stream: 0)
    var text = ""
    for _ in 0..<200 {
      let length = Int(random.next() % 12)
      text +=
        String(repeating: "x", count: length) + (random.next() % 5 == 0 ? "\t1" : "")
        + (random.next() % 4 == 0 ? "\r\n" : "\n")
    }
    let file = scratch.path + "/lines-\(chunk).tsv"
    try Data((text + "torn").utf8).write(to: URL(fileURLWithPath: file))
    let descriptor = try InputFile.openForReading(file).descriptor
    defer { _ = close(descriptor) }
    var found: [(String, Int, Int)] = []
    try JournalLines.scan(descriptor, path: file, emptyLines: true, chunk: chunk) {
      line, offset, number in
      found.append((String(decoding: line, as: UTF8.self), offset, number))
    }
    var expected: [(String, Int, Int)] = []
    var offset = 0
    // Split by bytes: a String holds `\r\n` as one character.
    for (number, line) in Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false)
      .dropLast().enumerated()
    {
      // A `\r` before the line end is the line end's.
      let content = line.last == 13 ? line.dropLast() : line
      expected.append((String(decoding: content, as: UTF8.self), offset, number + 1))
      offset += line.count + 1
    }
    #expect(found.map(\.0) == expected.map(\.0))
    #expect(found.map(\.1) == expected.map(\.1))
    #expect(found.map(\.2) == expected.map(\.2))
  }

  /// A plain row's numbers are the doubles `Double(String)` reads, to the bit; anything else is
  /// left to the CSV reader.
  @Test func plainRowsReadTheNumbersDoubleReads() {
    var random = RandomStream(seed: 11, stream: 0)
    var fields: [String] = ["", "0", "-0.0000", "7", "123456789012345", "0.6250", "-12.5000"]
    for _ in 0..<20_000 {
      let scaled = random.next() % 10_000_000_000_000
      let decimals = Int(random.next() % 8)
      var text = String(scaled)
      if decimals > 0 {
        text = String(repeating: "0", count: max(0, decimals + 1 - text.count)) + text
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
      }
      fields.append(random.next() % 3 == 0 ? "-" + text : text)
    }
    for field in fields {
      let read = PlainRow.number(ArraySlice(field.utf8))
      if field.isEmpty {
        #expect(read == .some(nil))
      } else {
        #expect(read??.bitPattern == Double(field)?.bitPattern, "\(field)")
      }
    }
    for other in ["1e5", "+1", "1.", ".5", "1.2.3", "--1", "1-", "1234567890123456", "nan", " 1"] {
      #expect(PlainRow.number(ArraySlice(other.utf8)) == nil, "\(other)")
    }
    var values: [Double?] = []
    #expect(PlainRow.values(ArraySlice("a,3,,0.5000,".utf8), skipping: 1, into: &values))
    #expect(values == [3, nil, 0.5, nil])
    #expect(!PlainRow.values(ArraySlice("\"a,b\",3".utf8), skipping: 1, into: &values))
    #expect(PlainRow.fieldCount(ArraySlice("a,3,,0.5".utf8)) == 4)
    #expect(PlainRow.fieldCount(ArraySlice("\"a,b\",3".utf8)) == nil)
    #expect(Sweep.JournalIndex.fieldCount(ArraySlice("\"a,b\",3".utf8)) == 2)
  }

  /// A point's summary from its rows read twice is the summary of its values held together, to the
  /// bit: the sums are taken in the same order (sweep-summary.csv is unchanged by streaming).
  @Test func summariesInTwoPassesAreTheSameToTheBit() {
    var random = RandomStream(seed: 7, stream: 0)
    for count in [1, 2, 3, 10, 500] {
      let values: [Double?] = (0..<count).map { _ in
        random.next() % 7 == 0 ? nil : Double(random.next() % 1_000_000) / 7.0
      }
      let defined = values.compactMap { $0 }
      guard let summary = SampleSummary(values) else {
        #expect(defined.isEmpty)
        continue
      }
      let mean = defined.reduce(0, +) / Double(defined.count)
      #expect(summary.mean.bitPattern == mean.bitPattern)
      #expect(summary.min == defined.min() && summary.max == defined.max())
      if defined.count > 1 {
        let variance =
          defined.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(defined.count - 1)
        let ci95 =
          SampleSummary.tCritical95(degreesOfFreedom: defined.count - 1) * variance.squareRoot()
          / Double(defined.count).squareRoot()
        #expect(summary.ci95?.bitPattern == ci95.bitPattern)
      } else {
        #expect(summary.ci95 == nil)
      }
    }
  }

  @Test func shardSpecs() {
    #expect(ShardSpec("2/4") != nil)
    for bad in ["3/2", "0/2", "1/0", "2", "a/b", "1/2/3", "-1/2"] {
      #expect(ShardSpec(bad) == nil, "\(bad)")
    }
    let shards = (1...4).compactMap { ShardSpec("\($0)/4") }
    for run in 0..<20 { #expect(shards.filter { $0.owns(run) }.count == 1) }
  }

  func badSweep(_ axes: String) throws -> JetsimError {
    let scenario = "\(packageRoot)/Profiles/scenarios/light-user-2gb.json"
    let file = try scratch.write(
      "bad.json", #"{"version": 1, "name": "bad", "scenario": "\#(scenario)", "axes": {\#(axes)}}"#)
    return try #require(throws: JetsimError.self) { try SweepDefinition.load(at: file) }
  }

  @Test func badSweepFilesGetClearErrors() throws {
    #expect(
      "\(try badSweep(#""memroy": ["1GB"]"#))".contains(
        "unknown key 'axes.memroy'; did you mean 'memory'?"))
    #expect(
      "\(try badSweep(#""memory": []"#))".contains(
        "'axes.memory' is an empty list; expected at least one value"))
    #expect(
      "\(try badSweep(#""seeds": "5..1""#))".contains(
        "'axes.seeds': '5..1' is an empty range"))
    #expect("\(try badSweep(#""memory": ["1 gigabyte"]"#))".contains("'axes.memory[0]'"))
    #expect("\(try badSweep(#""policy": ["lru", "xnu"]"#))".contains("'xnu'"))
    // 100 MB is less than the device's reserved memory: no point may be an invalid device. The
    // point is named by its axis value, as the file writes it.
    #expect(
      "\(try badSweep(#""memory": ["1GB", "100MB"]"#))".hasSuffix(
        "bad.json: 'axes.memory[1]' is 100MB, with which the device's reserved is 450MB; expected less than memory (100MB)"
      ))
    #expect(
      "\(try badSweep(#""memory": ["1GB", "1024MB"]"#))".hasSuffix(
        "bad.json: 'axes.memory[1]' is '1024MB', which repeats axes.memory[0] ('1GB'); expected each value once (a repeated value repeats every run of that point)"
      ))
  }

  /// A catalogue without an app the scenario's user model opens: loading the sweep (what both
  /// `validate` and `sweep` do, before any output) names the sweep file and the axis value, not
  /// the memory it was combined with.
  @Test func aPointWhoseScenarioCannotRunIsRefusedAtLoad() throws {
    let maps = "\(packageRoot)/Profiles/apps/maps.json"
    let error = try badSweep(#""memory": ["1GB", "2GB"], "apps": [["\#(maps)"]]"#)
    #expect(
      "\(error)".hasPrefix(
        "\(scratch.path)/bad.json: 'axes.apps[0]': with catalogue-1, the point's scenario cannot run: \(packageRoot)/Profiles/scenarios/light-user-2gb.json: userModel.apps[0]: 'com.example.messenger' is not an app or system process of the scenario"
      ))
    // Two devices: the catalogue is at fault on either, so it alone is named.
    let devices = ["iphone-8", "iphone-13"].map { "\"\(packageRoot)/Profiles/devices/\($0).json\"" }
    let both = try badSweep(
      #""device": [\#(devices.joined(separator: ", "))], "apps": [["\#(maps)"]]"#)
    #expect("\(both)".contains("bad.json: 'axes.apps[0]': with catalogue-1, the point's"))
  }

  /// The scenario's lmkd watermarks fit the base device but not a smaller memory of the sweep.
  @Test func aPointWhoseMemoryTheWatermarksDoNotFitIsNamed() throws {
    let scenario = try scratch.write(
      "wm.json",
      try String(
        contentsOfFile: "\(packageRoot)/Profiles/scenarios/light-user-2gb.json", encoding: .utf8
      )
      .replacingOccurrences(of: "../", with: "\(packageRoot)/Profiles/")
      .replacingOccurrences(
        of: #""version": 1,"#,
        with:
          #""version": 1, "policyParameters": {"lmkd": {"watermarks": ["600MB", "700MB", "800MB"]}},"#
      ))
    #expect(try ProfileLoader.scenario(at: scenario).effectivePolicySettings["lmkd"] != [:])
    let file = try scratch.write(
      "wm-sweep.json",
      #"{"version": 1, "name": "wm", "scenario": "\#(scenario)", "axes": {"memory": ["3GB", "1GB"]}}"#
    )
    let error = try #require(throws: JetsimError.self) { try SweepDefinition.load(at: file) }
    #expect(
      "\(error)"
        == "\(file): 'axes.memory[1]': with 1GB, the point's scenario cannot run: \(scenario): 'policyParameters.lmkd.watermarks' is [600MB, 700MB, 800MB]; expected 3 sizes, ascending, below the device's memory less its reserved memory (1GB − 450MB = 574MB)"
    )
  }

  /// Starting over without `--resume` says whether the sweep it discards had finished.
  @Test func aRestartSaysWhetherTheSweepItDiscardsHadFinished() throws {
    let folder = scratch.path + "/restart"
    _ = try Sweep.run(definition, into: folder, jobs: 2, shard: ShardSpec("2/3"))
    let finished = try Sweep.run(definition, into: folder, jobs: 2, shard: ShardSpec("2/3"))
    #expect(finished.start == .restarted(done: 20, finished: true))
    let runs = folder + "/runs"
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: runs).first)
    let lines = try String(contentsOfFile: "\(runs)/\(name)", encoding: .utf8).split(
      separator: "\n")
    try Data((lines.prefix(7).joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: "\(runs)/\(name)"))
    let interrupted = try Sweep.run(definition, into: folder, jobs: 2, shard: ShardSpec("2/3"))
    #expect(interrupted.start == .restarted(done: 7, finished: false))
  }
}
