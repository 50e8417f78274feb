import Jetsim

/// A library error as the command line prints it. Library errors speak of files, keys and lines;
/// here the flag that fixes one is added, where there is one.
enum ErrorMessage {
  /// One line, ending in a line break.
  static func line(for error: JetsimError) -> String {
    var text = "jetsim: \(error)"
    switch error {
    case .outputNotWritable(_, _, .reports): text += "; choose another folder with --out"
    case .outputNotWritable: text += "; choose another path with --out"
    case .badGolden: text += " with --update"
    case .invalidValue(_, "memory range", _, _): text += "; set the range with --min and --max"
    default: break
    }
    return text + "\n"
  }
}
