import JetsimCore

/// Markup built as UTF-8 bytes: literal text, escaped text and numbers written straight into one
/// growing array, so a chart of tens of thousands of marks makes no intermediate `String`s. The
/// numbers are those of `Units.decimal` and `Units.clock`, byte for byte.
package struct MarkupBytes: Sendable {
  package private(set) var bytes: [UInt8] = []

  package init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

  /// The markup as text.
  package var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends `text` as it is.
  package mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Appends `other`'s bytes.
  package mutating func append(_ other: MarkupBytes) {
    bytes.append(contentsOf: other.bytes)
  }

  /// Appends `text` with `&`, `<`, `>` and `"` escaped (`HTMLDocument.escape`).
  package mutating func append(escaped text: String) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      case UInt8(ascii: "\""): append("&quot;")
      default: bytes.append(byte)
      }
    }
  }

  /// Appends `value` with one decimal, as `Units.decimal(value, digits: 1)` writes it.
  package mutating func append(oneDecimal value: Double) {
    write(maxBytes: FixedPoint.maxFixedBytes(scaleDigits: 1)) { buffer, position in
      FixedPoint.write(value, digits: 1, into: buffer, at: &position)
    }
  }

  /// Appends `milliseconds` as `Units.clock` writes it.
  package mutating func append(clock milliseconds: Int) {
    write(maxBytes: Units.maxClockBytes) { buffer, position in
      Units.writeClock(milliseconds, into: buffer, at: &position)
    }
  }

  /// Appends `value` in decimal.
  package mutating func append(_ value: Int) {
    write(maxBytes: 24) { buffer, position in
      FixedPoint.write(
        value.magnitude, scaleDigits: 0, negative: value < 0, into: buffer, at: &position)
    }
  }

  /// Appends what `body` writes into a stack buffer of `maxBytes` bytes.
  private mutating func write(
    maxBytes: Int, _ body: (UnsafeMutableBufferPointer<UInt8>, inout Int) -> Void
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxBytes) { buffer in
      var position = 0
      body(buffer, &position)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<position]))
    }
  }
}
