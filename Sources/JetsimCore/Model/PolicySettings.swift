/// What kind of value a policy setting takes, and so how a profile writes it.
public enum PolicySettingKind: Sendable, Equatable {
  /// A duration in milliseconds, written `"2s"`.
  case duration
  /// A size in kilobytes, written `"64MB"`.
  case size
  /// A percentage from 0 to 100, written `"50%"`.
  case percent
  /// `true` or `false`.
  case flag
  /// A whole number in a range.
  case integer(ClosedRange<Int>)
  /// A list of exactly `count` sizes in ascending order, in kilobytes.
  case ascendingSizes(count: Int)

  /// What a profile gives, in words: `a duration`, `a whole number, 201 to 1001`.
  public var valueText: String {
    switch self {
    case .duration: "a duration"
    case .size: "a size"
    case .percent: "a percentage"
    case .flag: "true or false"
    case .integer(let range): "a whole number, \(range.lowerBound) to \(range.upperBound)"
    case .ascendingSizes(let count): "\(count) sizes, ascending"
    }
  }
}

/// One value of a policy setting, as a profile gave it: a number (durations in ms, sizes in KB,
/// percentages, whole numbers), a flag, or a list of numbers.
public enum PolicySettingValue: Sendable, Equatable {
  /// A number: milliseconds, kilobytes, a percentage or a whole number, as the setting says.
  case number(Int)
  /// A flag.
  case flag(Bool)
  /// A list of numbers (lmkd's `minfree`).
  case numbers([Int])

  /// The number, or 0 if the value is not one (the decoder checks kinds, so this never happens for
  /// a setting read from a profile).
  public var number: Int {
    if case .number(let value) = self { return value }
    return 0
  }

  /// The flag, or false if the value is not one.
  public var flag: Bool {
    if case .flag(let value) = self { return value }
    return false
  }

  /// The numbers, or none if the value is not a list.
  public var numbers: [Int] {
    if case .numbers(let values) = self { return values }
    return []
  }

  /// The value as a profile gives it for a setting of `kind`, without JSON's quotes: `2s`, `64MB`,
  /// `50%`, `true`, `701`, `[64MB, 96MB]`.
  public func text(as kind: PolicySettingKind?) -> String {
    switch (self, kind) {
    case (.number(let number), .duration): Units.formatDuration(number)
    case (.number(let number), .size): Units.formatSize(number)
    case (.number(let number), .percent): "\(number)%"
    case (.number(let number), _): "\(number)"
    case (.flag(let flag), _): "\(flag)"
    case (.numbers(let numbers), _):
      "[" + numbers.map(Units.formatSize).joined(separator: ", ") + "]"
    }
  }
}

/// The settings profiles give the policies under `policyParameters`: for each policy named, the
/// values by key. A policy left out uses the real system's values; a scenario's settings for a
/// policy replace the device's for that policy, whole.
public struct PolicySettings: Sendable, Equatable {
  /// The values given, by policy name, then by setting key.
  public var values: [String: [String: PolicySettingValue]]

  /// Settings by policy name, then by key.
  public init(_ values: [String: [String: PolicySettingValue]] = [:]) { self.values = values }

  /// The values given for `policy` (empty if none).
  public subscript(policy: String) -> [String: PolicySettingValue] { values[policy] ?? [:] }

  /// These settings where a policy is given, otherwise `fallback`'s for it.
  public func overriding(_ fallback: PolicySettings) -> PolicySettings {
    PolicySettings(values.merging(fallback.values) { mine, _ in mine })
  }
}
