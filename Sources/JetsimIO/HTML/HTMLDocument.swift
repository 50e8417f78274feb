import JetsimCore

/// A well-formed XHTML document built piece by piece, with the reports' style sheet inline.
package struct HTMLDocument {
  /// The document so far: pieces added whole (`raw(_:)` of charts), then what is being written.
  private var parts: [MarkupBytes] = []
  private var body = MarkupBytes()

  package init(title: String) {
    body.append(
      """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <title>\(Self.escape(title))</title>
      <style>\(Self.style)</style></head><body>

      """)
  }

  package static let style = """
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;margin:24px auto;max-width:1100px;padding:0 16px}
    h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}
    table{border-collapse:collapse;font-size:13px;margin:6px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
    td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f2f2f2}.scroll{overflow-x:auto;max-width:100%}
    svg{width:100%;height:auto;display:block}svg text{font-size:12px;fill:#1a1a1a}svg .label{font-size:13px;font-weight:600}
    .axis line{stroke:#555;stroke-width:1}.axis .grid{stroke:#e4e4e4}.axis .zero{stroke:#555}.kill line{stroke:#000;stroke-width:0.6;stroke-dasharray:2 3}
    .kill path,.mark{fill:#000}.cross{stroke:#000;stroke-width:1.8;fill:none}
    .legend{display:flex;flex-wrap:wrap;gap:6px 18px;font-size:13px;margin:6px 0 0 70px}.legend span{display:inline-flex;align-items:center;gap:6px}.legend svg{width:auto;display:inline-block}
    .swatch{width:14px;height:14px;display:inline-block;border:1px solid #666}
    @media print{body{margin:0;max-width:none}h2{break-after:avoid}svg{break-inside:avoid}}
    """

  /// Escapes text for XHTML content and attribute values.
  package static func escape(_ text: String) -> String {
    // Most text has nothing to escape: one pass over its bytes, and it is returned as it is.
    guard
      text.utf8.contains(where: {
        $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
          || $0 == UInt8(ascii: "\"")
      })
    else { return text }
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }

  package mutating func heading(_ text: String) { body.append("<h1>\(Self.escape(text))</h1>\n") }
  package mutating func section(_ text: String) { body.append("<h2>\(Self.escape(text))</h2>\n") }
  package mutating func paragraph(_ text: String) { body.append("<p>\(Self.escape(text))</p>\n") }
  package mutating func raw(_ markup: String) {
    body.append(markup)
    body.append("\n")
  }

  /// Appends markup built as bytes (kept as pieces of their own, not copied), then a line end.
  package mutating func raw(_ markup: MarkupBytes...) {
    parts.append(body)
    parts += markup
    body = MarkupBytes()
    body.append("\n")
  }

  /// A table in a box that scrolls sideways when the table is wider than the page, so a wide
  /// table never widens the page itself.
  package mutating func table(header: [String], rows: [[String]], numericColumns: Set<Int>) {
    body.append(
      "<div class=\"scroll\"><table><thead><tr>"
        + header.map { "<th>\(Self.escape($0))</th>" }.joined()
        + "</tr></thead><tbody>\n")
    for row in rows {
      body.append("<tr>")
      for (column, cell) in row.enumerated() {
        body.append(numericColumns.contains(column) ? "<td class=\"n\">" : "<td>")
        body.append(escaped: cell)
        body.append("</td>")
      }
      body.append("</tr>\n")
    }
    body.append("</tbody></table></div>\n")
  }

  /// A legend: a swatch (a filled square, a line, a dashed line, or a marker) and its name for each item.
  package static func legend(_ items: [(name: String, colour: String, kind: String?)]) -> String {
    let entries = items.map { item -> String in
      let symbol: String
      switch item.kind {
      case "line":
        symbol =
          "<svg width=\"22\" height=\"10\" viewBox=\"0 0 22 10\"><line x1=\"0\" y1=\"5\" x2=\"22\" y2=\"5\" stroke=\"\(item.colour)\" stroke-width=\"2\"/></svg>"
      case "thin":
        symbol =
          "<svg width=\"22\" height=\"10\" viewBox=\"0 0 22 10\"><line x1=\"0\" y1=\"5\" x2=\"22\" y2=\"5\" stroke=\"\(item.colour)\" stroke-width=\"1\"/></svg>"
      case "dash":
        symbol =
          "<svg width=\"22\" height=\"10\" viewBox=\"0 0 22 10\"><line x1=\"0\" y1=\"5\" x2=\"22\" y2=\"5\" stroke=\"\(item.colour)\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/></svg>"
      case "kill":
        symbol =
          "<svg width=\"14\" height=\"14\" viewBox=\"0 0 14 14\"><path d=\"M3 3l8 8m0-8l-8 8\" stroke=\"#000\" stroke-width=\"2\"/></svg>"
      case "killTop":
        symbol =
          "<svg width=\"14\" height=\"14\" viewBox=\"0 0 14 14\"><path d=\"M2 3h10l-5 9z\" fill=\"#000\"/></svg>"
      case "launch":
        symbol =
          "<svg width=\"14\" height=\"14\" viewBox=\"0 0 14 14\"><path d=\"M7 2l5 9h-10z\" fill=\"#000\"/></svg>"
      case "resume":
        symbol =
          "<svg width=\"14\" height=\"14\" viewBox=\"0 0 14 14\"><circle cx=\"7\" cy=\"7\" r=\"3.5\" fill=\"#000\"/></svg>"
      default: symbol = "<i class=\"swatch\" style=\"background:\(item.colour)\"></i>"
      }
      return "<span>\(symbol)\(escape(item.name))</span>"
    }
    return "<div class=\"legend\">\(entries.joined())</div>\n"
  }

  package func finish() -> String {
    var whole = MarkupBytes()
    for part in finishedParts() { whole.append(part) }
    return whole.text
  }

  /// The document in pieces, one after the other: what `finish()` returns, as UTF-8, to be
  /// written out without being copied into one.
  package func finishedParts() -> [MarkupBytes] {
    var last = body
    last.append(
      "<p class=\"note\">Written by jetsim \(JetsimVersion.current).</p>\n</body></html>\n")
    return parts + [last]
  }
}
