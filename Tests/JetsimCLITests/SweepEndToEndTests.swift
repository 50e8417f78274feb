import Foundation
import JetsimTestSupport
import Testing

/// The sweep commands as a cluster would use them: shards as separate processes, merged; a sweep
/// killed mid-way and resumed.
@Suite struct SweepEndToEndTests {
  let sweepFile = "\(packageRoot)/Profiles/sweeps/heavy-social-policies.json"

  func contents(_ folder: String) -> [String: Data] {
    var result: [String: Data] = [:]
    for name in ["sweep.csv", "sweep-summary.csv", "sweep-manifest.json"] {
      result[name] = FileManager.default.contents(atPath: "\(folder)/\(name)")
    }
    return result
  }

  /// docs/scaling.md's local example: three shards in three processes at once, then merge.
  @Test func shardsInSeparateProcessesMergeIntoTheSingleMachineOutput() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    let single = try jetsim(["sweep", sweepFile, "--jobs", "1", "--out", folder + "/single"])
    #expect(single.status == 0, "\(single.errors)")
    let processes = try (1...3).map { index -> Process in
      let process = Process()
      process.executableURL = try jetsimBinary()
      process.arguments = [
        "sweep", sweepFile, "--shard", "\(index)/3", "--out", "\(folder)/shard-\(index)", "--quiet",
      ]
      try process.run()
      return process
    }
    for process in processes {
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
    let merged = try jetsim([
      "merge", folder + "/shard-1", folder + "/shard-2", folder + "/shard-3", "--out",
      folder + "/merged",
    ])
    #expect(merged.status == 0, "\(merged.errors)")
    #expect(merged.output.contains("merged 3 shard folders: 60 runs"))
    let expected = contents(folder + "/single")
    #expect(expected["sweep.csv"] != nil)
    #expect(contents(folder + "/merged") == expected)
  }

  @Test func aKilledSweepResumesToTheSameFiles() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path
    _ = try jetsim(["sweep", sweepFile, "--jobs", "1", "--out", folder + "/whole"])
    let process = Process()
    process.executableURL = try jetsimBinary()
    process.arguments = ["sweep", sweepFile, "--jobs", "1", "--out", folder + "/killed", "--quiet"]
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    var done = 0
    while Date() < deadline {
      // Finished runs are lines of the journals in runs/.
      let runs = folder + "/killed/runs"
      let journals = (try? FileManager.default.contentsOfDirectory(atPath: runs)) ?? []
      done = journals.reduce(0) { count, name in
        count
          + (FileManager.default.contents(atPath: "\(runs)/\(name)")?.filter { $0 == 10 }.count ?? 0)
      }
      if done >= 3 { break }
      usleep(500)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let finishedAnyway = FileManager.default.fileExists(atPath: folder + "/killed/sweep.csv")
    #expect(done >= 3)
    let resumed = try jetsim([
      "sweep", sweepFile, "--jobs", "2", "--out", folder + "/killed", "--resume",
    ])
    #expect(resumed.status == 0, "\(resumed.errors)")
    if !finishedAnyway { #expect(resumed.output.contains("done before")) }
    #expect(contents(folder + "/killed") == contents(folder + "/whole"))
  }

  @Test func badSweepUsage() throws {
    let shard = try jetsim(["sweep", sweepFile, "--shard", "3/2"])
    #expect(shard.status == 64)
    #expect(shard.errors.contains("--shard '3/2' is not I/N with 1 <= I <= N"))
    let noOut = try jetsim(["merge", "a", "b"])
    #expect(noOut.status == 64 && noOut.errors.contains("'merge' needs --out DIR"))
    let target = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "warm-resume-ration>=0.9",
    ])
    #expect(target.status == 64 && target.errors.contains("did you mean 'warm_resume_ratio'?"))
  }

  /// A sweep whose catalogue lacks an app the user model opens: `validate` says so as `sweep`
  /// does, and `sweep` writes nothing (no folder, no manifest, no journal).
  @Test func aSweepWithAPointThatCannotRunFailsBeforeWritingAnything() throws {
    let scratch = try ScratchFolder()
    let file = try scratch.write(
      "b.json",
      #"{"version": 1, "name": "b", "scenario": "\#(scenarioPath("light-user-2gb"))", "axes": {"memory": ["1GB", "2GB"], "apps": [["\#(packageRoot)/Profiles/apps/maps.json"]], "seeds": "1..10"}}"#
    )
    let validate = try jetsim(["validate", file])
    let sweep = try jetsim(["sweep", file, "--out", scratch.path + "/out"])
    for result in [validate, sweep] {
      #expect(result.status == 65)
      #expect(
        result.errors.hasPrefix(
          "jetsim: \(file): 'axes.apps[0]': with catalogue-1, the point's scenario cannot run: "))
      #expect(result.errors.split(separator: "\n").count == 1)
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/out"))
  }

  /// Starting over a finished sweep says it was finished, not interrupted.
  @Test func startingOverAFinishedSweepSaysItWasFinished() throws {
    let scratch = try ScratchFolder()
    let light = "\(packageRoot)/Profiles/sweeps/light-user-memory.json"
    let folder = scratch.path + "/light"
    #expect(try jetsim(["sweep", light, "--out", folder, "-q"]).status == 0)
    let again = try jetsim(["sweep", light, "--out", folder, "-q"])
    #expect(
      again.errors
        == "jetsim: \(folder) held a finished sweep (50 runs); starting over discards it (--resume keeps it)\n"
    )
  }

  /// A folder given twice to merge (however its path is written) is a usage error, and nothing
  /// is merged.
  @Test func mergeRefusesAFolderGivenTwice() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path + "/shard"
    #expect(try jetsim(["sweep", sweepFile, "--shard", "1/2", "--out", folder, "-q"]).status == 0)
    let twice = try jetsim([
      "merge", folder, scratch.path + "/./shard/", "--out", scratch.path + "/m",
    ])
    #expect(twice.status == 64)
    #expect(
      twice.errors.hasPrefix(
        "jetsim: SHARD_DIR 2 ('\(scratch.path)/./shard/') is SHARD_DIR 1 again; give each shard's folder once ("
      ))
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/m"))
  }

  /// An --out that is one of the shard folders (however written) is a usage error, and the
  /// shard is left as it was, still a shard a resumed sweep finds.
  @Test func mergeRefusesAnOutThatIsAShard() throws {
    let scratch = try ScratchFolder()
    let folder = scratch.path + "/shard"
    #expect(try jetsim(["sweep", sweepFile, "--shard", "1/2", "--out", folder, "-q"]).status == 0)
    let before = try scratch.contents("shard")
    let into = try jetsim(["merge", folder, "--out", scratch.path + "/./shard/"])
    #expect(into.status == 64)
    #expect(
      into.errors
        == "jetsim: --out '\(scratch.path)/./shard/' is SHARD_DIR 1; write the combined sweep to a folder of its own (see 'jetsim merge --help')\n"
    )
    #expect(try scratch.contents("shard") == before)
    let resumed = try jetsim([
      "sweep", sweepFile, "--shard", "1/2", "--out", folder, "--resume", "-q",
    ])
    #expect(resumed.status == 0, "\(resumed.errors)")
  }

  /// Resuming a folder of another shard, or of the merged sweep, says what the folder holds
  /// (finished, not interrupted; merged or a shard) and how to start over instead.
  @Test func resumingAnotherShardsFolderSaysWhatItHoldsAndHowToStartOver() throws {
    let scratch = try ScratchFolder()
    for index in 1...2 {
      let shard = try jetsim([
        "sweep", sweepFile, "--shard", "\(index)/2", "--out", scratch.file("s\(index)"), "-q",
      ])
      #expect(shard.status == 0, "\(shard.errors)")
    }
    #expect(
      try jetsim(["merge", scratch.file("s1"), scratch.file("s2"), "--out", scratch.file("m")])
        .status == 0)
    let cases = [
      ("m", "1/2", "the finished sweep (run whole, or merged from its shards)"),
      ("s1", "2/2", "the finished shard 1/2"),
    ]
    for (folder, shard, held) in cases {
      let resumed = try jetsim([
        "sweep", sweepFile, "--shard", shard, "--out", scratch.file(folder), "--resume", "-q",
      ])
      #expect(resumed.status == 65)
      #expect(
        resumed.errors
          == "jetsim: \(scratch.file(folder))/sweep-manifest.json: 'shard' is a different sweep or shard; expected the same sweep file, profiles and shard as \(held) there; to start over, which discards it, run the sweep again without resuming (leave out --resume)\n"
      )
    }
  }

  @Test func planPrintsTheAnswerAndTheCurve() throws {
    let result = try jetsim([
      "plan", scenarioPath("light-user-2gb"), "--target", "warm-resume-ratio>=0.9", "--seeds", "3",
      "--min", "1GB", "--max",
      "3GB", "--precision", "128MB",
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(
      result.output.contains(
        "light-user-2gb: 1536MB for warm_resume_ratio >= 0.9000 @p95 (95 % interval 1408MB to n/a"))
    #expect(result.output.contains("gives warm_resume_ratio >= 0.9000 on 95 % of days"))
    #expect(result.output.contains("seeds: 3 → 1536MB (the seeds given; --max-seeds N"))
    #expect(
      result.output.contains(
        "memory  seeds        p95  95 % interval of it  share met  target met"))
  }
}
