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
}

/// A setting a policy declares: its key in `policyParameters` (dotted for a nested object, as in
/// `bands.idle`), its kind, what it means, and how it changes the policy's parameters. Each policy
/// declares its own settings beside its code, so giving a policy a new setting touches one file.
public struct PolicySetting<Parameters>: Sendable {
  /// The key, dotted for nesting: `"agingTime"`, `"bands.idle"`.
  public let key: String
  /// What kind of value the setting takes.
  public let kind: PolicySettingKind
  /// What it means, for `jetsim policies` and the docs.
  public let summary: String
  let apply: @Sendable (inout Parameters, PolicySettingValue) -> Void

  /// A setting with `key` of `kind`, applied to the parameters by `apply`.
  public init(
    _ key: String, _ kind: PolicySettingKind, _ summary: String,
    apply: @escaping @Sendable (inout Parameters, PolicySettingValue) -> Void
  ) {
    self.key = key
    self.kind = kind
    self.summary = summary
    self.apply = apply
  }

  /// The same setting without its parameters' type, for the registry.
  public var erased: PolicySettingDescription {
    PolicySettingDescription(key: key, kind: kind, summary: summary)
  }
}

/// A setting's key, kind and meaning, without the policy's parameter type.
public struct PolicySettingDescription: Sendable, Equatable {
  /// The setting's key in `policyParameters`.
  public let key: String
  /// What kind of value it takes.
  public let kind: PolicySettingKind
  /// What it changes, in one line.
  public let summary: String
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
