import Foundation
import JetsimCLI

/// Standard output or standard error as a `TextOutputStream`.
struct StandardStream: TextOutputStream {
  let handle: FileHandle
  mutating func write(_ string: String) { handle.write(Data(string.utf8)) }
}

var output = StandardStream(handle: .standardOutput)
var errors = StandardStream(handle: .standardError)
let code = JetsimCommandLine.main(
  Array(CommandLine.arguments.dropFirst()), output: &output, errors: &errors)
exit(code.rawValue)
