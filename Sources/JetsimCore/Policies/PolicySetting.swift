/// A setting a policy declares: its key in `policyParameters` (dotted for a nested object, as in
/// `bands.idle`), its kind, what it means, and the field of the policy's parameters it sets. Each
/// policy declares its own settings beside its code, so giving a policy a new setting touches one
/// file; the setting's default is read from the parameters' defaults, never written twice.
public struct PolicySetting<Parameters>: Sendable {
  /// The key, dotted for nesting: `"agingTime"`, `"bands.idle"`.
  public let key: String
  /// What kind of value the setting takes.
  public let kind: PolicySettingKind
  /// What it means, for `jetsim policies` and the docs.
  public let summary: String
  let apply: @Sendable (inout Parameters, PolicySettingValue) -> Void
  /// The setting's value in some parameters; nil where they leave it to be derived.
  let read: @Sendable (Parameters) -> PolicySettingValue?
  /// What the policy derives the value from where the parameters leave it out.
  let derived: String?

  /// A setting with `key` of `kind`, read by `read` and applied by `apply`; `derived` says what
  /// the policy derives it from where `read` finds none.
  public init(
    _ key: String, _ kind: PolicySettingKind, _ summary: String, derived: String? = nil,
    read: @escaping @Sendable (Parameters) -> PolicySettingValue?,
    apply: @escaping @Sendable (inout Parameters, PolicySettingValue) -> Void
  ) {
    self.key = key
    self.kind = kind
    self.summary = summary
    self.derived = derived
    self.read = read
    self.apply = apply
  }

  /// A number (a duration, a size, a percentage or a whole number, as `kind` says) in `field`.
  public init(
    _ key: String, _ kind: PolicySettingKind, _ field: WritableKeyPath<Parameters, Int> & Sendable,
    _ summary: String
  ) {
    self.init(key, kind, summary, read: { .number($0[keyPath: field]) }) {
      $0[keyPath: field] = $1.number
    }
  }

  /// A number in `field`, whose nil means that the policy derives it from what `derived` says.
  public init(
    _ key: String, _ kind: PolicySettingKind, _ field: WritableKeyPath<Parameters, Int?> & Sendable,
    _ summary: String, derived: String
  ) {
    self.init(
      key, kind, summary, derived: derived, read: { $0[keyPath: field].map { .number($0) } }
    ) {
      $0[keyPath: field] = $1.number
    }
  }

  /// A flag in `field`.
  public init(
    _ key: String, _ field: WritableKeyPath<Parameters, Bool> & Sendable, _ summary: String
  ) {
    self.init(key, .flag, summary, read: { .flag($0[keyPath: field]) }) {
      $0[keyPath: field] = $1.flag
    }
  }

  /// The same setting without its parameters' type, for the registry, with its value in
  /// `defaults`.
  func erased(defaults: Parameters) -> PolicySettingDescription {
    PolicySettingDescription(
      key: key, kind: kind, summary: summary, defaultValue: read(defaults), derivedFrom: derived)
  }
}

/// A setting's key, kind, meaning and default, without the policy's parameter type.
public struct PolicySettingDescription: Sendable, Equatable {
  /// The setting's key in `policyParameters`.
  public let key: String
  /// What kind of value it takes.
  public let kind: PolicySettingKind
  /// What it changes, in one line.
  public let summary: String
  /// Its value when a profile does not give it; nil where the policy derives it.
  public let defaultValue: PolicySettingValue?
  /// What the policy derives it from where `defaultValue` is nil.
  public let derivedFrom: String?

  /// The default in words: the value as a profile gives it (`2s`, `50%`), or what the policy
  /// derives it from.
  public var defaultText: String { defaultValue.map { $0.text(as: kind) } ?? derivedFrom ?? "" }
}
