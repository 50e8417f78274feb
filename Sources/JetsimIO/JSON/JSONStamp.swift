/// A document that describes itself to a `JSONSink`.
package protocol JSONDocument {
  /// Writes the document to `sink`.
  func write<Sink: JSONSink>(to sink: inout Sink)
}

/// Many documents of few shapes written one after the other, as `JSONPrettyBytes` writes them,
/// byte for byte: `metrickit.json` has one payload an app, thousands in a large run, which differ
/// only in their values. The text between the values (keys, indents, braces) of a shape is
/// rendered once, by `JSONPrettyBytes`, and copied whole before each value of the next documents of
/// that shape, so a document costs its values rather than its keys. A shape is the sequence of a
/// document's keys, objects and values; a document of a shape not seen yet is rendered and becomes
/// the template of its shape (up to `maxShapes`; past that, documents of new shapes are rendered as
/// they come).
package struct JSONStamp {
  /// The text so far; the caller may add to it and empty it between documents.
  package var bytes: [UInt8] = []
  /// The indent level of each document (as `JSONPrettyBytes(depth:)`).
  private let depth: Int
  /// The templates, the one that fitted last first.
  private var shapes: [Shape] = []
  /// The most templates kept.
  package static let maxShapes = 8

  /// Documents at indent level `depth`.
  package init(depth: Int = 0) { self.depth = depth }

  /// Appends `document`'s text.
  package mutating func append(_ document: some JSONDocument) {
    for index in shapes.indices {
      var filler = Filler(shapes[index])
      swap(&filler.bytes, &bytes)
      let mark = filler.bytes.count
      document.write(to: &filler)
      let fitted = filler.finish()
      if !fitted { filler.bytes.removeSubrange(mark...) }
      swap(&filler.bytes, &bytes)
      if fitted {
        if index > 0 { shapes.swapAt(0, index) }
        return
      }
    }
    var recorder = Recorder(depth: depth)
    document.write(to: &recorder)
    bytes += recorder.pretty.bytes
    if shapes.count < Self.maxShapes { shapes.insert(recorder.finished(), at: 0) }
  }

  /// What a document does, one sink call each; a key's name is kept apart (`Shape.keys`).
  private enum Step: UInt8 {
    case begin, end, key, value
  }

  /// A shape and its text: the text before value `i` is `text[ends[i - 1]..<ends[i]]` (from 0 for
  /// the first), and the text after the last value ends at `ends.last`.
  private struct Shape {
    var steps: [Step] = []
    var keys: [String] = []
    var text: [UInt8] = []
    var ends: [Int] = []
  }

  /// Writes a document through a template, as long as it keeps to the template's shape.
  private struct Filler: JSONSink {
    let shape: Shape
    var bytes: [UInt8] = []
    /// The next step, key and value.
    var step = 0
    var keyIndex = 0
    var value = 0
    /// Whether the document has kept to the shape so far.
    var fits = true

    init(_ shape: Shape) { self.shape = shape }

    mutating func beginObject() { expect(.begin) }
    mutating func endObject() { expect(.end) }

    mutating func key(_ key: String) {
      expect(.key)
      guard fits, keyIndex < shape.keys.count, shape.keys[keyIndex] == key else {
        return fits = false
      }
      keyIndex += 1
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
      guard fits, step == shape.steps.count else { return false }
      appendText()
      return true
    }

    private mutating func expect(_ expected: Step) {
      guard fits, step < shape.steps.count, shape.steps[step] == expected else {
        return fits = false
      }
      step += 1
    }

    /// Whether a value fits here; if it does, the text before it is written.
    private mutating func nextValue() -> Bool {
      expect(.value)
      guard fits else { return false }
      appendText()
      value += 1
      return true
    }

    /// The template's text before the next value (or after the last one).
    private mutating func appendText() {
      let start = value == 0 ? 0 : shape.ends[value - 1]
      shape.text.withUnsafeBufferPointer {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<shape.ends[value]]))
      }
    }
  }

  /// Renders a document and notes its shape and the text between its values.
  private struct Recorder: JSONSink {
    var pretty: JSONPrettyBytes
    var shape = Shape()

    init(depth: Int) { pretty = JSONPrettyBytes(depth: depth) }

    mutating func beginObject() {
      shape.steps.append(.begin)
      pretty.beginObject()
    }

    mutating func endObject() {
      shape.steps.append(.end)
      pretty.endObject()
    }

    mutating func key(_ key: String) {
      shape.steps.append(.key)
      shape.keys.append(key)
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

    /// The shape, once the document is written.
    func finished() -> Shape {
      var shape = shape
      shape.text += pretty.bytes[cut...]
      shape.ends.append(shape.text.count)
      return shape
    }

    /// Where the text after the last value starts.
    private var cut = 0

    private mutating func cutBeforeValue() {
      shape.steps.append(.value)
      shape.text += pretty.bytes[cut...]
      shape.ends.append(shape.text.count)
    }
  }
}
