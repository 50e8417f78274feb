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
    case .outputNotWritable(let path, let reason, let output, let remedy):
      // The library's advice to choose another output names no option: here it names the flag
      // that chooses it, or goes when none does (only the remedy then helps).
      let advised: String
      switch (remedy, flag) {
      case (let remedy?, let flag?):
        advised = "\(reason); \(remedy) or choose another \(output.noun) with \(flag)"
      case (let remedy?, nil): advised = "\(reason); \(remedy)"
      case (nil, _): advised = reason
      }
      text = "jetsim: \(JetsimError.outputNotWritable(path: path, reason: advised, output: output))"
      guard let flag else { return text }
      if remedy == nil { text += "; choose another \(output.noun) with \(flag)" }
    case .badGolden: text += " with --update"
    case .invalidValue(_, "memory range", _, _): text += "; set the range with --min and --max"
    default: break
    }
    return text + "\n"
  }
}
