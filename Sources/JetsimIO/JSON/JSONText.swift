import JetsimCore

/// Writing JSON: string literals escaped as RFC 8259 requires. Every JSON file jetsim writes
/// (`run.json`, profiles, manifests) quotes its strings here.
package enum JSONText {
  /// `text` as a JSON string literal, with quotes, backslashes and control characters escaped.
  package static func quote(_ text: String) -> String {
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
}
