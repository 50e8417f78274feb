import Dispatch
import Jetsim
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The trace case: writing a trace of many lines and validating it as `jetsim validate` does, a line
/// at a time (docs/performance.md). Peak memory must not grow with the number of lines.
enum TraceBenchmark {
  /// Writes a trace of `lines` actions (opens, home presses, allocations, wakes, in time order) at
  /// `path`, from a fixed seed.
  static func write(lines: Int, to path: String) throws {
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard file >= 0 else { throw FileSystem.Failure(path: path, errno: errno) }
    defer { _ = close(file) }
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
        try write(&chunk, to: file, path: path)
      }
    }
    try write(&chunk, to: file, path: path)
  }

  /// Writes `chunk` to `file` and empties it.
  private static func write(_ chunk: inout String, to file: Int32, path: String) throws {
    try FileSystem.write(chunk, to: file, path: path)
    chunk = ""
  }

  /// Validates the trace at `path`; returns the seconds taken.
  static func validate(path: String) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try InputValidator.validate(at: path)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }
}
