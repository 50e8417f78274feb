/// Small text helpers shared by every layer: trimming, digits, storage of one's own, and excerpts of
/// user-supplied text safe to quote in a one-line message.

extension Character {
  /// Whether this is one of the ten ASCII digits.
  package var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
  /// The text without leading and trailing spaces (only U+0020: tabs and line breaks are data).
  package func trimmingSpaces() -> String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}

extension String {
  /// The same text in storage of its own (small strings are stored inline and never shared), so
  /// runs on other threads never touch the same reference count.
  package var unshared: String { String(decoding: Array(utf8), as: UTF8.self) }

  /// The text as a message may quote it: at most `limit` characters (the rest counted, not shown),
  /// with line breaks, tabs and other control characters written as escapes, so that an error stays
  /// one short line whatever the input held.
  package func excerpt(limit: Int = 80) -> String {
    var out = ""
    var shown = 0
    for scalar in unicodeScalars {
      if shown == limit {
        let rest = unicodeScalars.count - limit
        out += "… (\(rest) more characters)"
        break
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
        || scalar.value == 0x2028 || scalar.value == 0x2029:
        out += "\\u{\(String(scalar.value, radix: 16))}"
      default: out.unicodeScalars.append(scalar)
      }
      shown += 1
    }
    return out
  }

  /// Whether the text holds a line break or another control character: names that reach reports,
  /// folder names and one-line messages must not.
  package var hasControlCharacters: Bool {
    unicodeScalars.contains {
      $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) || $0.value == 0x2028
        || $0.value == 0x2029
    }
  }
}

extension Array {
  /// The elements sorted by `less`, elements that compare equal kept in their original order.
  ///
  /// - Complexity: O(*n* log *n*).
  package func stableSorted(by less: (Element, Element) -> Bool) -> [Element] {
    enumerated().sorted { a, b in
      less(a.element, b.element) || (!less(b.element, a.element) && a.offset < b.offset)
    }.map(\.element)
  }
}

extension Int {
  /// The count and its noun, singular for one: `1 seed`, `2 seeds`, `3 policies` (with `plural`).
  package func counted(_ singular: String, _ plural: String? = nil) -> String {
    "\(self) \(self == 1 ? singular : plural ?? singular + "s")"
  }
}
