import Jetsim

/// A library error as the command line prints it. Library errors speak of files, keys and lines;
/// here the flag that fixes one is added, where there is one.
enum ErrorMessage {
  /// One line, ending in a line break. `flag` is the option that chooses an output that cannot be
  /// written (`--out`, or check's `--expect`); nil for an output no option chooses, whose advice
  /// the caller adds (the line then ends without its break).
  static func line(for error: JetsimError, flag: String? = "--out") -> String {
    var text = "jetsim: \(error)"
    switch error {
    case .outputNotWritable(let path, let reason, let output):
      let what = output == .reports ? "folder" : "path"
      let advice = " or choose another \(what)"
      guard let flag else {
        // No flag chooses this output: only removing what is in the way helps.
        let reason = reason.hasSuffix(advice) ? String(reason.dropLast(advice.count)) : reason
        return
          "jetsim: \(JetsimError.outputNotWritable(path: path, reason: reason, output: output))"
      }
      if reason.hasSuffix(advice) {
        // The reason ends in that advice already: the flag goes there, not in a second one.
        let advised = JetsimError.outputNotWritable(
          path: path, reason: reason + " with \(flag)", output: output)
        text = "jetsim: \(advised)"
      } else {
        text += "; choose another \(what) with \(flag)"
      }
    case .badGolden: text += " with --update"
    case .invalidValue(_, "memory range", _, _): text += "; set the range with --min and --max"
    default: break
    }
    return text + "\n"
  }
}
