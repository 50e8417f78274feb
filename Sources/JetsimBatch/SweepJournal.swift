import JetsimCore
import JetsimIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Sweep {
  /// An append-only file of finished runs, one line each, written under a lock in a single write.
  final class Journal: @unchecked Sendable {
    private let path: String
    /// -1 once closed.
    private var descriptor: Int32
    private let lock = Lock()

    init(folder: String) throws(JetsimError) {
      path = "\(folder)/runs/journal-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tsv"
      do {
        descriptor = try FileSystem.createExclusively(path)
      } catch {
        throw .outputNotWritable(
          path: path, reason: "cannot create the sweep's journal (\(error.reason))")
      }
    }

    /// Appends run `index`'s `row` (which ends with its line end).
    func append(_ index: Int, _ row: some Collection<UInt8>) throws(JetsimError) {
      var line = Array("\(index)\t".utf8)
      line += row
      lock.lock()
      defer { lock.unlock() }
      guard descriptor >= 0 else {
        throw .outputNotWritable(path: path, reason: "an earlier write to the journal failed")
      }
      let failure = line.withUnsafeBytes { bytes -> FileSystem.Failure? in
        do throws(FileSystem.Failure) {
          try FileSystem.write(bytes, to: descriptor, path: path)
          return nil
        } catch {
          return error
        }
      }
      if let failure {
        // Nothing more is appended after a torn line: it stays the journal's last, which a resume
        // passes over (and runs again).
        try? FileSystem.close(descriptor, path: path)
        descriptor = -1
        throw .outputNotWritable(path: "sweep journal", reason: failure.reason)
      }
    }

    /// Closes the journal (once: a second call does nothing).
    func close() throws(JetsimError) {
      guard descriptor >= 0 else { return }
      let closing = descriptor
      descriptor = -1
      do {
        try FileSystem.close(closing, path: path)
      } catch {
        throw .outputNotWritable(path: "sweep journal", reason: error.reason)
      }
    }

    deinit { try? close() }
  }

  /// The finished runs recorded in the journals of some sweep folders, by run number: where each
  /// run's row lies (a journal and a byte range), not the row, so that a sweep is resumed, merged
  /// and assembled with 16 bytes a run in memory whatever the size of its rows. Each row is checked
  /// as the journals are read: a run number within the sweep, and one field per column and metric.
  /// A last line without a line end (torn by a crash) is left out: that run is done again; any other
  /// damaged line is an error naming it. Where two journals hold a run, the first in name order
  /// (folder by folder) gives its row.
  final class JournalIndex {
    private var paths: [String] = []
    /// By run: the journal holding its row (-1 where the run is not done), the row's first byte
    /// and its length without its line end.
    private var journal: [Int32]
    private var start: [Int]
    private var length: [Int32]
    /// How many runs are done.
    private(set) var count = 0
    /// The journals open for reading rows back, the latest opened last: a few at a time (the
    /// first opened is closed to open another), however many journals the shards of a merge hold.
    private var open: [(journal: Int32, descriptor: Int32)] = []
    private static let maxOpen = 16
    /// The journals held open from the start, whatever becomes of their files: those of the
    /// folder a merge writes into, which it clears before it reads their rows back.
    private var held: [Int32: Int32] = [:]

    /// The runs in the journals of `folders`; the journals of `holding`, if it is one of them,
    /// stay open, so that their rows can be read after their files are removed.
    init(folders: [String], manifest: SweepManifest, holding: String? = nil) throws(JetsimError) {
      journal = Array(repeating: -1, count: manifest.runs)
      start = Array(repeating: 0, count: manifest.runs)
      length = Array(repeating: 0, count: manifest.runs)
      let heldFolder = holding.flatMap(Self.identity)
      for folder in folders {
        let holds = heldFolder != nil && Self.identity(folder) == heldFolder
        for path in Sweep.journalPaths(in: folder) {
          let descriptor: Int32
          do {
            descriptor = try InputFile.openForReading(path).descriptor
          } catch .fileNotFound {
            continue  // removed since the folder was listed
          }
          paths.append(path)
          let number = Int32(paths.count - 1)
          if holds {
            held[number] = descriptor
          }
          defer { if !holds { _ = close(descriptor) } }
          try index(descriptor, path: path, number: number, manifest: manifest)
        }
      }
    }

    /// The device and inode of the folder at `path`, if there is one.
    private static func identity(_ path: String) -> [UInt64]? {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// Indexes the rows of the journal `number`, open at `descriptor`.
    private func index(_ descriptor: Int32, path: String, number: Int32, manifest: SweepManifest)
      throws(JetsimError)
    {
      let fieldCount = manifest.columns.count + SummaryMetric.all.count
      try JournalLines.scan(descriptor, path: path) {
        line, offset, lineNumber throws(JetsimError) in
        func damaged(_ problem: String) -> JetsimError {
          .traceLine(
            path: path, line: lineNumber,
            message:
              "\(problem); the journal is damaged: remove this line (the run is done again when the sweep resumes) or run the sweep again"
          )
        }
        guard let tab = line.firstIndex(of: UInt8(ascii: "\t")),
          let run = Int(String(decoding: line[..<tab], as: UTF8.self))
        else { throw damaged("not a run number, a tab and a row") }
        guard (0..<manifest.runs).contains(run) else {
          throw damaged("run \(run) is not a run of this sweep (0 to \(manifest.runs - 1))")
        }
        guard Self.fieldCount(line[(tab + 1)...]) == fieldCount else {
          throw damaged("the row of run \(run) does not have its \(fieldCount) fields")
        }
        guard journal[run] < 0 else { return }
        journal[run] = number
        start[run] = offset + (tab - line.startIndex) + 1
        length[run] = Int32(line.endIndex - tab - 1)
        count += 1
      }
    }

    deinit {
      for (_, descriptor) in open { _ = close(descriptor) }
      for descriptor in held.values { _ = close(descriptor) }
    }

    /// The descriptor of journal `number`, opened if it is not open.
    private func descriptor(_ number: Int32) throws(JetsimError) -> Int32 {
      if let descriptor = held[number] { return descriptor }
      if let opened = open.last(where: { $0.journal == number }) { return opened.descriptor }
      if open.count == Self.maxOpen { _ = close(open.removeFirst().descriptor) }
      let descriptor = try InputFile.openForReading(paths[Int(number)]).descriptor
      open.append((number, descriptor))
      return descriptor
    }

    /// The number of CSV fields of `row` (without its line end); nil if it is not CSV.
    static func fieldCount(_ row: ArraySlice<UInt8>) -> Int? {
      PlainRow.fieldCount(row)
        ?? (try? CSVReader.records(String(decoding: row, as: UTF8.self) + "\n").first?.fields.count)
    }

    /// The runs of the sweep (or of its `shard`) not done, in order.
    func pending(shard: ShardSpec?) -> [Int] {
      journal.indices.filter { journal[$0] < 0 && shard?.owns($0) ?? true }
    }

    /// The first run not done, if any.
    var firstMissing: Int? { journal.firstIndex(of: -1) }

    /// Appends run `run`'s row, with its line end, to `bytes`; the run must be done.
    func append(_ run: Int, to bytes: inout [UInt8]) throws(JetsimError) {
      let number = journal[run]
      let descriptor = try descriptor(number)
      // The row and the byte after it, its line end (`\n`, or the `\r` of `\r\n`), which the
      // row is given as `\n` whatever it was.
      let rowLength = Int(length[run]) + 1
      let end = bytes.count
      bytes += repeatElement(0, count: rowLength)
      let read = bytes.withUnsafeMutableBytes { buffer in
        pread(descriptor, buffer.baseAddress.map { $0 + end }, rowLength, off_t(start[run]))
      }
      // The row is read as it was checked, ending with a line end: a journal that changed since
      // is not used.
      guard read == rowLength, bytes.last == UInt8(ascii: "\n") || bytes.last == 13 else {
        throw .unreadable(
          path: paths[Int(number)],
          reason:
            "run \(run)'s row could not be read back (\(read < 0 ? FileSystem.words(errno: errno) : "the journal changed while the sweep read it")); run the command again"
        )
      }
      bytes[bytes.count - 1] = UInt8(ascii: "\n")
    }

    /// Run `run`'s row, with its line end; the run must be done.
    func row(_ run: Int) throws(JetsimError) -> String {
      var bytes: [UInt8] = []
      try append(run, to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// The journals of the sweep folder `folder`, in name order.
  static func journalPaths(in folder: String) -> [String] {
    FileSystem.names(in: "\(folder)/runs").sorted()
      .filter { $0.hasPrefix("journal-") && $0.hasSuffix(".tsv") }
      .map { "\(folder)/runs/\($0)" }
  }

  /// How many complete lines the journals of `folder` hold (runs done, before they are checked).
  static func journalRowCount(in folder: String) -> Int {
    var lines = 0
    for path in journalPaths(in: folder) {
      guard let descriptor = try? InputFile.openForReading(path).descriptor else { continue }
      defer { _ = close(descriptor) }
      try? JournalLines.scan(descriptor, path: path) { _, _, _ in lines += 1 }
    }
    return lines
  }
}

/// Reads a file's complete lines a megabyte at a time, with where each starts.
enum JournalLines {
  /// The longest line read: a journal's rows are a few hundred bytes.
  static let maxLineBytes = 1 << 20

  /// Calls `body` with each line that ends with a line end, `\n` or `\r\n` (its bytes without it,
  /// the offset of its first byte, and its 1-based number); a last line with no line end is left
  /// out. Empty lines are passed over unless `emptyLines`. Reads `chunk` bytes at a time (tests read
  /// a few, to meet every boundary); a line longer than `maxLineBytes` is an error.
  static func scan(
    _ descriptor: Int32, path: String, emptyLines: Bool = false, chunk: Int = 1 << 20,
    _ body: (ArraySlice<UInt8>, Int, Int) throws(JetsimError) -> Void
  ) throws(JetsimError) {
    var buffer: [UInt8] = []
    // The file offset of `buffer[0]`, and the number of the line that starts there.
    var base = 0
    var lineNumber = 1
    while true {
      let kept = buffer.count
      guard kept <= maxLineBytes else {
        throw .traceLine(
          path: path, line: lineNumber,
          message:
            "longer than \(maxLineBytes / 1024) KB: not a journal's line; remove it, or run the sweep again"
        )
      }
      buffer += repeatElement(0, count: chunk)
      let got = buffer.withUnsafeMutableBytes { bytes in
        read(descriptor, bytes.baseAddress.map { $0 + kept }, chunk)
      }
      guard got >= 0 else {
        throw .unreadable(path: path, reason: FileSystem.words(errno: errno))
      }
      buffer.removeLast(chunk - got)
      guard got > 0 else { return }
      var lineStart = 0
      // Only what was read now is searched: the bytes kept hold no line end.
      var searched = kept
      while let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        let end = newline > lineStart && buffer[newline - 1] == 13 ? newline - 1 : newline
        if end > lineStart || emptyLines {
          try body(buffer[lineStart..<end], base + lineStart, lineNumber)
        }
        lineNumber += 1
        lineStart = newline + 1
        searched = lineStart
      }
      base += lineStart
      buffer.removeFirst(lineStart)
    }
  }
}

/// A row of `sweep.csv` read straight from its bytes, for the rows jetsim writes: fields split at
/// commas, numbers of at most 15 digits and 22 decimals (every whole number and
/// four-decimal ratio a run reports). A row with a quote or a carriage return, or a number of
/// another form, is not read here: `nil` says to read it as CSV, which gives the same values.
enum PlainRow {
  /// The number of fields of `row` (without its line end), or nil if it is not plain.
  static func fieldCount(_ row: some Collection<UInt8>) -> Int? {
    var commas = 0
    for byte in row {
      if byte == UInt8(ascii: ",") {
        commas += 1
      } else if byte == UInt8(ascii: "\"") || byte == 13 {
        return nil
      }
    }
    return commas + 1
  }

  /// The value of each field of `row` (without its line end) after the first `skip`, in
  /// `values` (nil for an empty field); false if the row is not plain, or a field is not a number
  /// read here.
  static func values(
    _ row: ArraySlice<UInt8>, skipping skip: Int, into values: inout [Double?]
  ) -> Bool {
    values.removeAll(keepingCapacity: true)
    var field = 0
    var start = row.startIndex
    while true {
      let end = row[start...].firstIndex(of: UInt8(ascii: ",")) ?? row.endIndex
      let text = row[start..<end]
      if field >= skip {
        guard let value = number(text) else { return false }
        values.append(value)
      } else if text.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 13 }) {
        return false
      }
      field += 1
      guard end < row.endIndex else { return true }
      start = end + 1
    }
  }

  /// The value of `field`: `.some(nil)` for an empty field; the number for `-`, digits, and a `.`
  /// with digits on both sides, with at most 15 digits and 22 decimals (the exact value of the
  /// digits divided by an exact power of ten, correctly rounded: the double `Double(String)`
  /// gives); nil for anything else.
  static func number(_ field: ArraySlice<UInt8>) -> Double?? {
    guard !field.isEmpty else { return .some(nil) }
    var digits: UInt64 = 0
    var count = 0
    var decimals = -1
    var negative = false
    for (position, byte) in zip(field.indices, field) {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        digits = digits &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
        count += 1
        if decimals >= 0 { decimals += 1 }
      case UInt8(ascii: "-") where position == field.startIndex: negative = true
      case UInt8(ascii: ".") where decimals < 0 && count > 0: decimals = 0
      default: return nil
      }
    }
    guard count > 0, count <= 15, decimals != 0, decimals <= 22 else { return nil }
    let value = Double(digits) / powersOfTen[max(0, decimals)]
    return .some(negative ? -value : value)
  }

  /// 10^0 through 10^22, each exact as a double.
  private static let powersOfTen: [Double] = (0...22).map { exponent in
    (0..<exponent).reduce(1.0) { power, _ in power * 10 }
  }
}
