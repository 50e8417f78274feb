import JetsimCLI

Interruption.install(arguments: Array(CommandLine.arguments.dropFirst()))
var output = Interruption.Guarded(StandardStream.output)
var errors = Interruption.Guarded(StandardStream.error)
let code = JetsimCommandLine.main(
  Array(CommandLine.arguments.dropFirst()), output: &output, errors: &errors)
Interruption.exit(code.rawValue)
