import JetsimIO
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// What the benchmark reads of its own process and files, from the C library.

/// The CPU time the process has used so far, user and system, over all its threads, in seconds
/// (`CLOCK_PROCESS_CPUTIME_ID`).
func processCPUSeconds() -> Double {
  var time = timespec()
  guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The process's peak resident memory (VmHWM, Linux), in KB.
func peakMemoryKB() -> Int {
  // Linux reports it in /proc; elsewhere the benchmark reports 0 rather than guess.
  guard let status = try? InputFile.text(at: "/proc/self/status") else { return 0 }
  let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
  return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// A path in the temporary folder (`$TMPDIR`, or /tmp) named for this process: `NAME-PID`.
func temporaryPath(_ name: String) -> String {
  let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
  return "\(folder)/\(name)-\(getpid())"
}

/// The size of the file at `path` in bytes (0 if it cannot be read).
func fileSize(_ path: String) -> Int {
  var status = stat()
  return stat(path, &status) == 0 ? Int(status.st_size) : 0
}
