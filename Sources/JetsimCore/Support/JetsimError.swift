/// Every failure jetsim reports to a user: what was wrong, where, and how to fix it.
///
/// Each case carries its context as data, so tests can compare errors and each front end can put
/// them in its own words; `description` is one line in plain words, with no command-line flags (the
/// command line adds its own hints). Locations are file paths, key paths such as `apps[2].caches`, or
/// line numbers. Text taken from an input is quoted as an excerpt: at most about 80 characters, line
/// breaks and control characters escaped, so a message is always one short line.
public enum JetsimError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A file that does not exist, at a path given as it is. (A file another file names, relative
  /// to its own folder, is an `unreadable` that names the referring file and key.)
  case fileNotFound(path: String)
  /// A file that exists but could not be read.
  case unreadable(path: String, reason: String)
  /// A file that is not well-formed JSON; `detail` says where and what.
  case malformedJSON(path: String, detail: String)
  /// A key the format does not define; `suggestion` is the closest known key, if any, and `valid`
  /// the keys allowed there.
  case unknownKey(path: String, keyPath: String, suggestion: String?, valid: [String])
  /// A required key that is absent.
  case missingKey(path: String, keyPath: String)
  /// A value of the wrong form; `expected` says what would be accepted.
  case invalidValue(path: String, keyPath: String, value: String, expected: String)
  /// An entry (a script action, say) that cannot be used, with what is wrong.
  case invalidEntry(path: String, keyPath: String, message: String)
  /// A profile `version` this build does not understand.
  case unsupportedVersion(path: String, found: Int, supported: Int)
  /// An app id used but not defined; `suggestion` is the closest defined id, if any.
  case unknownApp(path: String, location: String, id: String, suggestion: String?)
  /// Two processes (apps or system processes) with one name; `places` says where each is defined
  /// (`apps[0] (notes.json)`, `the device's systemProcesses[2]`).
  case duplicateApp(path: String, id: String, places: [String])
  /// A line of a text file (a trace, a log, a journal) that cannot be used.
  case traceLine(path: String, line: Int, message: String)
  /// A policy name that no built-in policy has.
  case unknownPolicy(name: String, valid: [String])
  /// An output (a report folder, an imported scenario, a profile) that cannot be created or
  /// written; `output` says which kind, in the words of the message; `remedy`, what removes the
  /// obstacle there ("remove it"), when something is in the way: choosing another output is
  /// always the other way out.
  case outputNotWritable(
    path: String, reason: String, output: Output = .reports, remedy: String? = nil)
  /// An output another jetsim process is writing at this moment.
  case folderInUse(path: String)
  /// A golden report that has not been recorded yet.
  case goldenMissing(path: String)
  /// A golden report that cannot be compared: empty, not CSV, a header that is not jetsim's, a
  /// `run.json` jetsim did not write; `line` is the line at fault, when there is one.
  case badGolden(path: String, line: Int?, problem: String)
  /// A policy that chose an app it cannot kill or purge (a bug in a custom policy).
  case invalidEviction(policy: String, app: String, problem: String)

  /// The kinds of output an error names: "cannot write the scenario".
  public enum Output: String, Sendable {
    /// A folder of reports (a run, a comparison, a plan, a replay, a sweep, an import).
    case reports = "the reports"
    /// A scenario file.
    case scenario = "the scenario"
    /// A trace file.
    case trace = "the trace"
    /// A profile file.
    case profile = "the profile"

    /// What another one is chosen as: a folder for reports, a path for a file.
    public var noun: String { self == .reports ? "folder" : "path" }
  }

  public var description: String {
    switch self {
    case .fileNotFound(let path):
      return
        "\(Self.quoted(path)): no such file; check the path"
    case .unreadable(let path, let reason):
      return "\(Self.quoted(path)): cannot be read (\(reason))"
    case .malformedJSON(let path, let detail):
      return "\(Self.quoted(path)): not valid JSON: \(detail.excerpt(limit: 200))"
    case .unknownKey(let path, let keyPath, let suggestion, let valid):
      let hint =
        suggestion.map { "; did you mean '\($0)'?" }
        ?? (valid.isEmpty
          ? "; nothing may be set here" : "; valid keys: \(valid.joined(separator: ", "))")
      return "\(Self.quoted(path)): unknown key '\(keyPath.excerpt())'\(hint)"
    case .missingKey(let path, let keyPath):
      return
        "\(Self.quoted(path)): missing required key '\(keyPath)'; add it (see docs/profiles.md)"
    case .invalidValue(let path, let keyPath, let value, let expected):
      return
        "\(Self.quoted(path)): '\(keyPath.excerpt())' is \(value.excerpt(limit: 100)); expected \(expected)"
    case .invalidEntry(let path, let keyPath, let message):
      return "\(Self.quoted(path)): '\(keyPath.excerpt())': \(message.excerpt(limit: 300))"
    case .unsupportedVersion(let path, let found, let supported):
      return
        "\(Self.quoted(path)): version \(found) is not supported; this jetsim reads version \(supported)"
    case .unknownApp(let path, let location, _, _):
      return "\(Self.quoted(path)): \(location.excerpt()): \(unknownAppText)"
    case .duplicateApp(let path, let id, let places):
      let at =
        places.isEmpty ? "" : ", at " + places.map { $0.excerpt() }.joined(separator: " and ")
      return
        "\(Self.quoted(path)): '\(id.excerpt())' is defined twice\(at); give each app and system process its own name"
    case .traceLine(let path, let line, let message):
      return "\(Self.quoted(path)):\(line): \(message.excerpt(limit: 300))"
    case .unknownPolicy(let name, let valid):
      let hint = Suggestion.closest(to: name, in: valid).map { "did you mean '\($0)'? " } ?? ""
      return
        "unknown policy '\(name.excerpt())'; \(hint)valid policies: \(valid.joined(separator: ", "))"
    case .outputNotWritable(let path, let reason, let output, let remedy):
      let advised = remedy.map { "\(reason); \($0) or choose another \(output.noun)" } ?? reason
      return
        "\(Self.quoted(path)): cannot write \(output.rawValue) (\(advised.excerpt(limit: 200)))"
    case .folderInUse(let path):
      return
        "\(Self.quoted(path)): another jetsim is writing there now; wait for it to finish, or write elsewhere"
    case .goldenMissing(let path):
      return "\(Self.quoted(path)): no golden report recorded there yet; record it first"
    case .badGolden(let path, let line, let problem):
      return
        "\(Self.quoted(path))\(line.map { ":\($0)" } ?? ""): \(problem.excerpt(limit: 300)); re-record the golden"
    case .invalidEviction(let policy, let app, let problem):
      return "policy '\(policy.excerpt())' chose '\(app.excerpt())', but \(problem); fix the policy"
    }
  }

  /// What an `unknownApp` error says of the name, after its place (empty for any other error).
  package var unknownAppText: String {
    guard case .unknownApp(_, _, let id, let suggestion) = self else { return "" }
    let hint =
      suggestion.map { "; did you mean '\($0)'?" }
      ?? "; add its profile to 'apps' (or the device's 'systemProcesses')"
    return "'\(id.excerpt())' is not an app or system process of the scenario\(hint)"
  }

  /// A path in a message: as given, but never longer than a line.
  static func quoted(_ path: String) -> String { path.excerpt(limit: 160) }
}
