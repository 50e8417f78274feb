/// A chart drawn as inline SVG: a plot area with axes, ticks and labels in units, and the marks the
/// reports need. Coordinates are written with one decimal, the same on every platform.
struct SVGChart {
  let width: Double
  let height: Double
  let left: Double
  let right = 20.0
  let top = 14.0
  let bottom = 42.0
  let xMax: Double
  let yMax: Double
  private var body = ""

  init(
    width: Double, height: Double, label: String, xMax: Double, yMax: Double,
    leftMargin: Double = 70
  ) {
    self.width = width
    self.height = height
    self.left = leftMargin
    self.xMax = max(xMax, 1)
    self.yMax = max(yMax, 1)
    let total = "0 0 \(n(width + leftMargin + right)) \(n(height + top + bottom))"
    body =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(total)\" role=\"img\" aria-label=\"\(HTMLDocument.escape(label))\">"
    body += "<title>\(HTMLDocument.escape(label))</title>"
  }

  /// A number as SVG writes it.
  func n(_ value: Double) -> String { Units.decimal(value, digits: 1) }
  func x(_ value: Double) -> Double { left + min(max(value / xMax, 0), 1) * width }
  func y(_ value: Double) -> Double { top + height - min(max(value / yMax, 0), 1) * height }

  mutating func axes(
    xLabel: String, yLabel: String?, xFormat: (Double) -> String, yFormat: ((Double) -> String)?
  ) {
    body += "<g class=\"axis\">"
    body +=
      "<line x1=\"\(n(left))\" y1=\"\(n(top + height))\" x2=\"\(n(left + width))\" y2=\"\(n(top + height))\"/>"
    for tick in 0...6 {
      let value = xMax * Double(tick) / 6
      body +=
        "<line x1=\"\(n(x(value)))\" y1=\"\(n(top + height))\" x2=\"\(n(x(value)))\" y2=\"\(n(top + height + 5))\"/>"
      body +=
        "<text x=\"\(n(x(value)))\" y=\"\(n(top + height + 18))\" text-anchor=\"middle\">\(HTMLDocument.escape(xFormat(value)))</text>"
    }
    body +=
      "<text x=\"\(n(left + width / 2))\" y=\"\(n(top + height + 36))\" text-anchor=\"middle\" class=\"label\">\(HTMLDocument.escape(xLabel))</text>"
    if let yLabel, let yFormat {
      body +=
        "<line x1=\"\(n(left))\" y1=\"\(n(top))\" x2=\"\(n(left))\" y2=\"\(n(top + height))\"/>"
      for tick in 0...5 {
        let value = yMax * Double(tick) / 5
        body +=
          "<line x1=\"\(n(left - 5))\" y1=\"\(n(y(value)))\" x2=\"\(n(left + width))\" y2=\"\(n(y(value)))\" class=\"grid\"/>"
        body +=
          "<text x=\"\(n(left - 8))\" y=\"\(n(y(value) + 4))\" text-anchor=\"end\">\(HTMLDocument.escape(yFormat(value)))</text>"
      }
      body +=
        "<text x=\"14\" y=\"\(n(top + height / 2))\" text-anchor=\"middle\" class=\"label\" transform=\"rotate(-90 14 \(n(top + height / 2)))\">\(HTMLDocument.escape(yLabel))</text>"
    }
    body += "</g>"
  }

  /// A filled area between two step functions (each value holds until the next time).
  mutating func stepArea(
    times: [Double], lower: [Double], upper: [Double], end: Double, fill: String, title: String
  ) {
    guard !times.isEmpty else { return }
    var points: [String] = []
    for index in times.indices {
      let next = index + 1 < times.count ? times[index + 1] : end
      points.append("\(n(x(times[index]))),\(n(y(upper[index])))")
      points.append("\(n(x(next))),\(n(y(upper[index])))")
    }
    for index in times.indices.reversed() {
      let next = index + 1 < times.count ? times[index + 1] : end
      points.append("\(n(x(next))),\(n(y(lower[index])))")
      points.append("\(n(x(times[index]))),\(n(y(lower[index])))")
    }
    body +=
      "<polygon points=\"\(points.joined(separator: " "))\" fill=\"\(fill)\"><title>\(HTMLDocument.escape(title))</title></polygon>"
  }

  mutating func stepLine(
    times: [Double], values: [Double], end: Double, stroke: String, dash: String?, title: String
  ) {
    guard !times.isEmpty else { return }
    var points: [String] = []
    for index in times.indices {
      let next = index + 1 < times.count ? times[index + 1] : end
      points.append(
        "\(n(x(times[index]))),\(n(y(values[index]))) \(n(x(next))),\(n(y(values[index])))")
    }
    body +=
      "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"0.8\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")><title>\(HTMLDocument.escape(title))</title></polyline>"
  }

  mutating func horizontalLine(_ value: Double, stroke: String, dash: String?, title: String) {
    body +=
      "<line x1=\"\(n(left))\" y1=\"\(n(y(value)))\" x2=\"\(n(left + width))\" y2=\"\(n(y(value)))\" stroke=\"\(stroke)\" stroke-width=\"1.5\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")><title>\(HTMLDocument.escape(title))</title></line>"
  }

  /// Items grouped by the column (`width` pixels wide) of their time, in time order; each group is
  /// drawn at its first item's position.
  func columns<Item>(of items: [Item], width: Double = 1, time: (Item) -> Double) -> [(
    x: Double, items: [Item]
  )] {
    var groups: [(x: Double, items: [Item])] = []
    var lastColumn = -Double.infinity
    for item in items {
      let position = x(time(item))
      let column = (position / width).rounded()
      if column == lastColumn, !groups.isEmpty {
        groups[groups.count - 1].items.append(item)
      } else {
        groups.append((position.rounded(), [item]))
        lastColumn = column
      }
    }
    return groups
  }

  /// Segments merged so that none is narrower than a pixel (the later state of a pixel wins), so a
  /// lane has at most one bar per pixel column, however long the run.
  func coalesced(_ segments: [TimelineRecorder.Segment]) -> [TimelineRecorder.Segment] {
    var result: [TimelineRecorder.Segment] = []
    for segment in segments {
      if let last = result.last, x(Double(segment.startMs)) - x(Double(last.startMs)) < 1,
        result.count > 1
      {
        result[result.count - 1].state = segment.state
      } else {
        result.append(segment)
      }
      if result.count >= 2, result[result.count - 2].state == result[result.count - 1].state {
        result.removeLast()
      }
    }
    return result
  }

  /// A kill: a downward triangle on the top edge of the plot, with a tick down the plot.
  mutating func killMarker(atX px: Double, title: String) {
    body += "<g class=\"kill\"><title>\(HTMLDocument.escape(title))</title>"
    body += "<line x1=\"\(n(px))\" y1=\"\(n(top))\" x2=\"\(n(px))\" y2=\"\(n(top + height))\"/>"
    body += "<path d=\"M\(n(px - 5)) \(n(top - 10))h10l-5 9z\"/></g>"
  }

  mutating func laneLabel(row: Int, text: String) {
    body +=
      "<text x=\"\(n(left - 8))\" y=\"\(n(top + Double(row) * 18 + 13))\" text-anchor=\"end\">\(HTMLDocument.escape(text))</text>"
  }

  mutating func laneBar(row: Int, from start: Double, to end: Double, fill: String, title: String) {
    let x0 = x(start)
    let w = max(x(end) - x0, 0.6)
    body +=
      "<rect x=\"\(n(x0))\" y=\"\(n(top + Double(row) * 18 + 3))\" width=\"\(n(w))\" height=\"12\" fill=\"\(fill)\"><title>\(HTMLDocument.escape(title))</title></rect>"
  }

  mutating func laneMark(row: Int, atX px: Double, kind: TimelineRecorder.Mark.Kind, title: String)
  {
    let cy = top + Double(row) * 18 + 9
    let shape: String
    switch kind {
    case .coldLaunch: shape = "<path d=\"M\(n(px)) \(n(cy - 6))l4 7h-8z\" class=\"mark\"/>"
    case .warmResume: shape = "<circle cx=\"\(n(px))\" cy=\"\(n(cy))\" r=\"2.6\" class=\"mark\"/>"
    case .kill: shape = "<path d=\"M\(n(px - 4)) \(n(cy - 4))l8 8m0 -8l-8 8\" class=\"cross\"/>"
    }
    body += "<g><title>\(HTMLDocument.escape(title))</title>\(shape)</g>"
  }

  /// Appends markup drawn by an extension.
  mutating func appendRaw(_ markup: String) { body += markup }

  func finish() -> String { body + "</svg>" }
}

/// A well-formed XHTML document built piece by piece, with the reports' style sheet inline.
struct HTMLDocument {
  private var body: String

  init(title: String) {
    body = """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <title>\(Self.escape(title))</title>
      <style>\(Self.style)</style></head><body>

      """
  }

  static let style = """
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;margin:24px auto;max-width:1100px;padding:0 16px}
    h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}
    table{border-collapse:collapse;font-size:13px;margin:6px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
    td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f2f2f2}
    svg{width:100%;height:auto;display:block}svg text{font-size:12px;fill:#1a1a1a}svg .label{font-size:13px;font-weight:600}
    .axis line{stroke:#555;stroke-width:1}.axis .grid{stroke:#e4e4e4}.kill line{stroke:#000;stroke-width:0.6;stroke-dasharray:2 3}
    .kill path,.mark{fill:#000}.cross{stroke:#000;stroke-width:1.8;fill:none}
    .legend{display:flex;flex-wrap:wrap;gap:6px 18px;font-size:13px;margin:6px 0 0 70px}.legend span{display:inline-flex;align-items:center;gap:6px}.legend svg{width:auto;display:inline-block}
    .swatch{width:14px;height:14px;display:inline-block;border:1px solid #666}
    @media print{body{margin:0;max-width:none}h2{break-after:avoid}svg{break-inside:avoid}}
    """

  /// Escapes text for XHTML content and attribute values.
  static func escape(_ text: String) -> String {
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

  mutating func heading(_ text: String) { body += "<h1>\(Self.escape(text))</h1>\n" }
  mutating func section(_ text: String) { body += "<h2>\(Self.escape(text))</h2>\n" }
  mutating func paragraph(_ text: String) { body += "<p>\(Self.escape(text))</p>\n" }
  mutating func raw(_ markup: String) { body += markup + "\n" }

  mutating func table(header: [String], rows: [[String]], numericColumns: Set<Int>) {
    body +=
      "<table><thead><tr>" + header.map { "<th>\(Self.escape($0))</th>" }.joined()
      + "</tr></thead><tbody>\n"
    for row in rows {
      body += "<tr>"
      for (column, cell) in row.enumerated() {
        body +=
          numericColumns.contains(column)
          ? "<td class=\"n\">\(Self.escape(cell))</td>" : "<td>\(Self.escape(cell))</td>"
      }
      body += "</tr>\n"
    }
    body += "</tbody></table>\n"
  }

  /// A legend: a swatch (a filled square, a line, a dashed line, or a marker) and its name for each item.
  static func legend(_ items: [(name: String, colour: String, kind: String?)]) -> String {
    let entries = items.map { item -> String in
      let symbol: String
      switch item.kind {
      case "line":
        symbol =
          "<svg width=\"22\" height=\"10\" viewBox=\"0 0 22 10\"><line x1=\"0\" y1=\"5\" x2=\"22\" y2=\"5\" stroke=\"\(item.colour)\" stroke-width=\"2\"/></svg>"
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

  func finish() -> String {
    body + "<p class=\"note\">Written by jetsim \(JetsimVersion.current).</p>\n</body></html>\n"
  }
}
