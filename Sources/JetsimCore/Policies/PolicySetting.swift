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
