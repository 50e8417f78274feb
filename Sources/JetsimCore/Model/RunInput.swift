/// One file a scenario was loaded from, and the SHA-256 of its bytes: the provenance a report folder
/// records in `run.json`, so `jetsim check` can tell a change of behaviour from a change of inputs.
public struct RunInput: Sendable, Equatable {
  /// What the file is: `scenario`, `device`, `app <id>` or `trace`.
  public var role: String
  /// The file's name (without its folder, so that digests compare across checkouts).
  public var file: String
  /// The SHA-256 of its bytes, in hexadecimal.
  public var sha256: String

  /// An input: its role (`scenario`, `device`, `app`, `trace`), its file and its SHA-256 in hexadecimal.
  public init(role: String, file: String, sha256: String) {
    self.role = role
    self.file = file
    self.sha256 = sha256
  }
}
