import Foundation

/// Why `text` is not well-formed XML, or nil: every tag closed in order, attributes quoted, only
/// XML's own entities, one root element. (Foundation's XMLParser on Linux recovers from some errors,
/// so it cannot be the judge.)
public func xmlError(_ text: String) -> String? {
  var stack: [Substring] = []
  var index = text.startIndex
  var roots = 0
  while index < text.endIndex {
    let character = text[index]
    if character == "&" {
      guard let end = text[index...].firstIndex(of: ";") else { return "an unterminated entity" }
      let name = text[text.index(after: index)..<end]
      let valid =
        ["amp", "lt", "gt", "quot", "apos"].contains(name)
        || (name.hasPrefix("#") && name.dropFirst().allSatisfy(\.isNumber) && name.count > 1)
      guard valid else { return "an unknown entity &\(name);" }
      index = text.index(after: end)
      continue
    }
    guard character == "<" else {
      index = text.index(after: index)
      continue
    }
    guard let close = text[index...].firstIndex(of: ">") else { return "an unterminated tag" }
    let tag = text[text.index(after: index)..<close]
    index = text.index(after: close)
    if tag.hasPrefix("!") || tag.hasPrefix("?") { continue }
    if tag.hasPrefix("/") {
      guard let open = stack.popLast(), open == tag.dropFirst() else {
        return "</\(tag.dropFirst())> closes the wrong element"
      }
      continue
    }
    let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
    guard !name.isEmpty else { return "an empty tag" }
    guard tag.filter({ $0 == "\"" }).count % 2 == 0 else { return "unbalanced quotes in <\(name)>" }
    if stack.isEmpty { roots += 1 }
    if !tag.hasSuffix("/") { stack.append(name) }
  }
  if let open = stack.last { return "<\(open)> is never closed" }
  return roots == 1 ? nil : "\(roots) root elements"
}

/// Whether the page could reach outside itself: scripts, links, sources, imports or URLs. The SVG and
/// XHTML namespace names are identifiers, never fetched.
public func externalReferences(_ text: String) -> [String] {
  let stripped = text.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    .replacingOccurrences(of: "xmlns=\"http://www.w3.org/1999/xhtml\"", with: "")
  return [
    "<script", "src=", "href=", "url(", "@import", "<link", "http:", "https:", "<iframe", "<object",
  ].filter {
    stripped.lowercased().contains($0)
  }
}

/// An element of an SVG chart, as the geometry tests read it: its name, attributes and text.
public struct SVGElement: Sendable {
  public var name: String
  public var attributes: [String: String]
  /// The text up to the next tag (for `<text>`).
  public var text: String

  /// The attribute `key` as a number.
  public func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }

  /// Where a `<path>` starts: the point of its `d`'s leading `M x y` (nil if it has none).
  public var pathStart: (x: Double, y: Double)? {
    let start = (attributes["d"] ?? "").dropFirst().split(separator: " ").prefix(2)
    guard let x = start.first.flatMap({ Double($0) }),
      let y = start.last.flatMap({ Double($0.prefix { $0 == "." || $0 == "-" || $0.isNumber }) })
    else { return nil }
    return (x, y)
  }
}

/// Every element of `svg` named `name`, in order (a flat scan: nesting is not kept).
public func svgElements(_ name: String, in svg: String) -> [SVGElement] {
  var found: [SVGElement] = []
  var rest = svg[...]
  while let open = rest.range(of: "<\(name)") {
    guard let close = rest[open.upperBound...].firstIndex(of: ">") else { break }
    let tag = rest[open.upperBound..<close]
    rest = rest[rest.index(after: close)...]
    guard tag.first.map({ $0 == " " || $0 == "/" }) ?? true else { continue }
    var attributes: [String: String] = [:]
    var cursor = tag[...]
    while let equals = cursor.firstIndex(of: "=") {
      let key = cursor[..<equals].trimmingCharacters(in: .whitespaces)
      let afterQuote =
        cursor.index(equals, offsetBy: 2, limitedBy: cursor.endIndex) ?? cursor.endIndex
      guard let end = cursor[afterQuote...].firstIndex(of: "\"") else { break }
      attributes[key] = String(cursor[afterQuote..<end])
      cursor = cursor[cursor.index(after: end)...]
    }
    let text = rest.prefix { $0 != "<" }
    found.append(SVGElement(name: name, attributes: attributes, text: String(text)))
  }
  return found
}

/// The `<svg>` charts of an HTML page, in order.
public func svgCharts(in html: String) -> [String] {
  var charts: [String] = []
  var rest = html[...]
  while let start = rest.range(of: "<svg xmlns"),
    let end = rest[start.lowerBound...].range(of: "</svg>")
  {
    charts.append(String(rest[start.lowerBound..<end.upperBound]))
    rest = rest[end.upperBound...]
  }
  return charts
}

/// What is wrong with the geometry of one chart (`svg`, as `svgCharts(in:)` returns it): a mark,
/// line or label outside its view box, or, unless `signed` (a chart of differences), a tick label
/// below zero. Empty when nothing is.
public func chartGeometryProblems(_ svg: String, signed: Bool = false) -> [String] {
  guard
    let box = svgElements("svg", in: svg).first?.attributes["viewBox"]?.split(separator: " ")
      .compactMap({ Double($0) }), box.count == 4
  else { return ["a chart without a view box"] }
  var problems: [String] = []
  func inside(_ x: Double?, _ y: Double?, _ what: String) {
    guard let x, let y else { return problems.append("\(what) has no position") }
    if x < box[0] - 0.05 || x > box[0] + box[2] + 0.05 || y < box[1] - 0.05
      || y > box[1] + box[3] + 0.05
    {
      problems.append("\(what) at (\(x), \(y)) is outside the view box \(box)")
    }
  }
  for line in svgElements("line", in: svg) {
    inside(line.number("x1"), line.number("y1"), "a line")
    inside(line.number("x2"), line.number("y2"), "a line")
  }
  for rect in svgElements("rect", in: svg) {
    let (x, y) = (rect.number("x") ?? .nan, rect.number("y") ?? .nan)
    inside(x, y, "a bar")
    inside(x + (rect.number("width") ?? 0), y + (rect.number("height") ?? 0), "a bar's end")
  }
  for circle in svgElements("circle", in: svg) {
    inside(circle.number("cx"), circle.number("cy"), "a dot")
  }
  for text in svgElements("text", in: svg) where text.attributes["transform"] == nil {
    inside(text.number("x"), text.number("y"), "the label '\(text.text)'")
  }
  for shape in svgElements("polygon", in: svg) + svgElements("polyline", in: svg) {
    for point in (shape.attributes["points"] ?? "").split(separator: " ") {
      let xy = point.split(separator: ",").compactMap { Double($0) }
      inside(xy.first, xy.last, "a point of a \(shape.name)")
    }
  }
  for path in svgElements("path", in: svg) {
    inside(path.pathStart?.x, path.pathStart?.y, "a mark")
  }
  if !signed {
    for tick in svgElements("text", in: svg) where tick.attributes["class"] == "tick" {
      if tick.text.hasPrefix("-") || tick.text.hasPrefix("−") {
        problems.append("a tick below zero, '\(tick.text)'")
      }
    }
  }
  return problems
}

/// The x axis of a chart: its line's ends and its ticks' positions and labels.
public func xAxis(of svg: String) -> (from: Double, to: Double, ticks: [(Double, String)])? {
  guard let axis = svg.components(separatedBy: "<g class=\"axis\">").dropFirst().first,
    let line = svgElements("line", in: axis).first
  else { return nil }
  let bottom = line.number("y1") ?? .nan
  let ticks = svgElements("text", in: axis).filter {
    $0.attributes["class"] == "tick" && ($0.number("y") ?? 0) > bottom + 10
  }
  return (
    line.number("x1") ?? .nan, line.number("x2") ?? .nan,
    ticks.map { ($0.number("x") ?? .nan, $0.text) }
  )
}
