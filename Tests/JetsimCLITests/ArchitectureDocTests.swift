import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCLI

/// docs/architecture.md is checked against the code: every type, source file, folder, repository
/// path, report file and option it names in backticks exists, and so does every type and source
/// file its pictures name, so the page a newcomer reads first cannot drift from what is there. The
/// claims it makes about the whole repository are checked too: library errors name no
/// command-line option, and nothing cites design notes kept outside the repository as if they
/// were in it.
@Suite struct ArchitectureDocTests {
  /// What the names on the page are checked against.
  struct Code {
    /// Every Swift source under `Sources` and `Tests`, as one text.
    var text: String
    /// The paths of the files and folders under `Sources` and `Tests`, from the package root.
    var paths: [String]
    /// The names of the command line's options, without their dashes.
    var options: Set<String>
    /// The package's root folder, for paths given from it (`docs/profiles.md`).
    var root = packageRoot
    /// The types the text declares or extends.
    var types: Set<String> = []
  }

  /// Names of formats and tools the pictures mention that are not the code's.
  static let notCode: Set<String> = ["DocC", "JetsamEvent", "MetricKit", "SwiftPM"]

  /// The standard library's types the page may name.
  static let standardLibrary: Set<String> = ["Mirror", "Equatable", "Sendable", "String", "Int"]

  /// The page's text outside fenced blocks, and the fenced blocks' lines.
  static func split(_ page: String) -> (prose: String, pictures: [String]) {
    var prose: [Substring] = []
    var pictures: [String] = []
    var fenced = false
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        fenced.toggle()
      } else if fenced {
        pictures.append(String(line))
      } else {
        prose.append(line)
      }
    }
    return (prose.joined(separator: "\n"), pictures)
  }

  /// The names in backticks in `text`.
  static func quoted(in text: String) -> [String] {
    var names: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "`") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: "`") else { break }
      names.append(String(after[..<close]))
      rest = after[after.index(after: close)...]
    }
    return names
  }

  /// The type names (two or more capitalised words run together: `DeviceMemory`) and Swift file
  /// names in the lines of a picture.
  static func pictured(in lines: [String]) -> [String] {
    let words = lines.flatMap {
      $0.split { !($0.isLetter || $0.isNumber || $0 == "." || $0 == "+" || $0 == "_") }
    }
    let trimmed = words.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".+")) }
    return trimmed.filter { word in
      if word.hasSuffix(".swift") { return true }
      guard let first = word.first, first.isUppercase, word.allSatisfy(\.isLetter) else {
        return false
      }
      // A capital after a lower-case letter: more than one word.
      return zip(word, word.dropFirst()).contains { $0.isLowercase && $1.isUppercase }
    }.filter { !notCode.contains($0) }
  }

  /// The code: every Swift source under `Sources` and `Tests`, and the command line's options.
  static func code() throws -> Code {
    var text = ""
    var paths: [String] = []
    for root in ["Sources", "Tests"] {
      let walker = FileManager.default.enumerator(atPath: "\(packageRoot)/\(root)")
      while let path = walker?.nextObject() as? String {
        paths.append("\(root)/\(path)")
        guard path.hasSuffix(".swift") else { continue }
        text += try String(contentsOfFile: "\(packageRoot)/\(root)/\(path)", encoding: .utf8)
      }
    }
    let options = Set(Subcommands.specs.flatMap { $0.allOptions.map(\.name) })
    return Code(
      text: text, paths: paths, options: options, types: declaredTypes(in: text))
  }

  /// Every Swift source under `Sources` and `Tests`, as one text, and the files' paths (other
  /// suites check their pages' names with it).
  static func sources() throws -> (text: String, paths: [String]) {
    let code = try code()
    return (code.text, code.paths)
  }

  /// The names of the types `text` declares or extends (`struct Name`, `enum Name<`, ...).
  static func declaredTypes(in text: String) -> Set<String> {
    let keywords: Set<Substring> = [
      "struct", "enum", "class", "protocol", "typealias", "actor", "extension",
    ]
    var types = Set<String>()
    var previous: Substring = ""
    for word in text.split(whereSeparator: \.isWhitespace) {
      if keywords.contains(previous) {
        types.insert(String(word.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
      }
      previous = word
    }
    return types
  }

  /// What is wrong with `name` as a reference to the code, or nil when it names something that
  /// exists (or is not a reference to the code: a command line, a value).
  static func problem(_ name: String, in code: Code) -> String? {
    if name.hasPrefix("--") {
      let option = String(name.dropFirst(2).prefix { $0.isLetter || $0 == "-" })
      return code.options.contains(option) ? nil : "no option \(name)"
    }
    guard !name.contains(" ") else { return nil }
    if name.hasSuffix(".swift") || name.hasSuffix(".md") || name.contains("/") {
      let bare = name.hasSuffix("/") ? String(name.dropLast()) : name
      let found =
        FileManager.default.fileExists(atPath: "\(code.root)/\(bare)")
        || code.paths.contains {
          $0.hasSuffix("/\(bare)") || (bare.first == "+" && $0.hasSuffix(bare))
        }
      return found ? nil : "no file or folder \(name)"
    }
    if [".csv", ".json", ".html"].contains(where: name.hasSuffix) {
      // A file jetsim writes: its name is in the code, as a string.
      return code.text.contains("\"\(name)\"") ? nil : "no report file \(name)"
    }
    // A type, or a type and its member: `ReportFolder`, `Subcommands.all`, `JetsimCommandLine.finish`.
    let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
    guard let type = parts.first, let first = type.first, first.isUppercase,
      type.allSatisfy({ $0.isLetter || $0.isNumber })
    else { return nil }
    guard code.types.contains(type) || standardLibrary.contains(type) else {
      // A target, a folder or a file (`JetsimIO`, `Tables`, `RowMemo`) is named as a place.
      let place = code.paths.contains {
        $0.hasSuffix("/\(type)") || $0.hasSuffix("/\(type).swift") || $0.hasPrefix("\(type)/")
      }
      return place && parts.count == 1 ? nil : "no type \(type)"
    }
    if parts.count == 2 {
      let member = String(parts[1].prefix { $0.isLetter || $0.isNumber })
      if !member.isEmpty, !code.text.contains(member) { return "no member \(name)" }
    }
    return nil
  }

  @Test func everythingThePageNamesExists() throws {
    let page = try String(contentsOfFile: packagePath("docs/architecture.md"), encoding: .utf8)
    let code = try Self.code()
    let (prose, pictures) = Self.split(page)
    let names = Self.quoted(in: prose)
    #expect(names.count > 50, "the page names the code it describes")
    #expect(names.filter { $0.contains("/") }.count > 10, "and the files a change touches")
    #expect(names.compactMap { Self.problem($0, in: code) } == [])
    let drawn = Self.pictured(in: pictures)
    #expect(drawn.count > 50, "the pictures name the types of one run")
    #expect(Set(drawn.compactMap { Self.problem($0, in: code) }).sorted() == [])
  }

  /// The first picture is the one run, from the trace to the files, through every layer.
  @Test func thePageStartsWithOneRunThroughEveryLayer() throws {
    let page = try String(contentsOfFile: packagePath("docs/architecture.md"), encoding: .utf8)
    let firstPicture = try #require(page.components(separatedBy: "```").dropFirst().first)
    let steps = [
      "trace.csv", "TraceCursor", "ScenarioWorkload", "Simulation", "DeviceMemory",
      "EvictionPolicy", "ReportWriter", "RowStream", "ReportFolder", "events.csv",
    ]
    let positions = steps.map { firstPicture.range(of: $0)?.lowerBound }
    #expect(!positions.contains(nil), "\(zip(steps, positions).filter { $0.1 == nil })")
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "in this order")
    for target in ["JetsimTool", "JetsimCLI", "JetsimBatch", "JetsimIO", "JetsimCore"] {
      #expect(firstPicture.contains(target), "\(target) in the first picture")
    }
  }

  /// The check can fail: a type, a member, a file, a path, a report file, an option and a
  /// pictured type that do not exist are found.
  @Test func aNameThatDoesNotExistIsFound() throws {
    let code = try Self.code()
    // Built here, so that the names are not in this file's own text, which the check reads.
    let missing = [
      "Report" + "FolderX", "Report" + "Fold", "ReportFolder." + "noSuch" + "Member",
      "Nope" + ".swift", "docs/" + "nope.md", "Sources/JetsimCore/" + "Nope/", "nope" + ".csv",
      "--" + "nope",
    ]
    for name in missing {
      #expect(Self.problem(name, in: code) != nil, "\(name)")
    }
    for name in [
      "ReportFolder", "ReportFolder.commit", "JetsimIO/Files/ReportFile.swift", "--out",
      "docs/profiles.md", "Sources/JetsimCore/Policies/", "+JSON.swift", "events.csv",
    ] {
      #expect(Self.problem(name, in: code) == nil, "\(name)")
    }
    let drawn = Self.pictured(in: ["  trace.csv ─ Trace" + "Cursorz ─▶ rows (LineReader.swift)"])
    #expect(drawn == ["Trace" + "Cursorz", "LineReader.swift"])
    #expect(drawn.compactMap { Self.problem($0, in: code) }.count == 1)
  }

  /// The folders and top-level files the repository tracks.
  static let repositoryRoots = [
    ".ci", "Profiles", "Reports", "Sources", "Tests", "bench", "docs", "scripts", "README.md",
    "Package.swift",
  ]

  /// The text files of the repository that contain `needle`, by path from the root.
  static func files(containing needle: String) -> [String] {
    var found: [String] = []
    for root in repositoryRoots {
      var paths = [root]
      if let walker = FileManager.default.enumerator(atPath: "\(packageRoot)/\(root)") {
        while let path = walker.nextObject() as? String { paths.append("\(root)/\(path)") }
      }
      for path in paths {
        guard let data = FileManager.default.contents(atPath: "\(packageRoot)/\(path)"),
          let text = String(data: data, encoding: .utf8)
        else { continue }
        if text.contains(needle) { found.append(path) }
      }
    }
    return found.sorted()
  }

  /// The design notes behind jetsim are outside this repository: nothing in it cites them by a
  /// file name a reader would look for here.
  @Test func nothingCitesTheDesignNotesAsAFileOfTheRepository() {
    let notes = "MODEL" + ".md"
    #expect(Self.files(containing: notes) == [], "say \"design notes outside this repository\"")
    #expect(Self.files(containing: "DeviceProfile" + "+Keys.swift").count > 1, "the check reads")
  }

  /// Library errors speak of files, keys and lines, never of command-line options (the page says
  /// so): no string in JetsimCore, JetsimIO or JetsimBatch outside a comment names `--anything`.
  @Test func libraryTextsNameNoCommandLineOption() throws {
    var found: [String] = []
    for target in ["JetsimCore", "JetsimIO", "JetsimBatch"] {
      let folder = "\(packageRoot)/Sources/\(target)"
      let walker = FileManager.default.enumerator(atPath: folder)
      while let path = walker?.nextObject() as? String {
        guard path.hasSuffix(".swift") else { continue }
        let text = try String(contentsOfFile: "\(folder)/\(path)", encoding: .utf8)
        for (number, line) in text.split(separator: "\n").enumerated()
        where Self.namesAnOption(line) {
          found.append("\(target)/\(path):\(number + 1)")
        }
      }
    }
    #expect(found == [], "the CLI adds the option that fixes an error (ErrorMessage)")
    #expect(Self.namesAnOption(#"  expected: "finish the sweep (-"# + #"-resume)")"#))
    #expect(!Self.namesAnOption(#"  /// with "-"# + #"-resume" the CLI resumes"#))
  }

  /// Whether `line`, outside a comment, has `--` followed by a letter.
  static func namesAnOption(_ line: Substring) -> Bool { !options(in: line).isEmpty }

  /// The options `line` names outside a comment (`--out` gives `out`).
  static func options(in line: Substring) -> [String] {
    let code = line.trimmingCharacters(in: .whitespaces)
    guard !code.hasPrefix("//") else { return [] }
    var found: [String] = []
    var rest = Substring(code)
    while let range = rest.range(of: "--") {
      rest = rest[range.upperBound...]
      let name = rest.prefix { $0.isLetter || $0 == "-" }
      if name.first?.isLetter == true { found.append(String(name)) }
    }
    return found
  }

  /// Every option the command line's own texts (errors, help, hints) name is one it declares.
  @Test func commandLineTextsNameOnlyDeclaredOptions() throws {
    let code = try Self.code()
    let builtIn: Set<String> = ["help", "version", "generate-completion-script"]
    var unknown: [String] = []
    var named = 0
    for target in ["JetsimCLI", "JetsimTool"] {
      let folder = "\(packageRoot)/Sources/\(target)"
      let walker = FileManager.default.enumerator(atPath: folder)
      while let path = walker?.nextObject() as? String {
        guard path.hasSuffix(".swift") else { continue }
        let text = try String(contentsOfFile: "\(folder)/\(path)", encoding: .utf8)
        for (number, line) in text.split(separator: "\n").enumerated() {
          for option in Self.options(in: line) {
            named += 1
            if !code.options.contains(option), !builtIn.contains(option) {
              unknown.append("\(target)/\(path):\(number + 1): --\(option)")
            }
          }
        }
      }
    }
    #expect(named > 50, "the check reads the command line's texts")
    #expect(unknown == [])
    #expect(Self.options(in: #"  "use -"# + #"-out or -"# + #"-nope-x""#) == ["out", "nope-x"])
  }
}
