/// jetsim's version, as `jetsim --version` prints it and `run.json` records it.
public enum JetsimVersion {
  /// This version of jetsim, as reports record it.
  public static let current = "0.3.0"
}
