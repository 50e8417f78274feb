import JetsimCore

extension ProfileLoader {
  /// The user model in the JSON file at `path`: an object with the keys of a scenario's
  /// `userModel` (docs/user-model.md), its app ids checked against `apps`; without `apps`, the
  /// user opens every one of them, by popularity in their order.
  ///
  /// - Complexity: O(*n* + *m*) for a file of *n* bytes and *m* apps.
  public static func userModel(at path: String, apps: [AppProfile]) throws(JetsimError)
    -> UserModel
  {
    try userModelFile(at: path).model(apps: apps, path: path)
  }

  /// The user model file at `path`, read and decoded, its app ids not yet checked.
  private static func userModelFile(at path: String) throws(JetsimError) -> UserModelFile {
    let bytes = try InputFile.bytes(at: path)
    return try decode(bytes, path: path) { node throws(FieldError) in
      try UserModelFile(json: node, at: "")
    }
  }

  /// Checks the user model in the JSON file at `path` as `userModel(at:apps:)` reads it, but for
  /// its app ids: without the apps of a scenario that uses it, there is nothing to check them
  /// against.
  package static func checkUserModel(at path: String) throws(JetsimError) {
    let file = try userModelFile(at: path)
    if file.apps?.isEmpty == true {
      throw .invalidValue(
        path: path, keyPath: "apps", value: "empty", expected: "at least one app id")
    }
  }
}
