#if os(Linux)
  import Glibc
#else
  import Foundation
#endif

/// This program run again as a child process, its standard output read back: each case runs in a
/// process of its own so that its peak memory is the case's own. On Linux it is spawned through
/// the C library, so the benchmark, like `jetsim`, loads FoundationEssentials only, not the whole
/// of Foundation (whose libraries alone would add some 6.5 MB to every case's peak); elsewhere,
/// through Foundation.
enum ChildProcess {
  /// What the child wrote to standard output, if it ran and exited with status 0.
  static func output(_ arguments: [String]) -> String? {
    #if os(Linux)
      spawned(arguments)
    #else
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      process.arguments = arguments
      let pipe = Pipe()
      process.standardOutput = pipe
      guard (try? process.run()) != nil else { return nil }
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return process.terminationStatus == 0 ? String(decoding: output, as: UTF8.self) : nil
    #endif
  }

  #if os(Linux)
    /// `output`, through `posix_spawn`.
    private static func spawned(_ arguments: [String]) -> String? {
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else { return nil }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
      posix_spawn_file_actions_addclose(&actions, ends[0])
      posix_spawn_file_actions_addclose(&actions, ends[1])
      let argv = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
      defer { argv.forEach { free($0) } }
      var child = pid_t()
      let spawned = posix_spawn(&child, CommandLine.arguments[0], &actions, nil, argv, environ)
      _ = close(ends[1])
      defer { _ = close(ends[0]) }
      guard spawned == 0 else { return nil }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        bytes.append(contentsOf: chunk[..<count])
      }
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0, errno == EINTR {}
      // 0: exited normally with status 0 (a signal or another status is not).
      return status == 0 ? String(decoding: bytes, as: UTF8.self) : nil
    }
  #endif
}
