import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

/// Reading an input file whole, through its descriptor: every byte, whatever the size the file
/// reports, and a one-line error for what cannot be read.
@Suite struct InputFileTests {
  /// Files of every size around the first buffer's (4,096 bytes) and its doublings come back byte
  /// for byte.
  @Test(arguments: [0, 1, 4095, 4096, 4097, 8193, 100_000])
  func everyByteComesBack(size: Int) throws {
    let scratch = try ScratchFolder()
    var random = RandomStream(seed: UInt64(size), stream: 4)
    let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let path = scratch.file("input.bin")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(try InputFile.bytes(at: path) == bytes)
  }

  /// A file that reports no size (as /proc's do, and pipes) is read to its end all the same.
  @Test func aFileWithoutASizeIsReadToItsEnd() throws {
    let text = try InputFile.text(at: "/proc/self/status")
    #expect(text.contains("VmHWM:"))
    #expect(text.hasSuffix("\n"))
  }

  /// A pipe, which has no size at all, is read whole however many times its buffer must grow.
  @Test func aPipeIsReadWhole() throws {
    let scratch = try ScratchFolder()
    let path = scratch.file("pipe")
    #expect(mkfifo(path, 0o600) == 0)
    var random = RandomStream(seed: 8, stream: 4)
    let bytes = (0..<300_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    DispatchQueue.global().async {
      let handle = FileHandle(forWritingAtPath: path)
      handle?.write(Data(bytes))
      try? handle?.close()
    }
    #expect(try InputFile.bytes(at: path) == bytes)
  }

  /// What cannot be read says why, naming the file.
  @Test func whatCannotBeReadSaysWhy() throws {
    let scratch = try ScratchFolder()
    #expect(throws: JetsimError.fileNotFound(path: scratch.file("none.json"))) {
      try InputFile.bytes(at: scratch.file("none.json"))
    }
    #expect(
      throws: JetsimError.unreadable(path: scratch.path, reason: "it is a folder, not a file")
    ) {
      try InputFile.bytes(at: scratch.path)
    }
    let file = try scratch.write("file", "x")
    #expect(
      throws: JetsimError.unreadable(
        path: "\(file)/x.json", reason: "a file is where a folder should be")
    ) {
      try InputFile.bytes(at: "\(file)/x.json")
    }
  }
}
