import Foundation
import JetsimTestSupport
import Testing

/// Every public symbol of the library products has a doc comment (`///` or `/** … */` above it,
/// attributes between allowed): public types, members, initializers, operators, enum cases,
/// protocol requirements and members of public extensions. A member that implements a requirement
/// of a public protocol (`description`, `record`, `nextEviction`, …) may go without, as its
/// documentation is the requirement's: that is a name declared in one of the library's public
/// protocols, or one of the standard library's few that the library implements.
@Suite struct DocCommentTests {
  /// The targets of the library products `Jetsim` and `JetsimTesting`.
  static let targets = ["Jetsim", "JetsimBatch", "JetsimCore", "JetsimIO", "JetsimTesting"]
  /// The other targets: executables, and the command line's library, none of them public API.
  static let otherTargets = ["JetsimBench", "JetsimCLI", "JetsimFuzz", "JetsimTool"]
  /// Requirements of the standard library's protocols the library implements.
  static let standardRequirements: Set<String> = ["description", "<", "==", "next"]

  /// A declaration's first line: its modifiers, its keyword and its name.
  static let declaration = try? NSRegularExpression(
    pattern:
      #"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*((?:(?:public|open|package|private|fileprivate|internal)(?:\(set\))?\s+|(?:static|class|mutating|override|nonisolated|final|lazy|indirect|convenience|required|dynamic)\s+)*)(func|init|subscript|var|let|struct|enum|class|protocol|typealias|case|actor|associatedtype|extension)\b\s*(\w+|[^\s\w(]+|)"#
  )

  /// A public declaration without a doc comment: where it is, its name (an initializer's or
  /// subscript's is `init` or `subscript`), and whether it is a protocol's requirement.
  struct Undocumented: Equatable, CustomStringConvertible {
    var line: Int
    var name: String
    var text: String
    var isRequirement = false
    var description: String { "\(line): \(text)" }
  }

  /// What one file declares: the names of its public protocols' requirements, and its public
  /// declarations without a doc comment.
  static func scan(_ text: String) -> (requirements: Set<String>, undocumented: [Undocumented]) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let scanned = SwiftBraces.of(lines)
    // The declarations whose bodies enclose the line: their keyword, and whether they are public.
    var containers: [(kind: String, isPublic: Bool)] = []
    var pending: (kind: String, isPublic: Bool)?
    var requirements: Set<String> = []
    var undocumented: [Undocumented] = []
    for (index, line) in lines.enumerated() {
      let inTypeBody = containers.last.map { Self.typeKinds.contains($0.kind) } ?? true
      if scanned[index].startsInCode, inTypeBody,
        let match = declaration?.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
        let modifiers = Range(match.range(at: 1), in: line).map({ String(line[$0]) }),
        let kind = Range(match.range(at: 2), in: line).map({ String(line[$0]) }),
        let captured = Range(match.range(at: 3), in: line).map({ String(line[$0]) })
      {
        let name = ["init", "subscript"].contains(kind) ? kind : captured
        let container = containers.last ?? (kind: "file", isPublic: false)
        let words = Set(modifiers.split(whereSeparator: \.isWhitespace).map(String.init))
        // `public` counts in a public type, a file or an extension (of a type public or not).
        let explicit =
          !words.isDisjoint(with: ["public", "open"])
          && (container.isPublic || ["file", "extension"].contains(container.kind))
        let restricted = !words.isDisjoint(with: ["private", "fileprivate", "internal", "package"])
        let inherits =
          container.isPublic && !restricted && ["protocol", "extension"].contains(container.kind)
        let isPublic =
          explicit || inherits || (kind == "case" && container.isPublic && container.kind == "enum")
        let isRequirement = container.kind == "protocol"
        if isRequirement, container.isPublic { requirements.insert(name) }
        if isPublic && kind != "extension" && !documented(lines, above: index) {
          undocumented.append(
            Undocumented(
              line: index + 1, name: name, text: line.trimmingCharacters(in: .whitespaces),
              isRequirement: isRequirement))
        }
        pending = (kind, isPublic || (kind == "extension" && explicit))
        if ["var", "let", "case", "typealias", "associatedtype"].contains(kind),
          !scanned[index].braces.contains("{")
        {
          pending = nil
        }
      }
      for brace in scanned[index].braces {
        if brace == "{" {
          containers.append(pending ?? (kind: "code", isPublic: false))
          pending = nil
        } else if !containers.isEmpty {
          containers.removeLast()
        }
      }
    }
    return (requirements, undocumented)
  }

  /// The declarations whose bodies hold further declarations.
  static let typeKinds: Set<String> = ["struct", "enum", "class", "protocol", "actor", "extension"]

  /// Whether the declaration at `index` has a doc comment above it (over any attribute lines): a
  /// `///` line, or a block comment opened with `/**`.
  static func documented(_ lines: [String], above index: Int) -> Bool {
    var above = index - 1
    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") {
      above -= 1
    }
    guard above >= 0 else { return false }
    let previous = lines[above].trimmingCharacters(in: .whitespaces)
    if previous.hasPrefix("///") { return true }
    guard previous.hasSuffix("*/") else { return false }
    var opening = above
    while opening > 0, !lines[opening].contains("/*") { opening -= 1 }
    return lines[opening].trimmingCharacters(in: .whitespaces).hasPrefix("/**")
  }

  /// Of `undocumented`, those not excused as implementations of `requirements`: a requirement
  /// itself never is, nor is a declaration without a name.
  static func unexcused(_ undocumented: [Undocumented], requirements: Set<String>)
    -> [Undocumented]
  {
    undocumented.filter { $0.isRequirement || $0.name.isEmpty || !requirements.contains($0.name) }
  }

  @Test func everyPublicSymbolOfTheLibraryIsDocumented() throws {
    var requirements = Self.standardRequirements
    var undocumented: [(file: String, symbol: Undocumented)] = []
    var files = 0
    for target in Self.targets {
      let root = "\(packageRoot)/Sources/\(target)"
      let walker = FileManager.default.enumerator(atPath: root)
      while let path = walker?.nextObject() as? String {
        guard path.hasSuffix(".swift") else { continue }
        files += 1
        let found = Self.scan(try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8))
        requirements.formUnion(found.requirements)
        undocumented += found.undocumented.map { ("\(target)/\(path)", $0) }
      }
    }
    #expect(files > 100)
    #expect(requirements.isSuperset(of: ["nextEviction", "record", "appDidChange"]))
    let missing = undocumented.filter {
      !Self.unexcused([$0.symbol], requirements: requirements).isEmpty
    }
    #expect(missing.map { "\($0.file):\($0.symbol)" } == [])
  }

  /// Every folder under Sources is either a library target scanned here or one of the others: a
  /// new target is a choice to make, not one left out unseen.
  @Test func everyTargetIsScannedOrNamedAsNotAPI() throws {
    let root = "\(packageRoot)/Sources"
    let folders = try FileManager.default.contentsOfDirectory(atPath: root).filter {
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: "\(root)/\($0)", isDirectory: &isFolder)
        && isFolder.boolValue
    }
    #expect(Set(folders) == Set(Self.targets + Self.otherTargets))
  }

  /// The scan can fail: it finds an undocumented public function, property, case of a public enum,
  /// requirement of a public protocol and member of a public extension, and passes over documented
  /// ones, attributes, private members, the members of an internal type and the cases of a
  /// switch.
  @Test func theScanFindsUndocumentedPublicSymbols() {
    let text = """
      /// Documented.
      public enum Level {
        /// Documented.
        case low
        case high
        /// Documented.
        @inlinable public func rank() -> Int {
          switch self {
          case .low: return 0
          case .high: return 1
          }
        }
        public var weight: Int { 1 }
        private func hidden() {}
      }
      /// Documented.
      public protocol Source {
        func read() -> Int
      }
      public extension Level {
        static func parse(
          _ text: String
        ) -> Level? { nil }
        /// Documented.
        @discardableResult
        func documented() -> Int { 0 }
      }
      extension Level {
        public func more() {}
      }
      enum Internal {
        case one
        public func hidden() {}
      }
      /// Documented.
      public struct Reader: Source {
        public init() {}
        public static func < (a: Reader, b: Reader) -> Bool { true }
        /* Not a doc comment. */
        public func read() -> Int { 0 }
        /**
         Documented.
         */
        public func close() {}
      }
      """
    let found = Self.scan(text)
    #expect(
      found.undocumented.map(\.name) == [
        "high", "weight", "read", "parse", "more", "init", "<", "read",
      ])
    #expect(found.requirements == ["read"])
    // Reader's `read` takes the requirement's documentation, and `<` the standard library's; the
    // requirement itself does not, nor does anything else.
    let unexcused = Self.unexcused(
      found.undocumented, requirements: found.requirements.union(["<"]))
    #expect(unexcused.map(\.name) == ["high", "weight", "read", "parse", "more", "init"])
    #expect(unexcused.filter(\.isRequirement).map(\.line) == [18])
  }
}
