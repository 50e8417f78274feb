import Foundation
import Jetsim

/// The trace case: writing a trace of many lines and validating it as `jetsim validate` does, a line
/// at a time (docs/performance.md). Peak memory must not grow with the number of lines.
enum TraceBenchmark {
  /// Writes a trace of `lines` actions (opens, home presses, allocations, wakes, in time order) at
  /// `path`, from a fixed seed.
  static func write(lines: Int, to path: String) throws {
    guard let file = FileHandle(forWritingAtPath: path) ?? create(path) else {
      throw CocoaError(.fileWriteUnknown)
    }
    defer { try? file.close() }
    let apps = ["com.example.maps", "com.example.music", "com.example.mail", "com.example.notes"]
    var random = RandomStream(seed: 11, stream: 1)
    var chunk = "time_ms,action,app,value\n"
    var time = 0
    for _ in 0..<lines {
      time += Int(random.next() % 5000)
      let app = apps[Int(random.next() % UInt64(apps.count))]
      switch random.next() % 4 {
      case 0: chunk += "\(time),open,\(app),\n"
      case 1: chunk += "\(time),home,,\n"
      case 2: chunk += "\(time),allocate,\(app),\(1 + random.next() % 64)MB\n"
      default: chunk += "\(time),wake,\(app),30s\n"
      }
      if chunk.utf8.count > 1 << 20 {
        try file.write(contentsOf: Data(chunk.utf8))
        chunk = ""
      }
    }
    try file.write(contentsOf: Data(chunk.utf8))
  }

  /// Validates the trace at `path`; returns the seconds taken.
  static func validate(path: String) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try InputValidator.validate(at: path)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  private static func create(_ path: String) -> FileHandle? {
    guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
    return FileHandle(forWritingAtPath: path)
  }
}
