/// What a subcommand prints and how, declared once and parsed once for every subcommand
/// (swift-format's `@OptionGroup` shape): `--quiet`, which every subcommand takes, and `--format`,
/// where the subcommand declares `CommonOptions.format`.
struct OutputOptions: Equatable, Sendable {
  /// Print nothing but errors.
  var quiet = false
  /// Text for people, or JSON for scripts.
  var format = OutputFormat.text

  init() {}

  init(_ parsed: ParsedArguments) throws(UsageError) {
    quiet = parsed.has(CommonOptions.quiet)
    if parsed.command.option(CommonOptions.format.flag) != nil {
      format = try parsed.format(CommonOptions.format)
    }
  }
}
