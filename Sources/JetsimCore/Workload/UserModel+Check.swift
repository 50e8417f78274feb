extension UserModel {
  /// Checks the model against the apps of its scenario (`path` names the file in errors): every app
  /// it opens, wakes or plays audio in is one of them, and an app that plays audio declares the audio
  /// background mode. A scenario file's model is checked as it is read; a model moved to
  /// other apps (a sweep's catalogue) is checked again here.
  ///
  /// - Complexity: O(*n* + *m*) for *n* entries and *m* apps.
  public func check(apps profiles: [AppProfile], path: String) throws(JetsimError) {
    // By id, so that checking n entries against m apps is O(n + m).
    var profileByID: [String: AppProfile] = [:]
    for profile in profiles where profileByID[profile.id] == nil {
      profileByID[profile.id] = profile
    }
    func check(_ id: String, _ location: String) throws(JetsimError) {
      guard profileByID[id] != nil else {
        throw .unknownApp(
          path: path, location: location, id: id,
          suggestion: Suggestion.closest(to: id, in: profiles.map(\.id)))
      }
    }
    for (index, id) in apps.enumerated() { try check(id, "userModel.apps[\(index)]") }
    for (index, wake) in wakes.enumerated() { try check(wake.app, "userModel.wakes[\(index)]") }
    for (index, playing) in audio.enumerated() {
      try check(playing.app, "userModel.audio[\(index)]")
      if profileByID[playing.app]?.declares(.audio) != true {
        throw .invalidValue(
          path: path, keyPath: "userModel.audio[\(index)].app", value: "'\(playing.app)'",
          expected: "an app that declares the audio background mode")
      }
    }
  }
}
