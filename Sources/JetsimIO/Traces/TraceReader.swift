import JetsimCore

/// Reads a workload trace: a CSV file with the header `time_ms,action,app,value`, one action a row, in
/// time order (docs/profiles.md). `value` is a duration for `interrupt` and `wake` (`"30s"`), a size for
/// `allocate` and `free` (`"50MB"`) and a mode for `mode-start` and `mode-stop` (`audio`).
///
/// A trace is streamed: read a line at a time as a run goes, whatever its length.
package enum TraceReader {
  /// The header every trace starts with.
  package static let header = ["time_ms", "action", "app", "value"]

  /// The trace file at `path` as a feed: each run reads it afresh. With `sha256`, the digest of the
  /// file when it was checked, a run that finds the file changed since fails rather than simulate
  /// a workload its report would not describe. With `hashing`, the cursor gives the file's
  /// SHA-256 once read to its end (`ActionCursor.digest`).
  package static func feed(path: String, sha256: String? = nil, hashing: Bool = false)
    -> ActionFeed
  {
    ActionFeed(path: path) { () throws(JetsimError) -> any ActionCursor in
      try TraceCursor(path: path, hashing: hashing, expecting: sha256)
    }
  }

  /// Every action of the trace file at `path`, in memory (for short traces and tests).
  package static func actions(at path: String) throws(JetsimError) -> [TimedAction] {
    var cursor = try TraceCursor(path: path)
    var actions: [TimedAction] = []
    while let action = try cursor.next() { actions.append(action) }
    return actions
  }
}

/// The actions of a trace file, read a line at a time. Each line is checked as it is read: four
/// fields, a time in range and not before the previous line's, a known action with the app and value
/// it needs. App ids are checked by the scenario that reads the trace.
///
/// A run reads it as steps (`nextEntry(apps:)`): a plain line (no quotes, ASCII, an app the
/// scenario has) is compiled from its bytes; any other line is read as `next()` reads it, so its
/// action, or its error, is the same.
package struct TraceCursor: StepCursor {
  // Three words, so that an existential holds it inline, not in a box of its own (the digest
  // expected is the reader's): 9 M fewer instructions on a run of 200,000 lines.
  private let reader: LineReader
  private var fields: [String] = []
  private var previous = 0

  /// A cursor at the first action of the trace at `path`; with `hashing`, `digest` gives the file's
  /// SHA-256 once it has been read to the end. With `expecting`, reaching the end of a file whose
  /// SHA-256 is not `expecting` is an error (the file changed after it was checked).
  package init(path: String, hashing: Bool = false, expecting: String? = nil) throws(JetsimError) {
    reader = try LineReader(path: path, hashing: hashing, expecting: expecting)
    fields.reserveCapacity(4)
    let reader = self.reader
    let header = try reader.nextLine { line throws(JetsimError) in
      try CSVLine.fields(line, path: path, line: reader.lineNumber)
    }
    guard let header else {
      throw .traceLine(
        path: path, line: 1,
        message: "empty trace; start with the header \(TraceReader.header.joined(separator: ","))")
    }
    guard header == TraceReader.header else {
      throw .traceLine(
        path: path, line: reader.lineNumber,
        message:
          "the header must be \(TraceReader.header.joined(separator: ",")), found \(header.joined(separator: ",").excerpt())"
      )
    }
  }

  /// The SHA-256 of the whole file, once read to the end with `hashing` or `expecting`.
  public var digest: String? { reader.digest }

  package var location: (path: String, location: String) {
    (reader.path, "line \(reader.lineNumber)")
  }

  package var line: Int? { reader.lineNumber }

  package mutating func next() throws(JetsimError) -> TimedAction? {
    let reader = self.reader
    var fields = self.fields
    self.fields = []
    defer { self.fields = fields }
    while true {
      let read = try reader.nextLine { line throws(JetsimError) in
        try CSVLine.split(line, into: &fields, path: reader.path, line: reader.lineNumber)
      }
      guard let read else {
        try reader.checkDigest()
        return nil
      }
      if read == .blank { continue }
      return try action(fields)
    }
  }

  package mutating func nextEntry(apps: AppIndex) throws(JetsimError) -> StepEntry? {
    // The line's bytes, not a closure given them: the closure's captures (the app index, the
    // reader) were retained and released on every line.
    while let line = try reader.nextLineBytes() {
      if let step = Self.step(line, apps: apps, notBefore: previous) {
        previous = step.timeMs
        return .step(step)
      }
      // Only a line read as an action needs its fields.
      let read = try CSVLine.split(
        line, into: &fields, path: reader.path, line: reader.lineNumber)
      if read == .blank { continue }
      let split = fields
      return .action(try action(split))
    }
    try reader.checkDigest()
    return nil
  }

  /// The step of a plain `line`: four fields without quotes, in ASCII, a time from `notBefore` to
  /// `Units.maxMilliseconds` in digits, an action other than the modes' (whose apps' declared
  /// modes the workload checks) and the priority actions (which may name system processes), an
  /// app `apps` knows where the action needs one, the value it takes. Nil for any other line,
  /// which `action(_:)` then reads (and reports).
  ///
  /// The line is read once, field by field: the time's digits are added up as they are met, and
  /// only the app and the value are looked at for quotes and bytes beyond ASCII (the time is
  /// digits, and an action's name is letters and hyphens).
  static func step(_ line: UnsafeBufferPointer<UInt8>, apps: AppIndex, notBefore: Int)
    -> WorkloadStep?
  {
    guard let bytes = line.baseAddress else { return nil }
    let count = line.count
    let comma = UInt8(ascii: ",")
    guard let (time, timeEnd) = Self.time(bytes, count: count), time >= notBefore,
      time <= Units.maxMilliseconds
    else { return nil }
    // The action, up to the second comma.
    var position = timeEnd + 1
    let actionStart = position
    while position < count, bytes[position] != comma { position += 1 }
    guard position < count,
      let kind = kind(
        named: UnsafeBufferPointer(start: bytes + actionStart, count: position - actionStart)),
      !kind.isModeChange, !kind.namesAnyProcess
    else { return nil }
    // The app, up to the third comma; then the value, with no comma.
    position += 1
    let appStart = position
    guard let appEnd = plainFieldEnd(bytes, from: appStart, to: count), appEnd < count else {
      return nil
    }
    let valueStart = appEnd + 1
    guard plainFieldEnd(bytes, from: valueStart, to: count) == count else { return nil }
    var app: Int32 = -1
    if kind.needsApp {
      guard
        let index = apps.index(
          of: UnsafeBufferPointer(start: bytes + appStart, count: appEnd - appStart))
      else { return nil }
      app = index
    } else {
      guard appEnd == appStart else { return nil }
    }
    let valueField = UnsafeBufferPointer(start: bytes + valueStart, count: count - valueStart)
    var value = 0
    switch kind.argument {
    case .none, .mode, .band:
      guard valueField.isEmpty else { return nil }
    case .duration:
      guard let duration = Units.milliseconds(utf8: valueField), duration > 0 else { return nil }
      value = duration
    case .size:
      guard let size = Units.kilobytes(utf8: valueField) else { return nil }
      value = size
    }
    return WorkloadStep(timeMs: time, kind: kind, app: app, value: value)
  }

  /// The time that starts the line of `count` bytes at `bytes`, 1 to 15 digits (no overflow to
  /// check), and where the comma after it is; nil if the line does not start so. Its first eight
  /// digits are read in one word when the line starts with eight (a time of a day or more in
  /// milliseconds).
  @inline(__always)
  private static func time(_ bytes: UnsafePointer<UInt8>, count: Int) -> (Int, end: Int)? {
    var position = 0
    var time = 0
    if count >= 8, let eight = eightDigits(bytes) {
      time = eight
      position = 8
    }
    while position < count, bytes[position] &- 48 < 10 {
      time = time &* 10 &+ Int(bytes[position] &- 48)
      position += 1
    }
    guard position > 0, position <= 15, position < count, bytes[position] == UInt8(ascii: ",")
    else { return nil }
    return (time, position)
  }

  /// The number the eight bytes at `bytes` spell if all eight are digits, else nil; they are read
  /// as one word and converted in three multiplications rather than a digit at a time
  /// (`is_made_of_eight_digits_fast` and `parse_eight_digits_unrolled` of simdjson and fast_float).
  @inline(__always)
  private static func eightDigits(_ bytes: UnsafePointer<UInt8>) -> Int? {
    // The first byte in the lowest lane, whatever the machine's byte order.
    let word = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
    // A digit is 0x30 to 0x39: its high nibble is 3, and still 3 once 6 is added to it (a lane
    // that carries into the next has a high nibble other than 3 itself, so the test fails).
    let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let nibbles = (word & highNibbles) | ((word &+ 0x0606_0606_0606_0606) & highNibbles) >> 4
    guard nibbles == 0x3333_3333_3333_3333 else { return nil }
    // Digit values, then pairs (each lane ten times itself plus the next: the pairs in the even
    // lanes), then the two halves of four digits, joined into the eight.
    var value = word &- 0x3030_3030_3030_3030
    value = value &* 10 &+ value >> 8
    let pairs: UInt64 = 0x0000_00FF_0000_00FF
    value =
      ((value & pairs) &* 0x000F_4240_0000_0064 &+ (value >> 16 & pairs) &* 0x0000_2710_0000_0001)
      >> 32
    return Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: value))
  }

  /// Where the field starting at `bytes[start]` ends: the position of the next comma before `end`,
  /// or `end`. Nil if the field holds a quote or a byte beyond ASCII.
  @inline(__always)
  private static func plainFieldEnd(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int)
    -> Int?
  {
    var position = start
    // Eight bytes a step while eight are left (an app's id), the first comma, quote or byte
    // beyond ASCII among them found in the word (`specialLanes`); then a byte a step.
    while end &- position >= 8 {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
      let lanes = specialLanes(word)
      if lanes != 0 {
        let found = position &+ lanes.trailingZeroBitCount &>> 3
        return bytes[found] == UInt8(ascii: ",") ? found : nil
      }
      position &+= 8
    }
    while position < end {
      let byte = bytes[position]
      // Digits, letters and most punctuation need no further look: a comma, a quote and the
      // bytes of characters beyond ASCII are all below `0` or above DEL.
      if byte &- UInt8(ascii: "0") >= 0x50 {
        if byte == UInt8(ascii: ",") { return position }
        if byte == UInt8(ascii: "\"") || byte >= 0x80 { return nil }
      }
      position += 1
    }
    return end
  }

  /// The eight bytes of `word` (the first in its lowest lane) with the top bit of each lane set
  /// that holds a comma, a quote or a byte beyond ASCII, and maybe of lanes above the lowest such
  /// one: the lowest lane set is the first such byte. A lane is zero after an exclusive or with
  /// the byte it holds, and subtracting one from every lane sets the top bit of a zero lane (and
  /// may, by its borrow, of the lanes above it, never below).
  @inline(__always)
  private static func specialLanes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let tops: UInt64 = 0x8080_8080_8080_8080
    let commas = word ^ (ones &* UInt64(UInt8(ascii: ",")))
    let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
    let zeros = ((commas &- ones) & ~commas) | ((quotes &- ones) & ~quotes)
    return (zeros | word) & tops
  }

  /// The action named `name`'s bytes, if any.
  private static func kind(named name: UnsafeBufferPointer<UInt8>) -> ActionKind? {
    actionNames.withUnsafeBufferPointer { names in
      for (text, kind) in names where text.count == name.count {
        var same = true
        for index in 0..<name.count where text[index] != name[index] {
          same = false
          break
        }
        if same { return kind }
      }
      return nil
    }
  }

  /// Every action's name in bytes.
  private static let actionNames = ActionKind.allCases.map { (name: Array($0.name.utf8), kind: $0) }

  private mutating func action(_ fields: [String]) throws(JetsimError) -> TimedAction {
    let reader = self.reader
    let fail = { (message: String) in
      JetsimError.traceLine(path: reader.path, line: reader.lineNumber, message: message)
    }
    guard fields.count == TraceReader.header.count else {
      throw fail("expected 4 fields (time_ms,action,app,value), found \(fields.count)")
    }
    guard let time = Int(fields[0]), (0...Units.maxMilliseconds).contains(time) else {
      throw fail(
        "time_ms '\(fields[0].excerpt())' is not a whole number of milliseconds from 0 to \(Units.maxMilliseconds)"
      )
    }
    guard time >= previous else {
      throw fail(
        "time_ms \(time) is before the previous line's \(previous); sort the trace by time")
    }
    previous = time
    do {
      return TimedAction(
        time, try ActionParser.action(name: fields[1], app: fields[2], value: fields[3]))
    } catch {
      throw fail(error.message)
    }
  }
}

/// One line of CSV: fields separated by commas, a field in double quotes where it holds a comma or a
/// quote (doubled). A quoted field does not span lines in a trace.
package enum CSVLine {
  package enum Read: Equatable { case blank, fields }

  /// The fields of `line` (read from `path`, line `line`).
  package static func fields(_ line: UnsafeBufferPointer<UInt8>, path: String, line number: Int)
    throws(JetsimError) -> [String]
  {
    var fields: [String] = []
    _ = try split(line, into: &fields, path: path, line: number)
    return fields
  }

  /// Splits `line` into `fields` (emptied first), reusing its storage.
  package static func split(
    _ line: UnsafeBufferPointer<UInt8>, into fields: inout [String], path: String, line number: Int
  ) throws(JetsimError) -> Read {
    fields.removeAll(keepingCapacity: true)
    guard !line.isEmpty else { return .blank }
    func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(JetsimError) -> String {
      // ASCII, the common case, needs no validation.
      if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw .traceLine(path: path, line: number, message: "not UTF-8 text")
      }
      return text
    }
    var position = 0
    while true {
      if position < line.count, line[position] == UInt8(ascii: "\"") {
        var value: [UInt8] = []
        position += 1
        var closed = false
        while position < line.count {
          if line[position] == UInt8(ascii: "\"") {
            if position + 1 < line.count, line[position + 1] == UInt8(ascii: "\"") {
              value.append(UInt8(ascii: "\""))
              position += 2
              continue
            }
            closed = true
            position += 1
            break
          }
          value.append(line[position])
          position += 1
        }
        guard closed else {
          throw .traceLine(
            path: path, line: number,
            message: "a quoted field is never closed on its line; add the closing \"")
        }
        fields.append(
          try value.withUnsafeBufferPointer { bytes throws(JetsimError) in try text(bytes) })
        if position < line.count, line[position] != UInt8(ascii: ",") {
          throw .traceLine(
            path: path, line: number,
            message: "text after a closing quote; quote the whole field")
        }
      } else {
        let fieldEnd = line[position...].firstIndex(of: UInt8(ascii: ",")) ?? line.count
        fields.append(try text(UnsafeBufferPointer(rebasing: line[position..<fieldEnd])))
        position = fieldEnd
      }
      guard position < line.count else { return .fields }
      position += 1  // the comma
      if position == line.count {
        fields.append("")
        return .fields
      }
    }
  }
}
