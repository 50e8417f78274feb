/// A setting of a policy that cannot apply: its key under the policy (`watermarks`, `bands`), its
/// value as a profile writes it, and what would be accepted.
public struct PolicySettingProblem: Sendable, Equatable {
  /// The key under `policyParameters.<policy>`.
  public var key: String
  /// The value, as a profile writes it.
  public var value: String
  /// What would be accepted.
  public var expected: String

  /// The problem with the setting `key`, whose `value` is not what is `expected`.
  public init(key: String, value: String, expected: String) {
    self.key = key
    self.value = value
    self.expected = expected
  }
}

/// A policy as the registry knows it: its name, what it does, the settings it takes, and how to make
/// one with given settings. Each policy declares its own (`LargestFirstPolicy.registration`, ...).
public struct PolicyRegistration: Sendable {
  /// The name in scenarios, reports and on the command line.
  public let name: String
  /// One line on what it does.
  public let summary: String
  /// The settings it takes under `policyParameters` (empty if none).
  public let settings: [PolicySettingDescription]
  private let build: @Sendable ([String: PolicySettingValue]) -> any EvictionPolicy
  private let inspect:
    @Sendable ([String: PolicySettingValue], DeviceProfile?) -> PolicySettingProblem?

  /// A policy with no settings, made by `make`.
  public init(name: String, summary: String, make: @escaping @Sendable () -> any EvictionPolicy) {
    self.name = name
    self.summary = summary
    self.settings = []
    self.build = { _ in make() }
    self.inspect = { _, _ in nil }
  }

  /// A policy whose `Parameters` start at `defaults` and are changed by the `settings` a profile
  /// gives, made by `make`. `check` says why parameters cannot apply, on a device when one is
  /// given (settings that must agree with each other, or fit the device's memory).
  public init<Parameters: Sendable>(
    name: String, summary: String, defaults: Parameters, settings: [PolicySetting<Parameters>],
    check: (@Sendable (Parameters, DeviceProfile?) -> PolicySettingProblem?)? = nil,
    make: @escaping @Sendable (Parameters) -> any EvictionPolicy
  ) {
    self.name = name
    self.summary = summary
    self.settings = settings.map { $0.erased(defaults: defaults) }
    let parameters = { @Sendable (values: [String: PolicySettingValue]) -> Parameters in
      var parameters = defaults
      // Keys in a fixed order, so a policy's parameters never depend on a dictionary's order.
      for key in values.keys.sorted() {
        guard let value = values[key], let setting = settings.first(where: { $0.key == key }) else {
          continue
        }
        setting.apply(&parameters, value)
      }
      return parameters
    }
    self.build = { make(parameters($0)) }
    self.inspect = { values, device in check?(parameters(values), device) }
  }

  /// A fresh policy with `values` applied to its defaults. Keys it does not declare are ignored
  /// (profiles are checked against `settings` when they are read).
  public func make(_ values: [String: PolicySettingValue] = [:]) -> any EvictionPolicy {
    build(values)
  }

  /// Why `values`, applied to the defaults, cannot apply: on their own (without `device`), or on
  /// `device`; nil when they can.
  public func problem(_ values: [String: PolicySettingValue], on device: DeviceProfile? = nil)
    -> PolicySettingProblem?
  {
    inspect(values, device)
  }
}

/// The built-in policies by name, for scenarios and the command line.
public enum PolicyRegistry {
  /// Every built-in policy, the default first.
  public static let all: [PolicyRegistration] = [
    LargestFirstPolicy.registration, LRUPolicy.registration, JetsamPolicy.registration,
    LmkdPolicy.registration, OOMBadnessPolicy.registration, RandomPolicy.registration,
  ]

  /// The names of the built-in policies.
  public static var names: [String] { all.map(\.name) }

  /// The policy named `name`, if there is one.
  public static func registration(_ name: String) -> PolicyRegistration? {
    all.first { $0.name == name }
  }

  /// Checks that `name` is a built-in policy; the error suggests the nearest one.
  public static func check(_ name: String) throws(JetsimError) {
    guard registration(name) != nil else { throw .unknownPolicy(name: name, valid: names) }
  }

  /// A fresh policy named `name`, with `settings` where it takes any.
  public static func make(_ name: PolicyName, settings: PolicySettings = PolicySettings())
    throws(JetsimError) -> any EvictionPolicy
  {
    guard let registration = registration(name.rawValue) else {
      throw .unknownPolicy(name: name.rawValue, valid: names)
    }
    return registration.make(settings[name.rawValue])
  }
}

extension PolicySettings {
  /// The first policy (in the registry's order) whose settings cannot apply on `device`, with
  /// why; nil when every one can. A policy's settings are checked whether or not it runs: the
  /// command line may choose it.
  public func problem(on device: DeviceProfile) -> (policy: String, problem: PolicySettingProblem)?
  {
    for registration in PolicyRegistry.all {
      guard let given = values[registration.name], !given.isEmpty,
        let problem = registration.problem(given, on: device)
      else { continue }
      return (registration.name, problem)
    }
    return nil
  }
}
