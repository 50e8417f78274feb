import Foundation

/// A failure inside one profile, located by key path; the loader adds the file's path.
struct FieldError: Error, Equatable {
  enum Kind: Equatable {
    case unknownKey(suggestion: String?, valid: [String])
    case missing
    case invalid(value: String, expected: String)
    case entry(message: String)
    case version(found: Int)
  }
  var keyPath: String
  var kind: Kind

  func located(in path: String) -> JetsimError {
    switch kind {
    case .unknownKey(let suggestion, let valid):
      .unknownKey(path: path, keyPath: keyPath, suggestion: suggestion, valid: valid)
    case .missing:
      .missingKey(path: path, keyPath: keyPath)
    case .invalid(let value, let expected):
      .invalidValue(path: path, keyPath: keyPath, value: value, expected: expected)
    case .entry(let message):
      .invalidEntry(path: path, keyPath: keyPath, message: message)
    case .version(let found):
      .unsupportedVersion(path: path, found: found, supported: Defaults.profileVersion)
    }
  }
}

/// A coding key for any JSON object key or array index.
struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}

/// `apps[2].caches`: a coding path as people write it.
func keyPathString(_ path: [any CodingKey]) -> String {
  var text = ""
  for key in path {
    if let index = key.intValue {
      text += "[\(index)]"
    } else {
      text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
    }
  }
  return text.isEmpty ? "(top level)" : text
}

/// Reads one JSON object of a profile: rejects unknown keys (suggesting the nearest known one) and
/// turns sizes, durations and the other value forms into integers, with errors that name the key.
struct ProfileFields {
  private let container: KeyedDecodingContainer<AnyKey>
  private let path: [any CodingKey]

  /// Opens the object at `decoder`, accepting only `allowed` keys.
  init(_ decoder: any Decoder, allowed: [String]) throws {
    path = decoder.codingPath
    do {
      container = try decoder.container(keyedBy: AnyKey.self)
    } catch {
      throw FieldError(
        keyPath: keyPathString(path),
        kind: .invalid(value: "not an object", expected: "a JSON object { ... }"))
    }
    for key in container.allKeys where !allowed.contains(key.stringValue) {
      throw FieldError(
        keyPath: keyPathString(path + [key]),
        kind: .unknownKey(
          suggestion: Suggestion.closest(to: key.stringValue, in: allowed),
          valid: allowed.filter { $0 != "version" }))
    }
  }

  func keyPath(_ key: String) -> String { keyPathString(path + [AnyKey(stringValue: key)]) }

  func invalid(_ key: String, _ value: String, _ expected: String) -> FieldError {
    FieldError(keyPath: keyPath(key), kind: .invalid(value: value, expected: expected))
  }

  func has(_ key: String) -> Bool { container.contains(AnyKey(stringValue: key)) }

  func decode<T: Decodable>(_ type: T.Type, _ key: String, expected: String) throws -> T? {
    let codingKey = AnyKey(stringValue: key)
    guard container.contains(codingKey) else { return nil }
    do {
      return try container.decodeIfPresent(type, forKey: codingKey)
    } catch let error as FieldError {
      throw error
    } catch let error as JetsimError {
      throw error
    } catch {
      throw invalid(key, describe(codingKey), expected)
    }
  }

  /// A short description of the raw value at `key`, for error messages.
  private func describe(_ key: AnyKey) -> String {
    if let text = try? container.decode(String.self, forKey: key) { return "\"\(text)\"" }
    if let number = try? container.decode(Double.self, forKey: key) { return "\(number)" }
    if let flag = try? container.decode(Bool.self, forKey: key) { return "\(flag)" }
    return "of the wrong type"
  }

  func required<T>(_ value: T?, _ key: String) throws -> T {
    guard let value else { throw FieldError(keyPath: keyPath(key), kind: .missing) }
    return value
  }

  func string(_ key: String) throws -> String? {
    try decode(String.self, key, expected: "a string")
  }

  func bool(_ key: String) throws -> Bool? {
    try decode(Bool.self, key, expected: "true or false")
  }

  func size(_ key: String) throws -> Int? {
    guard let text = try decode(String.self, key, expected: Units.sizeForm) else { return nil }
    guard let value = Units.kilobytes(text) else {
      throw invalid(key, "\"\(text)\"", Units.sizeForm)
    }
    return value
  }

  func duration(_ key: String) throws -> Int? {
    guard let text = try decode(String.self, key, expected: Units.durationForm) else { return nil }
    guard let value = Units.milliseconds(text) else {
      throw invalid(key, "\"\(text)\"", Units.durationForm)
    }
    return value
  }

  /// A percentage written `"50%"`, from 0 to 100.
  func percent(_ key: String) throws -> Int? {
    let form = "a percentage from \"0%\" to \"100%\""
    guard let text = try decode(String.self, key, expected: form) else { return nil }
    guard text.hasSuffix("%"), let value = Int(text.dropLast()), (0...100).contains(value) else {
      throw invalid(key, "\"\(text)\"", form)
    }
    return value
  }

  /// A number within `range`.
  func number(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
    let form = "a number from \(range.lowerBound) to \(range.upperBound)"
    guard let value = try decode(Double.self, key, expected: form) else { return nil }
    guard range.contains(value) else { throw invalid(key, "\(value)", form) }
    return value
  }

  /// A whole number within `range`.
  func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
    let form = "a whole number from \(range.lowerBound) to \(range.upperBound)"
    guard let value = try decode(Int.self, key, expected: form) else { return nil }
    guard range.contains(value) else { throw invalid(key, "\(value)", form) }
    return value
  }

  /// Checks the `version` key: required, and equal to the version this build reads.
  func checkVersion() throws {
    let version = try required(integer("version", in: 0...Int(Int32.max)), "version")
    guard version == Defaults.profileVersion else {
      throw FieldError(keyPath: keyPath("version"), kind: .version(found: version))
    }
  }
}
