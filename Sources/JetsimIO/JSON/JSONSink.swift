/// Where a document that describes itself once goes: as bytes, pretty-printed as
/// `JSONText.render` prints a `JSONValue` (`JSONPrettyBytes`), or as that value
/// (`JSONTreeBuilder`). A document written both ways comes out the same, without a tree of strings
/// built only to be printed (`metrickit.json` of a run of 10,000 apps spent most of its time so).
package protocol JSONSink {
  /// Opens an object: the value of the member just named, or the document.
  mutating func beginObject()
  /// Closes the object opened last.
  mutating func endObject()
  /// Names the next member of the open object; its value follows.
  mutating func key(_ key: String)
  /// A string value.
  mutating func string(_ text: String)
  /// A whole-number value.
  mutating func integer(_ value: Int)
}

extension JSONSink {
  /// A member whose value is `text`.
  package mutating func member(_ key: String, _ text: String) {
    self.key(key)
    string(text)
  }

  /// A member whose value is `value`.
  package mutating func member(_ key: String, integer value: Int) {
    self.key(key)
    integer(value)
  }

  /// A member whose value is an object, its members written by `members`.
  package mutating func member(_ key: String, object members: (inout Self) -> Void) {
    self.key(key)
    beginObject()
    members(&self)
    endObject()
  }
}

/// A document that describes itself to a `JSONSink`: one whole value (every object it opens, it
/// closes).
package protocol JSONDocument {
  /// Writes the document to `sink`.
  func write<Sink: JSONSink>(to sink: inout Sink)
}

/// JSON text as `JSONText.render(_:depth:into:)` writes the same document: two spaces an indent
/// level, a member a line, an empty object as `{}`. It keeps track of 64 levels of nesting (a
/// payload has four).
package struct JSONPrettyBytes: JSONSink {
  /// The text so far.
  package var bytes: [UInt8]
  /// The indent level of the open object's members (the document's own level before it opens).
  private var depth: Int
  /// Bit `n`: whether the object open at level `n` has a member yet.
  private var hasMembers: UInt64 = 0

  /// Text of documents at indent level `depth` (as `render`'s), written one after the other
  /// into `bytes`, which the caller may add to and empty between them.
  package init(depth: Int = 0) {
    bytes = []
    self.depth = depth
  }

  package mutating func beginObject() {
    bytes.append(UInt8(ascii: "{"))
    depth += 1
    hasMembers &= ~(1 << UInt64(depth & 63))
  }

  package mutating func endObject() {
    let had = hasMembers & (1 << UInt64(depth & 63)) != 0
    depth -= 1
    if had {
      bytes.append(UInt8(ascii: "\n"))
      indent()
    }
    bytes.append(UInt8(ascii: "}"))
  }

  package mutating func key(_ key: String) {
    let bit: UInt64 = 1 << UInt64(depth & 63)
    if hasMembers & bit != 0 { bytes.append(UInt8(ascii: ",")) }
    hasMembers |= bit
    bytes.append(UInt8(ascii: "\n"))
    indent()
    JSONText.appendQuoted(key, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    bytes.append(UInt8(ascii: " "))
  }

  package mutating func string(_ text: String) { JSONText.appendQuoted(text, to: &bytes) }

  package mutating func integer(_ value: Int) { JSONText.appendInteger(value, to: &bytes) }

  private mutating func indent() { JSONText.appendIndent(depth, to: &bytes) }
}

/// The document as a `JSONValue`, for what reads or merges it before printing.
package struct JSONTreeBuilder: JSONSink {
  /// The document, once its outermost value is written.
  package private(set) var value: JSONValue?
  /// The members of each open object, innermost last.
  private var open: [[JSONMember]] = []
  /// The names of the members whose values are being written, innermost last.
  private var keys: [String] = []

  package init() {}

  package mutating func beginObject() { open.append([]) }

  package mutating func endObject() { add(.object(open.removeLast())) }

  package mutating func key(_ key: String) { keys.append(key) }

  package mutating func string(_ text: String) { add(.string(text)) }

  package mutating func integer(_ value: Int) { add(.integer(value)) }

  private mutating func add(_ node: JSONValue) {
    guard !open.isEmpty else {
      value = node
      return
    }
    open[open.count - 1].append(JSONMember(key: keys.removeLast(), node: JSONNode(node)))
  }
}
