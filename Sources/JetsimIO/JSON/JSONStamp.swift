/// Many documents of few shapes written one after the other, as `JSONPrettyBytes` writes them,
/// byte for byte: `metrickit.json` has one payload an app, thousands in a large run, which differ
/// only in their values. The text between the values (keys, indents, braces) of a shape is
/// rendered once, by `JSONPrettyBytes`, and copied whole before each value of the next documents of
/// that shape, so a document costs its values rather than its keys. A shape is the sequence of a
/// document's keys (byte for byte), objects and values; a document of a shape not seen yet is
/// rendered and becomes the template of its shape. At most `maxTemplates` are kept: a new one takes
/// the place of the one that fitted longest ago. Each document must be one whole value (every object
/// it opens, it closes), as a `JSONDocument` is.
package struct JSONStamp {
  /// The text so far; the caller may add to it and empty it between documents.
  package var bytes: [UInt8] = []
  /// The indent level of each document (as `JSONPrettyBytes(depth:)`).
  private let depth: Int
  /// The templates, the one that fitted last first.
  private var templates: [Template] = []
  /// The most templates kept.
  package static let maxTemplates = 8

  /// Documents at indent level `depth`.
  package init(depth: Int = 0) { self.depth = depth }

  /// Appends `document`'s text.
  package mutating func append(_ document: some JSONDocument) {
    for index in templates.indices {
      var filler = Filler(templates[index])
      swap(&filler.bytes, &bytes)
      let mark = filler.bytes.count
      document.write(to: &filler)
      let fitted = filler.finish()
      if !fitted { filler.bytes.removeSubrange(mark...) }
      swap(&filler.bytes, &bytes)
      if fitted {
        if index > 0 { templates.swapAt(0, index) }
        return
      }
    }
    var recorder = Recorder(depth: depth)
    document.write(to: &recorder)
    bytes += recorder.pretty.bytes
    if templates.count == Self.maxTemplates { templates.removeLast() }
    templates.insert(recorder.finished(), at: 0)
  }

  /// What a document does, one sink call each; a key's name is kept apart (`Template.keys`).
  private enum Step: UInt8 {
    case begin, end, key, value
  }

  /// A shape and its text: the text before value `i` is `text[ends[i - 1]..<ends[i]]` (from 0 for
  /// the first), and the text after the last value ends at `ends.last`.
  private struct Template {
    var steps: [Step] = []
    /// The keys, and whether each is ASCII.
    var keys: [(text: String, isASCII: Bool)] = []
    var text: [UInt8] = []
    var ends: [Int] = []
  }

  /// Writes a document through a template, as long as it keeps to the template's shape.
  private struct Filler: JSONSink {
    let template: Template
    var bytes: [UInt8] = []
    /// The next step, key and value.
    var step = 0
    var keyIndex = 0
    var valueIndex = 0
    /// Whether the document has kept to the shape so far.
    var fits = true

    init(_ template: Template) { self.template = template }

    mutating func beginObject() { expect(.begin) }
    mutating func endObject() { expect(.end) }

    mutating func key(_ key: String) {
      expect(.key)
      guard fits, keyIndex < template.keys.count, Self.same(key, template.keys[keyIndex]) else {
        fits = false
        return
      }
      keyIndex += 1
    }

    /// Whether `key` is `expected`'s bytes. `==` alone takes canonically equivalent spellings for
    /// the same key (`é`, and `e` with a combining accent), whose text differs. For an ASCII
    /// `expected`, `==` and the same length in UTF-8 are enough: a string canonically equivalent to
    /// ASCII text spells each of its characters with one scalar that decomposes to that ASCII
    /// character (the Kelvin sign to `K`), and any scalar outside ASCII is at least two bytes. Other
    /// keys are compared byte by byte (`String.UTF8View.elementsEqual` took over 1,000 instructions
    /// a key; metrickit.json's keys are all ASCII).
    private static func same(_ key: String, _ expected: (text: String, isASCII: Bool)) -> Bool {
      guard key == expected.text, key.utf8.count == expected.text.utf8.count else { return false }
      guard !expected.isASCII else { return true }
      var (key, text) = (key, expected.text)
      return key.withUTF8 { x in
        text.withUTF8 { y in !zip(x, y).contains { $0 != $1 } }
      }
    }

    mutating func string(_ text: String) {
      if nextValue() { JSONText.appendQuoted(text, to: &bytes) }
    }

    mutating func integer(_ value: Int) {
      if nextValue() { JSONText.appendInteger(value, to: &bytes) }
    }

    /// Whether the document ended where its template does; if it did, the text after the last
    /// value is written.
    mutating func finish() -> Bool {
      guard fits, step == template.steps.count else { return false }
      appendText()
      return true
    }

    private mutating func expect(_ expected: Step) {
      guard fits, step < template.steps.count, template.steps[step] == expected else {
        fits = false
        return
      }
      step += 1
    }

    /// Whether a value fits here; if it does, the text before it is written.
    private mutating func nextValue() -> Bool {
      expect(.value)
      guard fits else { return false }
      appendText()
      valueIndex += 1
      return true
    }

    /// The template's text before the next value (or after the last one).
    private mutating func appendText() {
      let start = valueIndex == 0 ? 0 : template.ends[valueIndex - 1]
      template.text.withUnsafeBufferPointer {
        bytes.append(
          contentsOf: UnsafeBufferPointer(rebasing: $0[start..<template.ends[valueIndex]]))
      }
    }
  }

  /// Renders a document and notes its shape and the text between its values.
  private struct Recorder: JSONSink {
    var pretty: JSONPrettyBytes
    var template = Template()
    /// Where the text after the last value starts.
    var cut = 0

    init(depth: Int) { pretty = JSONPrettyBytes(depth: depth) }

    mutating func beginObject() {
      template.steps.append(.begin)
      pretty.beginObject()
    }

    mutating func endObject() {
      template.steps.append(.end)
      pretty.endObject()
    }

    mutating func key(_ key: String) {
      template.steps.append(.key)
      template.keys.append((key, key.utf8.allSatisfy { $0 < 0x80 }))
      pretty.key(key)
    }

    mutating func string(_ text: String) {
      cutBeforeValue()
      pretty.string(text)
      cut = pretty.bytes.count
    }

    mutating func integer(_ value: Int) {
      cutBeforeValue()
      pretty.integer(value)
      cut = pretty.bytes.count
    }

    /// The template, once the document is written.
    func finished() -> Template {
      var template = template
      template.text += pretty.bytes[cut...]
      template.ends.append(template.text.count)
      return template
    }

    private mutating func cutBeforeValue() {
      template.steps.append(.value)
      template.text += pretty.bytes[cut...]
      template.ends.append(template.text.count)
    }
  }
}
