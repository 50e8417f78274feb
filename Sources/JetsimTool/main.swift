import JetsimCLI
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

Interruption.install(arguments: Array(CommandLine.arguments.dropFirst()))
var output = StandardStream.output
var errors = StandardStream.error
let code = JetsimCommandLine.main(
  Array(CommandLine.arguments.dropFirst()), output: &output, errors: &errors)
exit(code.rawValue)
