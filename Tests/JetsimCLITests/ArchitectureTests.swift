import Foundation
import JetsimTestSupport
import Testing

/// The folders inside each target are layers (docs/architecture.md): a file may use the types of
/// its own folder and of the folders before it in the target's order, never of one after it. The
/// compiler enforces the targets' direction; this test enforces the folders'.
@Suite struct ArchitectureTests {
  /// Each target's folders, lowest first; "." is the target's own top folder.
  static let layers: [String: [String]] = [
    "JetsimCore": ["Support", "Engine", "Model", "Memory", "Policies", "Workload", "Simulation"],
    "JetsimIO": [
      "Concurrency", "Files", "CSV", "JSON", "Traces", "Profiles", "Tables", "HTML", "MetricKit",
      "Reports",
      "Import", "Jetsam",
    ],
    "JetsimBatch": ["Replay", ".", "MetricKit"],
    "JetsimCLI": ["Output", "Declaration", "Commands", "."],
  ]

  /// A target's Swift files by folder, comments and string literals removed.
  static func sources(of target: String) throws -> [(folder: String, text: String)] {
    let root = "\(packageRoot)/Sources/\(target)"
    let walker = FileManager.default.enumerator(atPath: root)
    var files: [(String, String)] = []
    while let path = walker?.nextObject() as? String {
      guard path.hasSuffix(".swift") else { continue }
      let parts = path.split(separator: "/")
      let folder = parts.count > 1 ? String(parts[0]) : "."
      var text = try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
      text = text.replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
      text = text.replacingOccurrences(
        of: #""(?:[^"\\\n]|\\.)*""#, with: "\"\"", options: .regularExpression)
      files.append((folder, text))
    }
    return files
  }

  /// Every use of a type declared (at the top level) in another folder: (user, owner, type).
  static func references(in files: [(folder: String, text: String)]) throws -> [(
    String, String, String
  )] {
    let declaration = try NSRegularExpression(
      pattern:
        #"^(?:@\w+\s+)*(?:(?:public|package|private|fileprivate|internal|final|indirect)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)"#,
      options: .anchorsMatchLines)
    var owner: [String: String] = [:]
    for (folder, text) in files {
      let range = NSRange(text.startIndex..., in: text)
      for match in declaration.matches(in: text, range: range) {
        if let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }),
          owner[name] == nil
        {
          owner[name] = folder
        }
      }
    }
    let word = try NSRegularExpression(pattern: #"\b[A-Z]\w*\b"#)
    var found: Set<String> = []
    var edges: [(String, String, String)] = []
    for (folder, text) in files {
      for match in word.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        guard let range = Range(match.range, in: text) else { continue }
        let name = String(text[range])
        if let home = owner[name], home != folder, found.insert("\(folder)>\(name)").inserted {
          edges.append((folder, home, name))
        }
      }
    }
    return edges
  }

  /// The uses that go up the order.
  static func violations(target: String, order: [String]) throws -> [String] {
    let files = try sources(of: target)
    return try references(in: files).compactMap { user, owner, type in
      guard let u = order.firstIndex(of: user), let o = order.firstIndex(of: owner) else {
        return "\(target)/\(user) or \(owner) is not in the layer list"
      }
      return o > u ? "\(target)/\(user) uses \(type) of \(owner), a higher layer" : nil
    }
  }

  @Test(arguments: ["JetsimCore", "JetsimIO", "JetsimBatch", "JetsimCLI"])
  func foldersAreLayers(target: String) throws {
    let order = try #require(Self.layers[target])
    let folders = Set(try Self.sources(of: target).map(\.folder))
    #expect(folders == Set(order), "every folder of \(target) has its place")
    #expect(try Self.violations(target: target, order: order) == [])
  }

  /// The check can fail: with the order reversed, the model's real uses are violations.
  @Test func aReversedOrderIsCaught() throws {
    let order = try #require(Self.layers["JetsimCore"])
    let found = try Self.violations(target: "JetsimCore", order: order.reversed())
    #expect(found.contains("JetsimCore/Simulation uses EventQueue of Engine, a higher layer"))
  }
}
