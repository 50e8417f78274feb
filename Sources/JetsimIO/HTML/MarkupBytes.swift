import JetsimCore

/// Markup built as UTF-8 bytes: literal text, escaped text and numbers written straight into one
/// buffer (`CSVBuffer`'s: a record is written through one pointer after one capacity check), so a
/// chart of tens of thousands of marks makes no intermediate `String`s. The numbers are those of
/// `Units.decimal` and `Units.clock`, byte for byte.
package struct MarkupBytes: Sendable {
  private var buffer = CSVBuffer()

  package init() {}

  /// The markup as text.
  package var text: String { buffer.text }

  /// Calls `body` with the markup's bytes, without copying them.
  package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try buffer.withBytes(body)
  }

  /// Appends `text` as it is.
  package mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in buffer.appendRecord(maxBytes: utf8.count) { $0.append(utf8) } }
  }

  /// Appends `other`'s bytes.
  package mutating func append(_ other: MarkupBytes) {
    other.buffer.withBytes { raw in
      let utf8 = raw.assumingMemoryBound(to: UInt8.self)
      buffer.appendRecord(maxBytes: utf8.count) { $0.append(utf8) }
    }
  }

  /// Appends `text` with `&`, `<`, `>` and `"` escaped (`HTMLDocument.escape`).
  package mutating func append(escaped text: String) {
    var text = text
    text.withUTF8 { utf8 in
      buffer.appendRecord(maxBytes: 6 * utf8.count) { $0.append(escaped: utf8) }
    }
  }

  /// Appends at most `maxBytes` bytes, written by `body` through a cursor: the way to write a
  /// mark of many pieces at once.
  package mutating func appendRecord(maxBytes: Int, _ body: (inout CSVCursor) -> Void) {
    buffer.appendRecord(maxBytes: maxBytes, body)
  }
}

extension CSVCursor {
  /// Appends `text`'s bytes.
  package mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends `utf8` with `&`, `<`, `>` and `"` escaped (at most six bytes each).
  package mutating func append(escaped utf8: UnsafeBufferPointer<UInt8>) {
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "&"): append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      case UInt8(ascii: "\""): append("&quot;")
      default:
        base[position] = byte
        position += 1
      }
    }
  }

  /// Appends `value` with one decimal, as `Units.decimal(value, digits: 1)` writes it (at most
  /// `FixedPoint.maxFixedBytes(scaleDigits: 1)` bytes).
  package mutating func append(oneDecimal value: Double) {
    let room = UnsafeMutableBufferPointer(
      start: base, count: position + FixedPoint.maxFixedBytes(scaleDigits: 1))
    FixedPoint.write(value, digits: 1, into: room, at: &position)
  }

  /// Appends `milliseconds` as `Units.clock` writes it (at most `Units.maxClockBytes` bytes).
  package mutating func append(clock milliseconds: Int) {
    let room = UnsafeMutableBufferPointer(start: base, count: position + Units.maxClockBytes)
    Units.writeClock(milliseconds, into: room, at: &position)
  }
}
