import Dispatch
import Foundation
import Jetsim
import JetsimTestSupport
import Testing

/// Docs that run, as rustdoc tests examples and cram tests shell sessions: every ```swift block of
/// README.md and docs/*.md type-checks against this package with the imports it shows, every
/// quoted `$ jetsim …` session prints what the doc says, and every `from: "x.y.z"` is the package's
/// version.
@Suite struct DocTests {
  /// README.md and every docs/*.md, by path from the root.
  static var documents: [String] {
    let docs = (try? FileManager.default.contentsOfDirectory(atPath: packagePath("docs"))) ?? []
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
  }

  /// A fenced block: its document, the line of its opening fence, its language and its text.
  struct Block: Sendable, CustomStringConvertible {
    var document: String
    var line: Int
    var language: String
    var text: String
    var description: String { "\(document):\(line)" }
  }

  /// Every fenced block of `document`, in order.
  static func blocks(in document: String) -> [Block] {
    let text = (try? String(contentsOfFile: packagePath(document), encoding: .utf8)) ?? ""
    var blocks: [Block] = []
    var open: Block?
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      if line.hasPrefix("```") {
        if let block = open {
          blocks.append(block)
          open = nil
        } else {
          open = Block(
            document: document, line: index + 1, language: String(line.dropFirst(3)), text: "")
        }
      } else if open != nil {
        open?.text += line + "\n"
      }
    }
    return blocks
  }

  // MARK: Swift blocks

  /// A Swift block as a file to type-check: a manifest as it is; a block with imports as it is; a
  /// block without imports continues its document, after the last block with imports (in a `do`
  /// scope of its own unless it declares tests), with every import its document showed before.
  static func sources() -> [(Block, source: String, manifest: Bool)] {
    var result: [(Block, String, Bool)] = []
    for document in documents {
      var imports: [String] = []
      var context = ""
      for block in blocks(in: document) where block.language == "swift" {
        let lines = block.text.split(separator: "\n").map(String.init)
        let own = lines.filter { $0.hasPrefix("import ") }
        if own.contains("import PackageDescription") {
          result.append((block, block.text, true))
          continue
        }
        if !own.isEmpty {
          imports += own.filter { !imports.contains($0) }
          context = block.text
          result.append((block, block.text, false))
          continue
        }
        let declaresTests = lines.contains { $0.hasPrefix("@Test") || $0.hasPrefix("final class") }
        let body = declaresTests ? block.text : "do {\n\(block.text)}\n"
        let missing = imports.filter { !context.contains($0) }
        result.append((block, missing.joined(separator: "\n") + "\n" + context + body, false))
      }
    }
    return result
  }

  /// The folder of the built modules (`Jetsim.swiftmodule`, …), beside the `jetsim` binary.
  static func modules() throws -> String {
    try jetsimBinary().deletingLastPathComponent().appendingPathComponent("Modules").path
  }

  /// The toolchain's manifest API, beside `swiftc`.
  static func manifestAPI() throws -> String? {
    let swiftc = try tool("which", ["swiftc"]).output.trimmingCharacters(
      in: .whitespacesAndNewlines)
    let api = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("lib/swift/pm/ManifestAPI").path
    return FileManager.default.fileExists(atPath: api) ? api : nil
  }

  @Test func everySwiftBlockTypeChecks() throws {
    let sources = Self.sources()
    #expect(sources.count >= 15, "README.md and docs/ have Swift blocks")
    let scratch = try ScratchFolder()
    let modules = try Self.modules()
    let manifestAPI = try Self.manifestAPI()
    let failures = Failures()
    // Two compilers at a time: each takes a few seconds and a few hundred MB.
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for (index, (block, source, manifest)) in sources.enumerated() where index % 2 == worker {
        do {
          let file = try scratch.write("block\(index).swift", source)
          var arguments = ["swiftc", "-typecheck", file]
          if manifest {
            guard let manifestAPI else { continue }
            arguments += ["-I", manifestAPI, "-package-description-version", "6.0"]
          } else {
            arguments += ["-I", modules]
          }
          let result = try tool(arguments[0], Array(arguments.dropFirst()), in: scratch.path)
          if result.status != 0 {
            let errors = (result.output + result.errors).split(separator: "\n")
              .filter { $0.contains("error:") }.prefix(3).joined(separator: "\n")
            failures.add("\(block) does not type-check:\n\(errors)")
          }
        } catch {
          failures.add("\(block): \(error)")
        }
      }
    }
    #expect(failures.all.isEmpty, "\(failures.all.joined(separator: "\n"))")
  }

  /// Failures gathered from several threads.
  final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
  }

  // MARK: Versions

  @Test func everyVersionRequirementIsThePackagesVersion() throws {
    var found = 0
    for document in Self.documents {
      let text = try String(contentsOfFile: packagePath(document), encoding: .utf8)
      for part in text.components(separatedBy: "from: \"").dropFirst() {
        let version = part.prefix { $0 != "\"" }
        guard version.split(separator: ".").count == 3,
          version.allSatisfy({ $0.isNumber || $0 == "." })
        else { continue }
        found += 1
        #expect(String(version) == JetsimVersion.current, "\(document): from: \"\(version)\"")
      }
    }
    #expect(found > 0, "the docs show a version requirement")
  }

  // MARK: Shell sessions

  /// A quoted session: the commands of a block whose lines start with `$ ` and what each prints.
  struct Session: Sendable, CustomStringConvertible {
    var block: Block
    var steps: [(command: String, output: String)]
    var description: String { block.description }
  }

  /// Every block that quotes `jetsim` at a prompt (`$ jetsim …`, `$ swift run [-c release] jetsim
  /// …`), with commands continued over lines ending in `\`; the fuzzer's sessions are timed, so
  /// not compared.
  static func sessions() -> [Session] {
    documents.flatMap(blocks(in:)).compactMap { block in
      var steps: [(String, String)] = []
      var continuing = false
      for line in block.text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("$ ") || continuing, !(steps.isEmpty && !line.hasPrefix("$ ")) {
          if continuing, var last = steps.popLast() {
            last.0 += " " + line.trimmingCharacters(in: .whitespaces)
            steps.append(last)
          } else {
            steps.append((String(line.dropFirst(2)), ""))
          }
          continuing = line.hasSuffix("\\")
          if continuing, var last = steps.popLast() {
            last.0 = String(last.0.dropLast())
            steps.append(last)
          }
        } else if var last = steps.popLast() {
          last.1 += line + "\n"
          steps.append(last)
        }
      }
      guard let first = steps.first?.0,
        first.hasPrefix("jetsim ") || first.hasPrefix("swift run jetsim ")
          || first.hasPrefix("swift run -c release jetsim ")
      else { return nil }
      return Session(
        block: block,
        steps: steps.map { ($0.0, $0.1.hasSuffix("\n\n") ? String($0.1.dropLast()) : $0.1) })
    }
  }

  @Test func everyQuotedSessionPrintsWhatTheDocSays() throws {
    let sessions = Self.sessions()
    #expect(sessions.count >= 8, "README.md and docs/ quote jetsim sessions")
    let binary = try jetsimBinary().path
    for session in sessions {
      // A folder of its own that sees the package's Profiles and golden reports.
      let scratch = try ScratchFolder()
      try FileManager.default.createDirectory(
        atPath: scratch.file("Reports"), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: scratch.file("Profiles"), withDestinationPath: packagePath("Profiles"))
      try FileManager.default.createSymbolicLink(
        atPath: scratch.file("Reports/golden"), withDestinationPath: packagePath("Reports/golden"))
      // A doc's /tmp paths go to the scratch folder, so the machine's own /tmp cannot change the
      // output; the output is compared with them as the doc writes them.
      let tmp = scratch.file("tmp")
      try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
      for (command, expected) in session.steps {
        var line = command.replacingOccurrences(of: " /tmp/", with: " \(tmp)/")
        for prefix in ["swift run -c release jetsim ", "swift run jetsim ", "jetsim "]
        where line.hasPrefix(prefix) {
          line = "'\(binary)' " + line.dropFirst(prefix.count)
          break
        }
        let result = try tool("sh", ["-c", line + " 2>&1"], in: scratch.path)
        let output = result.output.replacingOccurrences(of: "\(tmp)/", with: "/tmp/")
        #expect(
          output == expected,
          "\(session): `\(command)` prints\n\(output)\nwhere the doc says\n\(expected)")
      }
    }
  }
}
