import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// Documents written through templates (`JSONStamp`) come out as `JSONPrettyBytes` writes each of
/// them, whatever their shapes and the order they come in.
@Suite struct JSONStampTests {
  /// A document of nested objects, strings and integers, written member by member.
  struct Document: JSONDocument {
    indirect enum Value {
      case string(String)
      case integer(Int)
      case object([(String, Value)])
    }

    let members: [(String, Value)]

    func write<Sink: JSONSink>(to sink: inout Sink) { Self.write(.object(members), to: &sink) }

    static func write<Sink: JSONSink>(_ value: Value, to sink: inout Sink) {
      switch value {
      case .string(let text): sink.string(text)
      case .integer(let number): sink.integer(number)
      case .object(let members):
        sink.beginObject()
        for (key, member) in members {
          sink.key(key)
          write(member, to: &sink)
        }
        sink.endObject()
      }
    }
  }

  /// What `JSONPrettyBytes` writes for `documents`, one after the other at indent `depth`.
  static func pretty(_ documents: [Document], depth: Int) -> [UInt8] {
    var pretty = JSONPrettyBytes(depth: depth)
    for document in documents { document.write(to: &pretty) }
    return pretty.bytes
  }

  /// Where `written` first differs from `expected`, with the text around it; nil if they are equal.
  static func difference(_ written: [UInt8], _ expected: [UInt8]) -> String? {
    guard written != expected else { return nil }
    let index = zip(written, expected).prefix { $0 == $1 }.count
    func around(_ bytes: [UInt8]) -> String {
      String(decoding: bytes[max(0, index - 40)..<min(bytes.count, index + 40)], as: UTF8.self)
    }
    return
      "byte \(index): wrote \(around(written).debugDescription), expected \(around(expected).debugDescription)"
  }

  /// A random document: one of a few dozen shapes (keys, nesting, empty objects, a string or an
  /// integer in a place), random values, names that need escapes.
  static func randomDocument(_ random: inout RandomStream) -> Document {
    let names = ["a", "b", "quote\"d", "cumulativeMemoryPressureExitCount"]
    func value(_ level: Int) -> Document.Value {
      switch random.below(level < 2 ? 4 : 2) {
      case 0:
        return .integer(random.below(3) == 0 ? Int.min + random.below(9) : random.below(1 << 40))
      case 1: return .string(String(repeating: "é\n\"x", count: random.below(4)))
      default:
        return .object(
          (0..<random.below(3)).map { names[random.below(2 + $0)] as String }.map {
            ($0, value(level + 1))
          })
      }
    }
    return Document(members: (0..<random.below(4)).map { (names[$0], value(1)) })
  }

  @Test func documentsComeOutAsTheyRender() {
    var random = RandomStream(seed: 11, source: .policy)
    for depth in [0, 1, 3] {
      let documents = (0..<2_000).map { _ in Self.randomDocument(&random) }
      var stamp = JSONStamp(depth: depth)
      for document in documents { stamp.append(document) }
      #expect(Self.difference(stamp.bytes, Self.pretty(documents, depth: depth)) == nil)
    }
  }

  /// A document that keeps to a template's shape until it adds a member, ends early, has another
  /// key or an object where the template has a value, or keeps the shape with values of other
  /// kinds: each is written as it renders, with the text of the documents before it untouched.
  @Test func aDocumentThatLeavesATemplateStillRenders() {
    let base = Document(members: [("a", .integer(1)), ("b", .object([("c", .string("x"))]))])
    let others = [
      Document(members: base.members + [("d", .integer(2))]),
      Document(members: [("a", .integer(1))]),
      Document(members: [("a", .integer(1)), ("e", .object([("c", .string("x"))]))]),
      Document(members: [("a", .object([])), ("b", .object([("c", .string("x"))]))]),
      Document(members: [("a", .string("1")), ("b", .object([("c", .integer(-7))]))]),
      Document(members: []),
    ]
    for other in others {
      let documents = [base, base, other, base, other]
      var stamp = JSONStamp(depth: 1)
      for document in documents { stamp.append(document) }
      #expect(Self.difference(stamp.bytes, Self.pretty(documents, depth: 1)) == nil)
    }
  }

  /// Past `maxTemplates` shapes, a new one takes the place of the one that fitted longest ago:
  /// documents of every shape, in every order, still come out as they render.
  @Test func moreShapesThanTemplatesStillRender() {
    let documents = (0..<(3 * JSONStamp.maxTemplates)).map { count in
      Document(members: (0..<count).map { ("k\($0)", .integer($0)) })
    }
    let order = documents + documents.reversed() + documents + documents.prefix(3) + documents
    var stamp = JSONStamp()
    for document in order { stamp.append(document) }
    #expect(Self.difference(stamp.bytes, Self.pretty(order, depth: 0)) == nil)
  }

  /// Keys that Swift's `==` takes as equal (canonically equivalent) but that are other bytes get
  /// templates of their own, each written as it is spelled: a precomposed `é` and an `e` with a
  /// combining accent, two combining marks in either order (as many bytes), and the Kelvin sign
  /// and `K` (an ASCII key).
  @Test(arguments: [
    ("caf\u{E9}", "cafe\u{301}"), ("a\u{301}\u{316}", "a\u{316}\u{301}"), ("K", "\u{212A}"),
    ("\u{212A}", "K"),
  ])
  func keysAreComparedByTheirBytes(first: String, second: String) {
    #expect(first == second && Array(first.utf8) != Array(second.utf8))
    let documents = [first, second, first, second].enumerated().map { index, key in
      Document(members: [(key, .integer(index)), ("n", .object([(key, .string(key))]))])
    }
    var stamp = JSONStamp()
    for document in documents { stamp.append(document) }
    #expect(Self.difference(stamp.bytes, Self.pretty(documents, depth: 0)) == nil)
  }

  /// The caller's own text between documents (as `metrickit.json` writes its list) stays where
  /// it was put, and a document after the text is emptied is written as before.
  @Test func textAddedBetweenDocumentsStays() {
    let document = Document(members: [("n", .integer(5))])
    var stamp = JSONStamp(depth: 1)
    stamp.bytes += "[\n  ".utf8
    stamp.append(document)
    stamp.bytes.removeAll()
    stamp.bytes += ",\n  ".utf8
    stamp.append(document)
    #expect(String(decoding: stamp.bytes, as: UTF8.self) == ",\n  {\n    \"n\": 5\n  }")
  }
}
