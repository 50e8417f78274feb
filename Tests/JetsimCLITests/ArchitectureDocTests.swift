import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCLI

/// docs/architecture.md is checked against the code: every type, source file, folder and option it
/// names in backticks exists, so the page a newcomer reads first cannot drift from what is there.
@Suite struct ArchitectureDocTests {
  /// The names in backticks on the page.
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

  /// Every Swift source under `Sources` and `Tests`, as one text, and the files' paths.
  static func sources() throws -> (text: String, paths: [String]) {
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
    return (text, paths)
  }

  /// What is wrong with `name` as a reference to the code, or nil when it names something that
  /// exists (or is not a reference to the code: a command line, a value).
  static func problem(
    _ name: String, text: String, paths: [String], options: Set<String>
  ) -> String? {
    if name.hasPrefix("--") {
      let option = String(name.dropFirst(2).prefix { $0.isLetter || $0 == "-" })
      return options.contains(option) ? nil : "no option \(name)"
    }
    if name.hasSuffix(".swift") || (name.contains("/") && name.hasSuffix("/")) {
      let found = paths.contains { $0.hasSuffix(name) || $0.hasSuffix(String(name.dropLast())) }
      return found ? nil : "no file or folder \(name)"
    }
    // A type, or a type and its member: `ReportFolder`, `Subcommands.all`, `JetsimCommandLine.finish`.
    let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
    guard let type = parts.first, let first = type.first, first.isUppercase,
      type.allSatisfy({ $0.isLetter || $0.isNumber })
    else { return nil }
    // A target or a folder of one (`JetsimIO`, `Tables`) is named as a place, not a type.
    if paths.contains(where: { $0.hasSuffix("/\(type)") || $0.hasPrefix("\(type)/") }) {
      return nil
    }
    let declared = ["struct", "enum", "class", "protocol", "typealias", "actor", "extension"]
      .contains { text.contains("\($0) \(type)") }
    guard declared else { return "no type \(type)" }
    if parts.count == 2 {
      let member = String(parts[1].prefix { $0.isLetter || $0.isNumber })
      if !member.isEmpty, !text.contains(member) { return "no member \(name)" }
    }
    return nil
  }

  @Test func everythingThePageNamesExists() throws {
    let page = try String(contentsOfFile: packagePath("docs/architecture.md"), encoding: .utf8)
    let (text, paths) = try Self.sources()
    let options = Set(Subcommands.specs.flatMap { $0.allOptions.map(\.name) })
    let names = Self.quoted(in: page)
    #expect(names.count > 50, "the page names the code it describes")
    let problems = names.compactMap { Self.problem($0, text: text, paths: paths, options: options) }
    #expect(problems == [])
  }

  /// The check can fail: a type, a member, a file and an option that do not exist are found.
  @Test func aNameThatDoesNotExistIsFound() throws {
    let (text, paths) = try Self.sources()
    let options: Set<String> = ["out"]
    // Built here, so that the names are not in this file's own text, which the check reads.
    let missing = [
      "Report" + "FolderX", "ReportFolder." + "noSuch" + "Member", "Nope" + ".swift", "--nope",
    ]
    for name in missing {
      #expect(Self.problem(name, text: text, paths: paths, options: options) != nil, "\(name)")
    }
    for name in ["ReportFolder", "ReportFolder.commit", "JetsimIO/Files/ReportFile.swift", "--out"]
    {
      #expect(Self.problem(name, text: text, paths: paths, options: options) == nil, "\(name)")
    }
  }
}
