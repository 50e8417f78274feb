import Foundation
import JetsimTestSupport
import Testing

/// Functions stay small: none in Sources over 60 lines, in every target (a loader is one small
/// function per field or axis, a report one per step). Functions, initializers, subscripts,
/// computed properties and closures stored in properties all count.
@Suite struct FunctionLengthTests {
  static let limit = 60

  /// Every target: the folders under Sources, so a new target is covered without a line here.
  static let targets: [String] = {
    let root = "\(packageRoot)/Sources"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return names.filter { name in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: "\(root)/\(name)", isDirectory: &isFolder)
        && isFolder.boolValue
    }.sorted()
  }()

  /// The first line of a declaration with a body: a function, an initializer, a subscript, a
  /// computed property (`var x: T {`) or a closure stored in a property (`static let x = {`).
  static let start = try? NSRegularExpression(
    pattern:
      #"^\s*(?:@\w+\s+)*(?:(?:public|package|private|fileprivate|internal)(?:\(set\))?\s+|(?:static|class|mutating|override|nonisolated|final|lazy|@inlinable)\s+)*(?:func\s|init[?(<]|subscript[(<]|var\s+\w+\s*:[^=]*\{\s*$|(?:let|var)\s+\w+\s*(?::[^=]*)?=\s*\{)"#
  )

  /// Each declaration of `text` (see `start`) longer than `limit` lines: its first line and
  /// length. Braces are counted outside comments and string literals (but inside interpolations).
  static func longFunctions(in text: String, limit: Int) -> [(line: Int, length: Int)] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let scanned = SwiftBraces.of(lines)
    var found: [(Int, Int)] = []
    for (index, line) in lines.enumerated() where scanned[index].startsInCode {
      let range = NSRange(line.startIndex..., in: line)
      guard start?.firstMatch(in: line, range: range) != nil,
        let end = end(of: index, scanned.map(\.braces))
      else { continue }
      if end - index + 1 > limit { found.append((index + 1, end - index + 1)) }
    }
    return found
  }

  /// The line where the body of the declaration starting at `start` closes; nil for one with no
  /// body (a protocol requirement), which ends within a few lines.
  static func end(of start: Int, _ braces: [[Character]]) -> Int? {
    var depth = 0
    var opened = false
    for line in start..<braces.count {
      for brace in braces[line] {
        depth += brace == "{" ? 1 : -1
        opened = opened || brace == "{"
      }
      if opened && depth <= 0 { return line }
      if !opened && line > start + 15 { return nil }
    }
    return nil
  }

  @Test func everyFolderUnderSourcesIsATarget() {
    #expect(Self.targets.count >= 9)
    for target in ["Jetsim", "JetsimCLI", "JetsimCore", "JetsimFuzz", "JetsimTool"] {
      #expect(Self.targets.contains(target))
    }
  }

  @Test(arguments: FunctionLengthTests.targets)
  func noFunctionIsLongerThanTheLimit(target: String) throws {
    let root = "\(packageRoot)/Sources/\(target)"
    let walker = FileManager.default.enumerator(atPath: root)
    var long: [String] = []
    while let path = walker?.nextObject() as? String {
      guard path.hasSuffix(".swift") else { continue }
      let text = try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
      for (line, length) in Self.longFunctions(in: text, limit: Self.limit) {
        long.append("\(target)/\(path):\(line) is \(length) lines")
      }
    }
    #expect(long == [])
  }

  /// `lines` lines: `head`, then `body` repeated, then a closing brace.
  static func declaration(_ head: String, _ body: String, lines: Int) -> String {
    head + "\n" + String(repeating: body + "\n", count: lines - 2) + "  }\n"
  }

  /// The count can fail: a function of 62 lines is found, one of 60 is not.
  @Test func theCounterFindsALongFunction() {
    let body = "    let x = \"{\" // }"
    let long = Self.declaration("  func f() {", body, lines: 62)
    #expect(Self.longFunctions(in: long, limit: 60).map(\.length) == [62])
    #expect(
      Self.longFunctions(in: Self.declaration("  func f() {", body, lines: 60), limit: 60).isEmpty)
  }

  /// Computed properties and closures stored in statics are found too.
  @Test(arguments: [
    "  var text: String {", "  static var all: [Int] {", "  package private(set) var x: Int {",
    "  static let table: [Int] = {", "  private static let make = {",
  ])
  func theCounterFindsLongPropertiesAndClosures(head: String) {
    let text = Self.declaration(head, "    f()", lines: 62)
    #expect(Self.longFunctions(in: text, limit: 60).map(\.length) == [62])
  }

  /// Braces in a string's text do not count, those in its interpolations do: the interpolated
  /// closure does not end the function early, nor does a shell script's `{` keep it open.
  @Test func bracesInStringsAreNotCode() {
    let interpolated = ##"    let s = "\(a.map { " (\($0))" } ?? "")" + #"{"#"##
    #expect(
      Self.longFunctions(in: Self.declaration("  func f() {", interpolated, lines: 62), limit: 60)
        .map(\.length) == [62])
    let script = "  func f() {\n    let s = \"\"\"\n      f() {\n      \"\"\"\n    g()\n  }\n"
    #expect(Self.longFunctions(in: script + "  func g() {\n  }\n", limit: 5).map(\.length) == [6])
    #expect(Self.longFunctions(in: "  let s = \"\"\"\n  func f() {\n  \"\"\"\n", limit: 0).isEmpty)
  }
}

/// The braces of Swift source, line by line, outside comments and string literals; the code of a
/// string's interpolations counts. Strings may be multi-line (`"""`) or raw (`#"..."#`).
struct SwiftBraces {
  private enum Context {
    case code(parentheses: Int)
    case string(multiline: Bool, hashes: Int)
  }

  private var stack: [Context] = [.code(parentheses: 0)]
  private var commentDepth = 0

  /// For each of `lines`, its braces in order, and whether it starts in code (not inside a
  /// multi-line string or comment).
  static func of(_ lines: [String]) -> [(braces: [Character], startsInCode: Bool)] {
    var scanner = SwiftBraces()
    return lines.map { line in
      let startsInCode = scanner.stack.count == 1 && scanner.commentDepth == 0
      return (scanner.scan(Array(line)), startsInCode)
    }
  }

  private mutating func scan(_ line: [Character]) -> [Character] {
    var braces: [Character] = []
    var index = 0
    while index < line.count {
      if commentDepth > 0 {
        index = comment(line, at: index)
      } else if case .code(let parentheses) = stack[stack.count - 1] {
        index = code(line, at: index, parentheses: parentheses, into: &braces)
      } else if case .string(let multiline, let hashes) = stack[stack.count - 1] {
        index = string(line, at: index, multiline: multiline, hashes: hashes)
      }
    }
    // A single-line string ends with its line.
    while stack.count > 1, case .string(false, _) = stack[stack.count - 1] {
      stack.removeLast()
    }
    return braces
  }

  private mutating func comment(_ line: [Character], at index: Int) -> Int {
    if line.has("*/", at: index) {
      commentDepth -= 1
      return index + 2
    }
    if line.has("/*", at: index) {
      commentDepth += 1
      return index + 2
    }
    return index + 1
  }

  private mutating func code(
    _ line: [Character], at index: Int, parentheses: Int, into braces: inout [Character]
  ) -> Int {
    let top = stack.count - 1
    switch line[index] {
    case "/" where line.has("//", at: index): return line.count
    case "/" where line.has("/*", at: index):
      commentDepth = 1
      return index + 2
    case "{", "}": braces.append(line[index])
    case "(": stack[top] = .code(parentheses: parentheses + 1)
    case ")" where parentheses == 0 && top > 0: stack.removeLast()  // an interpolation's end
    case ")": stack[top] = .code(parentheses: parentheses - 1)
    case "#", "\"":
      let hashes = line[index...].prefix { $0 == "#" }.count
      let quote = index + hashes
      guard quote < line.count, line[quote] == "\"" else { break }
      let multiline = line.has("\"\"\"", at: quote)
      stack.append(.string(multiline: multiline, hashes: hashes))
      return quote + (multiline ? 3 : 1)
    default: break
    }
    return index + 1
  }

  private mutating func string(_ line: [Character], at index: Int, multiline: Bool, hashes: Int)
    -> Int
  {
    let delimiter = String(repeating: "#", count: hashes)
    if line.has("\\" + delimiter, at: index) {
      let next = index + 1 + hashes
      guard next < line.count, line[next] == "(" else { return next + 1 }  // an escape
      stack.append(.code(parentheses: 0))
      return next + 1
    }
    let end = (multiline ? "\"\"\"" : "\"") + delimiter
    guard line.has(end, at: index) else { return index + 1 }
    stack.removeLast()
    return index + end.count
  }
}

extension [Character] {
  /// Whether `text` stands at `index`.
  fileprivate func has(_ text: String, at index: Int) -> Bool {
    let characters = Array(text)
    return index + characters.count <= count
      && self[index..<index + characters.count].elementsEqual(characters)
  }
}
