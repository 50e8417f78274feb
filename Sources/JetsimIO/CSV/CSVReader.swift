import JetsimCore

/// A small RFC 4180 reader: comma-separated fields, double-quoted fields that may hold commas,
/// quotes (doubled) and line breaks, `\n` or `\r\n` line ends.
package enum CSVReader {
  /// One record and the line it starts on (1-based).
  package struct Record: Sendable, Equatable {
    package var line: Int
    package var fields: [String]
  }

  /// Why text is not CSV.
  package enum Failure: Error, Equatable {
    case unterminatedQuote(line: Int)
    case textAfterQuote(line: Int)
  }

  /// The records of `text`, one after another in one array, for a text of many (a long run's event
  /// log): no array a record.
  package struct Flat: Sendable {
    /// Every record's fields, in order.
    package var fields: [String] = []
    /// Where each record's fields begin in `fields`.
    package var starts: [Int] = []
    /// The line each record starts on (1-based).
    package var lines: [Int] = []

    /// How many records there are.
    package var count: Int { starts.count }

    /// The fields of record `index`.
    package func fields(of index: Int) -> ArraySlice<String> {
      fields[starts[index]..<(index + 1 < starts.count ? starts[index + 1] : fields.count)]
    }
  }

  /// The records of `text`. Blank lines are skipped.
  ///
  /// - Complexity: O(*n*) for *n* bytes of UTF-8.
  package static func records(_ text: String) throws(Failure) -> [Record] {
    let flat = try flatRecords(text)
    return (0..<flat.count).map { Record(line: flat.lines[$0], fields: Array(flat.fields(of: $0))) }
  }

  /// The records of `text` in one array (`Flat`). Blank lines are skipped.
  ///
  /// - Complexity: O(*n*) for *n* bytes of UTF-8 (the delimiters are all ASCII, so the bytes of
  ///   other characters are copied as they are).
  package static func flatRecords(_ text: String) throws(Failure) -> Flat {
    var text = text
    var parsed = Result<Flat, Failure>.success(Flat())
    text.withUTF8 { bytes in
      parsed = Result { () throws(Failure) in try flatRecords(bytes) }
    }
    return try parsed.get()
  }

  private static func flatRecords(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> Flat {
    let quote = UInt8(ascii: "\"")
    var parser = Parser()
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if parser.inQuotes {
        // A doubled quote is a quote; a single one ends the quoted part.
        if byte == quote {
          if index < bytes.count, bytes[index] == quote {
            parser.field.append(quote)
            index += 1
          } else {
            parser.closeQuote()
          }
        } else {
          parser.quoted(byte)
        }
      } else {
        try parser.unquoted(byte)
      }
    }
    return try parser.finish()
  }

  /// The state of one pass over the text.
  private struct Parser {
    var records = Flat()
    /// Where the record being read begins in `records.fields`.
    var recordStart = 0
    /// The bytes of the field being read (kept, emptied, from field to field).
    var field: [UInt8] = []
    var line = 1
    var recordLine = 1
    var inQuotes = false
    var afterQuote = false
    var quoteLine = 1

    mutating func quoted(_ byte: UInt8) {
      if byte == UInt8(ascii: "\n") { line += 1 }
      field.append(byte)
    }

    mutating func closeQuote() {
      inQuotes = false
      afterQuote = true
    }

    /// The field read so far, as text; it is emptied.
    mutating func takeField() -> String {
      defer { field.removeAll(keepingCapacity: true) }
      return String(decoding: field, as: UTF8.self)
    }

    mutating func unquoted(_ byte: UInt8) throws(Failure) {
      switch byte {
      case UInt8(ascii: ","):
        records.fields.append(takeField())
        afterQuote = false
      case UInt8(ascii: "\n"):
        line += 1
        endRecord()
        recordLine = line
        afterQuote = false
      case UInt8(ascii: "\r"):
        break
      case UInt8(ascii: "\"") where field.isEmpty && !afterQuote:
        inQuotes = true
        quoteLine = line
      default:
        if afterQuote { throw .textAfterQuote(line: line) }
        field.append(byte)
      }
    }

    mutating func endRecord() {
      if field.isEmpty && records.fields.count == recordStart {
        // A blank line.
        return
      }
      records.fields.append(takeField())
      records.starts.append(recordStart)
      records.lines.append(recordLine)
      recordStart = records.fields.count
    }

    mutating func finish() throws(Failure) -> Flat {
      if inQuotes { throw .unterminatedQuote(line: quoteLine) }
      if !field.isEmpty || records.fields.count > recordStart { endRecord() }
      return records
    }
  }
}
