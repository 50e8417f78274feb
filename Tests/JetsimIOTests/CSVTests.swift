import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

@Suite struct CSVTests {
  @Test func fieldsThatNeedQuotesAreQuoted() {
    #expect(CSVBuffer.encode(field: "plain") == Array("plain".utf8))
    #expect(CSVBuffer.encode(field: "a,b") == Array("\"a,b\"".utf8))
    #expect(CSVBuffer.encode(field: "say \"hi\"") == Array("\"say \"\"hi\"\"\"".utf8))
  }

  @Test(arguments: [
    ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
    ("+1+1", "'+1+1"), ("-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "\"'\rx\""), ("-", "'-"), ("-1+1", "'-1+1"), ("+e5", "'+e5"),
  ])
  func textThatASpreadsheetWouldRunIsNeutralised(text: String, written: String) {
    #expect(CSVBuffer.encode(field: text) == Array(written.utf8))
    // Traces keep their text exactly.
    #expect(
      String(decoding: CSVBuffer.encode(field: text, formulaSafe: false), as: UTF8.self) != written)
  }

  @Test(arguments: ["-5", "+5", "-0.25", "-.5", "-1e-05", "+2E+10", "com.example.a", "a=b", "'=x"])
  func numbersAndOtherTextAreKept(text: String) {
    #expect(CSVBuffer.encode(field: text) == Array(text.utf8))
  }

  @Test func integersAreWrittenExactly() {
    var buffer = CSVBuffer()
    for value in [0, 7, -204_800, Int.max, Int.min + 1] {
      buffer.append(value)
      buffer.comma()
    }
    #expect(
      String(decoding: buffer.bytes, as: UTF8.self) == "0,7,-204800,\(Int.max),\(Int.min + 1),")
  }

  @Test func integersMatchTheStandardLibraryAtEveryBoundary() {
    var values: [Int] = [0, 1, 9, 10, 11, 99, 100, 101, Int.max, Int.min, -1, -9, -10]
    var power = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, power + 1, -(power - 1), -power]
    }
    var random = RandomStream(seed: 9, stream: 3)
    for _ in 0..<20_000 {
      values.append(Int(bitPattern: UInt(random.next() >> UInt64(random.below(64)))))
    }
    for value in values {
      var buffer = CSVBuffer()
      buffer.append(value)
      #expect(String(decoding: buffer.bytes, as: UTF8.self) == String(value))
    }
    #expect(FixedPoint.digitCount(0) == 1)
    #expect(FixedPoint.digitCount(9) == 1)
    #expect(FixedPoint.digitCount(10) == 2)
    #expect(FixedPoint.digitCount(UInt.max) == 20)
  }

  /// Numbers are written eight bytes at a time: the bytes past a short number are the next one's
  /// to overwrite, and every digit of every lane must come out exact.
  @Test func integersWrittenOneAfterAnotherKeepTheirDigits() {
    var values = Array(0..<100_000) + Array(99_999_000..<100_001_000)
    var random = RandomStream(seed: 11, stream: 4)
    for _ in 0..<20_000 {
      values.append(random.below(2) == 0 ? -random.below(1 << 40) : random.below(Int.max))
    }
    values += [Int.max, Int.min, -100_000_000, 10_000_000_000_000_000]
    var buffer = CSVBuffer()
    for value in values {
      buffer.append(value)
      buffer.comma()
    }
    let expected = values.map { String($0) + "," }.joined()
    #expect(String(decoding: buffer.bytes, as: UTF8.self) == expected)
  }

  @Test func theReaderReadsWhatTheWriterWrites() throws {
    var buffer = CSVBuffer()
    buffer.appendRow(["a,b", "c\"d", "e\nf", "plain"])
    let records = try CSVReader.records(String(decoding: buffer.bytes, as: UTF8.self))
    #expect(records == [CSVReader.Record(line: 1, fields: ["a,b", "c\"d", "e\nf", "plain"])])
  }

  @Test func malformedCSVIsReported() {
    #expect(throws: CSVReader.Failure.unterminatedQuote(line: 2)) {
      try CSVReader.records("a\n\"open,b\n")
    }
    #expect(throws: CSVReader.Failure.textAfterQuote(line: 1)) {
      try CSVReader.records("\"a\"b,c\n")
    }
  }

  /// The reader reads bytes; this reference reads Unicode scalars, as the reader once did, rule by
  /// rule of RFC 4180 as jetsim reads it: a quote opens a field only at its start, a doubled quote
  /// inside one is a quote, `\r` outside quotes is dropped, a blank line is no record.
  static func referenceRecords(_ text: String) throws(CSVReader.Failure) -> [CSVReader.Record] {
    var (records, fields, field) = ([CSVReader.Record](), [String](), "")
    var (line, recordLine, quoteLine) = (1, 1, 1)
    var (inQuotes, afterQuote) = (false, false)
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func endRecord() {
      fields.append(field)
      field = ""
      if fields != [""] { records.append(CSVReader.Record(line: recordLine, fields: fields)) }
      fields = []
    }
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      if inQuotes {
        if scalar == "\"", index < scalars.count, scalars[index] == "\"" {
          field.unicodeScalars.append("\"")
          index += 1
        } else if scalar == "\"" {
          (inQuotes, afterQuote) = (false, true)
        } else {
          if scalar == "\n" { line += 1 }
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case ",": (fields, field, afterQuote) = (fields + [field], "", false)
      case "\n":
        line += 1
        endRecord()
        (recordLine, afterQuote) = (line, false)
      case "\r": break
      case "\"" where field.isEmpty && !afterQuote: (inQuotes, quoteLine) = (true, line)
      default:
        if afterQuote { throw .textAfterQuote(line: line) }
        field.unicodeScalars.append(scalar)
      }
    }
    if inQuotes { throw .unterminatedQuote(line: quoteLine) }
    if !field.isEmpty || !fields.isEmpty { endRecord() }
    return records
  }

  /// Random texts of the characters that matter (commas, quotes, line ends, `\r`, letters and
  /// characters of two to four bytes): the reader gives the reference's records and lines, or
  /// fails where it fails.
  @Test func theReaderReadsAsTheReferenceDoes() {
    let pieces = [
      ",", "\"", "\"\"", "\n", "\r\n", "\r", "a", "bc", "é", "日本", "🚀", " ", "\n\n", "\u{FEFF}",
      "\"\"\n",
    ]
    var random = RandomStream(seed: 23, stream: 1)
    var failures = 0
    for _ in 0..<5_000 {
      let text = (0..<random.below(30)).map { _ in pieces[random.below(pieces.count)] }.joined()
      let reference = Result { () throws(CSVReader.Failure) in try Self.referenceRecords(text) }
      let read = Result { () throws(CSVReader.Failure) in try CSVReader.records(text) }
      #expect(read == reference, "\(text.debugDescription)")
      if case .failure = reference { failures += 1 }
    }
    #expect(failures > 100 && failures < 4_900, "both kinds of text are drawn")
  }
}
