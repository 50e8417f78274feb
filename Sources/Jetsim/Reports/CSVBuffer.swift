/// Bytes of CSV being built: integers written digit by digit, text quoted per RFC 4180 where it needs
/// it. Appending never allocates once the buffer has reached its working size.
public struct CSVBuffer: Sendable {
  /// The bytes so far.
  public private(set) var bytes: [UInt8] = []

  /// An empty buffer with room for `capacity` bytes.
  public init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

  /// The number of bytes so far.
  public var count: Int { bytes.count }

  /// Forgets the bytes, keeping the room.
  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  /// Appends bytes as they are.
  public mutating func append(raw: [UInt8]) { bytes.append(contentsOf: raw) }

  /// Appends a field separator.
  public mutating func comma() { bytes.append(UInt8(ascii: ",")) }

  /// Ends the record.
  public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

  /// Appends `value` in decimal.
  public mutating func append(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      while count > 0 {
        count -= 1
        bytes.append(buffer[count])
      }
    }
  }

  /// Appends `text` as one field, quoted if it holds a comma, a quote or a line break.
  public mutating func append(field text: String) {
    bytes.append(contentsOf: Self.encode(field: text))
  }

  /// `text` as the bytes of one CSV field: quoted, with quotes doubled, if it needs it.
  public static func encode(field text: String) -> [UInt8] {
    let utf8 = Array(text.utf8)
    let needsQuotes = utf8.contains {
      $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13
    }
    guard needsQuotes else { return utf8 }
    var quoted: [UInt8] = [UInt8(ascii: "\"")]
    for byte in utf8 {
      quoted.append(byte)
      if byte == UInt8(ascii: "\"") { quoted.append(byte) }
    }
    quoted.append(UInt8(ascii: "\""))
    return quoted
  }

  /// Appends a header row.
  public mutating func appendHeader(_ columns: [String]) {
    for (index, column) in columns.enumerated() {
      if index > 0 { comma() }
      append(field: column)
    }
    newline()
  }
}
