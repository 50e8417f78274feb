import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// JSON written byte by byte (`JSONText`) is what the straightforward writer, a character at a time,
/// writes, and what the parser reads back.
@Suite struct JSONTextTests {
  /// The escapes of RFC 8259 §7, a scalar at a time: the reference the byte writer must match.
  static func referenceQuote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        out += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  @Test func quotesAsTheReferenceDoes() {
    let fixed = [
      "", "plain", "a\"b", "back\\slash", "tab\there", "\u{0}\u{1f}\u{7f}", "é中😀", "\r\n",
      "cumulativeBackgroundURLSessionCompletionTimeoutExitCount", "eight ch\"", "\u{1f}eight chars",
    ]
    var random = RandomStream(seed: 7, source: .policy)
    let alphabet = Array("ab\"\\\n\r\t\u{1}\u{1b}é😀 ".unicodeScalars)
    let generated = (0..<500).map { _ in
      String(
        String.UnicodeScalarView(
          (0..<random.below(40)).map { _ in alphabet[random.below(alphabet.count)] }))
    }
    // Bytes are looked at eight at a time: an escape at every place of a word, and the bytes
    // around the bounds of the test (0x1f and 0x20, quote and backslash's neighbours, 0x7f, 0x80+).
    let lanes = ["\"", "\\", "\u{0}", "\u{1f}", " ", "!", "#", "[", "]", "\u{7f}", "é"].flatMap {
      special in
      (0..<24).map {
        String(repeating: "a", count: $0) + special + String(repeating: "b", count: 23 - $0)
      }
    }
    for text in fixed + lanes + generated {
      #expect(JSONText.quote(text) == Self.referenceQuote(text), "\(Array(text.utf8))")
    }
  }

  @Test func rendersNestedValuesWithTwoSpacesALevel() throws {
    let value = JSONValue.fields([
      ("name", .string("a\"b")), ("empty", .list([])), ("none", .fields([])),
      ("list", .list([.integer(1), .null, .bool(true), .fields([("x", .decimal(0.5))])])),
    ])
    let text = JSONText.render(value)
    #expect(
      text == """
        {
          "name": "a\\"b",
          "empty": [],
          "none": {},
          "list": [
            1,
            null,
            true,
            {
              "x": 0.5000
            }
          ]
        }

        """)
    _ = try JSONParser.parse(Array(text.utf8))  // and it reads back
  }
}
