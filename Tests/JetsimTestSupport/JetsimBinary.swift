import Foundation

/// What running the `jetsim` binary gave.
public struct Outcome: Sendable {
  /// The exit code, or the signal's number if `signaled`.
  public var status: Int32
  /// Whether a signal ended the process (a crash, a trap).
  public var signaled = false
  public var output: String
  public var errors: String
}

/// The `jetsim` binary (or another of the package's executables) built beside the test bundle.
public func jetsimBinary(_ name: String = "jetsim") throws -> URL {
  let folder = Bundle.main.executableURL?.deletingLastPathComponent() ?? URL(fileURLWithPath: ".")
  let candidates = [folder, folder.deletingLastPathComponent()].map {
    $0.appendingPathComponent(name)
  }
  guard
    let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates[0].path])
  }
  return binary
}

/// Runs the built `jetsim` binary (or `binary`) with `arguments` in `directory`, with `environment`
/// added to the test's own, and returns its exit status and what it printed.
public func jetsim(
  _ arguments: [String], in directory: String = packageRoot, environment: [String: String] = [:],
  binary: String = "jetsim"
) throws -> Outcome {
  try runProcess(
    try jetsimBinary(binary), arguments, in: directory, environment: environment)
}

/// Runs a tool found on the `PATH` (`swift`, `git`) with `arguments` in `directory`.
public func tool(_ name: String, _ arguments: [String], in directory: String = packageRoot) throws
  -> Outcome
{
  try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, in: directory)
}

/// Runs `executable` and returns its exit status and what it printed on each stream.
func runProcess(
  _ executable: URL, _ arguments: [String], in directory: String,
  environment: [String: String] = [:]
) throws -> Outcome {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  // Read both pipes at once, so a child that fills one while we wait on the other cannot hang.
  let group = DispatchGroup()
  nonisolated(unsafe) var errorData = Data()
  group.enter()
  DispatchQueue.global().async {
    errorData = errors.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return Outcome(
    status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
    output: String(decoding: outputData, as: UTF8.self),
    errors: String(decoding: errorData, as: UTF8.self))
}
