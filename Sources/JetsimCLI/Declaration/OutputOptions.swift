/// What a subcommand prints and how, declared once and parsed once for every subcommand
/// (swift-format's `@OptionGroup` shape): `--quiet` and `--format`, which every subcommand takes.
struct OutputOptions: Equatable, Sendable {
  /// Print nothing but errors.
  var quiet = false
  /// Text for people, or JSON for scripts.
  var format = OutputFormat.text

  init() {}

  init(_ parsed: ParsedArguments) throws(UsageError) {
    quiet = parsed.has(CommonOptions.quiet)
    if parsed.command.takesFormat {
      format = try parsed.format(CommonOptions.format)
    }
  }
}
