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

  /// The records of `text`. Blank lines are skipped.
  ///
  /// - Complexity: O(*n*) for *n* Unicode scalars.
  package static func records(_ text: String) throws(Failure) -> [Record] {
    var parser = Parser()
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    while let scalar = pending ?? scalars.next() {
      pending = nil
      if parser.inQuotes {
        // A doubled quote is a quote; a single one ends the quoted part.
        if scalar == "\"" {
          let following = scalars.next()
          if following == "\"" {
            parser.field.unicodeScalars.append("\"")
          } else {
            parser.closeQuote()
            pending = following
          }
        } else {
          parser.quoted(scalar)
        }
      } else {
        try parser.unquoted(scalar)
      }
    }
    return try parser.finish()
  }

  /// The state of one pass over the text.
  private struct Parser {
    var records: [Record] = []
    var fields: [String] = []
    var field = ""
    var line = 1
    var recordLine = 1
    var inQuotes = false
    var afterQuote = false
    var quoteLine = 1

    mutating func quoted(_ scalar: Unicode.Scalar) {
      if scalar == "\n" { line += 1 }
      field.unicodeScalars.append(scalar)
    }

    mutating func closeQuote() {
      inQuotes = false
      afterQuote = true
    }

    mutating func unquoted(_ scalar: Unicode.Scalar) throws(Failure) {
      switch scalar {
      case ",":
        fields.append(field)
        field = ""
        afterQuote = false
      case "\n":
        line += 1
        endRecord()
        recordLine = line
        afterQuote = false
      case "\r":
        break
      case "\"" where field.isEmpty && !afterQuote:
        inQuotes = true
        quoteLine = line
      default:
        if afterQuote { throw .textAfterQuote(line: line) }
        field.unicodeScalars.append(scalar)
      }
    }

    mutating func endRecord() {
      fields.append(field)
      field = ""
      if !(fields.count == 1 && fields[0].isEmpty) {
        records.append(Record(line: recordLine, fields: fields))
      }
      fields = []
    }

    mutating func finish() throws(Failure) -> [Record] {
      if inQuotes { throw .unterminatedQuote(line: quoteLine) }
      if !field.isEmpty || !fields.isEmpty { endRecord() }
      return records
    }
  }
}
