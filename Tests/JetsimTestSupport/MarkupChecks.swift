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
