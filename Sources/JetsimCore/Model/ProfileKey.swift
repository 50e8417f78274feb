/// The kind of value a profile key takes, and so how JSON reads and writes it (docs/profiles.md).
package enum ProfileKeyKind: Sendable, Equatable {
  /// The format's `version`: required in a file of its own, optional inline.
  case version
  /// A name that reaches reports: a non-empty string on one line.
  case name
  /// Any string.
  case text
  /// A size in KB, written with a unit: `"350MB"`.
  case size
  /// A duration in ms, written with a unit: `"5s"`.
  case duration
  /// `true` or `false`.
  case flag
  /// A decimal number within the range, kept in thousandths: `2.5` is 2500.
  case permille(ClosedRange<Double>)
  /// A whole number within the range: `20`.
  case count(ClosedRange<Int>)
  /// An object of the key's own keys (`ProfileKey.keys`).
  case object
  /// The policies' settings (`policyParameters`), checked against each policy's declared ones.
  case policySettings
  /// A list of system processes with distinct names.
  case systemProcesses
}

/// A profile key's value as a profile holds it: the one currency between a profile's fields and
/// the JSON reader and writer.
package enum ProfileValue: Sendable, Equatable {
  /// A name or a text.
  case text(String)
  /// A size (KB), a duration (ms) or thousandths.
  case number(Int)
  /// A flag.
  case flag(Bool)
  /// An object is there (its keys carry its values).
  case present
  /// The policies' settings.
  case settings(PolicySettings)
  /// System processes.
  case processes([SystemProcess])
}

#if compiler(>=6.2)
  /// What a `ProfileScalar` refines: the `@Sendable` closures of a key's table name its type, so
  /// from Swift 6.2 on (SE-0470) the type is a `SendableMetatype`.
  package typealias ProfileScalarBase = SendableMetatype
#else
  /// What a `ProfileScalar` refines: nothing before Swift 6.2.
  package protocol ProfileScalarBase {}
#endif

/// A Swift value a scalar profile key holds, and how it becomes a `ProfileValue` and back: an
/// integer, a string or a flag, or an optional one (not there while nil).
package protocol ProfileScalar: ProfileScalarBase {
  /// The value as a profile holds it; nil when it is not there.
  var profileValue: ProfileValue? { get }
  /// The value `value` holds.
  init(profileValue value: ProfileValue)
}

/// The value of a number key (`.size`, `.duration`, `.permille`): `Int` or `Int?`.
package protocol ProfileNumber: ProfileScalar {}

/// The value of a `.name` or `.text` key: `String` or `String?`.
package protocol ProfileText: ProfileScalar {}

extension Int: ProfileNumber {
  /// The integer as a number.
  package var profileValue: ProfileValue? { .number(self) }
  /// The number `value` holds, or 0 if it is not one (the reader gives each key its kind's value).
  package init(profileValue value: ProfileValue) {
    guard case .number(let number) = value else { self = 0; return }
    self = number
  }
}

extension String: ProfileText {
  /// The string as a text.
  package var profileValue: ProfileValue? { .text(self) }
  /// The text `value` holds, or "" if it is not one.
  package init(profileValue value: ProfileValue) {
    guard case .text(let text) = value else { self = ""; return }
    self = text
  }
}

extension Bool: ProfileScalar {
  /// The flag.
  package var profileValue: ProfileValue? { .flag(self) }
  /// The flag `value` holds, or false if it is not one.
  package init(profileValue value: ProfileValue) {
    guard case .flag(let flag) = value else { self = false; return }
    self = flag
  }
}

extension Optional: ProfileScalar where Wrapped: ProfileScalar {
  /// The wrapped value as a profile holds it; nil when there is none.
  package var profileValue: ProfileValue? { self?.profileValue }
  /// The wrapped value `value` holds: a key given is never nil.
  package init(profileValue value: ProfileValue) { self = Wrapped(profileValue: value) }
}

extension Optional: ProfileNumber where Wrapped: ProfileNumber {}
extension Optional: ProfileText where Wrapped: ProfileText {}

/// One key of a JSON profile, declared once: its name, its kind (and so its unit and the checks
/// reading it makes), whether it is required, its line in docs/profiles.md (meaning, default,
/// example), and where its value lives in the `Root` value, through `read` and `apply`. The JSON
/// reader, the writer and the docs' check all follow a table of them (`DeviceProfile.jsonKeys`).
package struct ProfileKey<Root>: Sendable {
  /// The key in JSON.
  package let name: String
  /// What kind of value it takes.
  package let kind: ProfileKeyKind
  /// Whether a profile must give it.
  package let required: Bool
  /// What it means, for the docs' table.
  package let meaning: String
  /// What a profile leaving it out gets, for the docs' table ("" for required keys).
  package let defaultText: String
  /// The keys of an object key; none for other kinds.
  package let keys: [ProfileKey<Root>]
  /// A value other than the default, as JSON text (an object's is made of its keys' examples): the
  /// docs show it, and the tests build a profile with every field set from these.
  package let example: String
  /// The value in `root`; nil when it is not there (an optional value left out).
  package let read: @Sendable (Root) -> ProfileValue?
  /// Sets the value in `root`.
  package let apply: @Sendable (inout Root, ProfileValue) -> Void

  /// A key of `kind` reached through `read` and `apply`.
  package init(
    _ name: String, _ kind: ProfileKeyKind, required: Bool = false, meaning: String = "",
    default defaultText: String = "", example: String, keys: [ProfileKey<Root>] = [],
    read: @escaping @Sendable (Root) -> ProfileValue?,
    apply: @escaping @Sendable (inout Root, ProfileValue) -> Void
  ) {
    self.name = name
    self.kind = kind
    self.required = required
    self.meaning = meaning
    self.defaultText = defaultText
    self.keys = keys
    self.example =
      keys.isEmpty
      ? example : "{" + keys.map { "\"\($0.name)\": \($0.example)" }.joined(separator: ", ") + "}"
    self.read = read
    self.apply = apply
  }
}

extension ProfileKey {
  /// A writable key path that can be kept in a table shared between threads.
  package typealias Path<Value> = WritableKeyPath<Root, Value> & Sendable

  /// A key whose value of `kind` is the integer at `path` (`.size`, `.duration`, `.permille`); an
  /// optional one is nil when left out.
  package static func number<Value: ProfileNumber>(
    _ name: String, _ kind: ProfileKeyKind, _ path: Path<Value>, required: Bool = false,
    meaning: String = "", default defaultText: String = "", example: String
  ) -> Self {
    Self(name, kind, path, required, meaning, defaultText, example)
  }

  /// A key whose `.name` or `.text` value is the string at `path`; an optional one is nil when
  /// left out.
  package static func text<Value: ProfileText>(
    _ name: String, _ kind: ProfileKeyKind, _ path: Path<Value>, required: Bool = false,
    meaning: String = "", default defaultText: String = "", example: String
  ) -> Self {
    Self(name, kind, path, required, meaning, defaultText, example)
  }

  /// A key whose `.flag` value is the flag at `path`.
  package static func flag(
    _ name: String, _ path: Path<Bool>, meaning: String = "", default defaultText: String = "",
    example: String
  ) -> Self {
    Self(name, .flag, path, false, meaning, defaultText, example)
  }

  /// A key whose value is the one at `path`, made a `ProfileValue` and back by its type
  /// (`ProfileScalar`): what the number, text and flag keys share.
  private init<Value: ProfileScalar>(
    _ name: String, _ kind: ProfileKeyKind, _ path: Path<Value>, _ required: Bool,
    _ meaning: String, _ defaultText: String, _ example: String
  ) {
    self.init(
      name, kind, required: required, meaning: meaning, default: defaultText, example: example,
      read: { $0[keyPath: path].profileValue },
      apply: { $0[keyPath: path] = Value(profileValue: $1) })
  }

  /// An object key whose `keys` are those of the value at `path`.
  package static func object<Value>(
    _ name: String, _ path: Path<Value>, keys: [ProfileKey<Value>], meaning: String,
    default defaultText: String
  ) -> Self {
    Self(
      name, .object, meaning: meaning, default: defaultText, example: "",
      keys: keys.map { $0.lifted(path) }, read: { _ in .present }, apply: { _, _ in })
  }

  /// An optional object key whose `keys` are those of the value at `path`: nil when left out,
  /// `empty` filled in by its keys when given.
  package static func object<Value>(
    _ name: String, _ path: Path<Value?>, empty: Value, keys: [ProfileKey<Value>],
    meaning: String, default defaultText: String
  ) -> Self where Value: Sendable {
    Self(
      name, .object, meaning: meaning, default: defaultText, example: "",
      keys: keys.map { $0.lifted(path) }, read: { $0[keyPath: path].map { _ in .present } },
      apply: { root, _ in
        if root[keyPath: path] == nil { root[keyPath: path] = empty }
      })
  }

  /// This key of the value at `path` in `Outer`.
  func lifted<Outer>(_ path: ProfileKey<Outer>.Path<Root>) -> ProfileKey<Outer> {
    ProfileKey<Outer>(
      name, kind, required: required, meaning: meaning, default: defaultText, example: example,
      keys: keys.map { $0.lifted(path) }, read: { [read] in read($0[keyPath: path]) },
      apply: { [apply] outer, value in apply(&outer[keyPath: path], value) })
  }

  /// This key of the optional value at `path` in `Outer`: not there while the value is nil.
  func lifted<Outer>(_ path: ProfileKey<Outer>.Path<Root?>) -> ProfileKey<Outer> {
    ProfileKey<Outer>(
      name, kind, required: required, meaning: meaning, default: defaultText, example: example,
      keys: keys.map { $0.lifted(path) },
      read: { [read] in $0[keyPath: path].flatMap(read) },
      apply: { [apply] outer, value in
        guard var inner = outer[keyPath: path] else { return }
        apply(&inner, value)
        outer[keyPath: path] = inner
      })
  }
}
