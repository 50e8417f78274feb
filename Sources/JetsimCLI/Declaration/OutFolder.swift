import Jetsim

/// `--out` of a subcommand whose folder, unless given, is `Defaults.reportsFolder/<name><suffix>`
/// (`Reports/<scenario name>-compare`): the line of help that names the default and the folder
/// the subcommand writes to are both derived from this one declaration, so they cannot disagree.
struct OutFolder: Sendable {
  /// The option, its help ending in the default folder.
  let option: OptionSpec
  /// What follows the name in the default folder's name (`-compare`; empty for `run`).
  let suffix: String

  /// `--out`, its help saying it is the `what` and naming the default folder: `name` (as the help
  /// writes it, `<scenario name>`) followed by `suffix`.
  init(_ what: String = "output folder", name: String = "<scenario name>", suffix: String = "") {
    option = CommonOptions.out.helped(
      "\(what) (default: \(Defaults.reportsFolder)/\(name)\(suffix))")
    self.suffix = suffix
  }

  /// The folder to write to: `given`, else the default for what is named `name`.
  func folder(_ given: String?, name: String) -> String {
    given ?? "\(Defaults.reportsFolder)/\(name)\(suffix)"
  }
}
