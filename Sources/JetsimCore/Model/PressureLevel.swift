/// The device's memory pressure level (docs/model.md §5).
public enum PressureLevel: UInt8, Comparable, CaseIterable, Sendable, CustomStringConvertible {
  /// Free memory at or above the warning threshold.
  case normal
  /// Free memory below the warning threshold.
  case warning
  /// Free memory below the critical threshold: the policy kills until it is not.
  case critical

  public var description: String {
    switch self {
    case .normal: "normal"
    case .warning: "warning"
    case .critical: "critical"
    }
  }

  public static func < (lhs: PressureLevel, rhs: PressureLevel) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
