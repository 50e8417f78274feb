extension Scenario {
  /// Checks the snapshot, if any, against the scenario (`path` names the scenario file in errors):
  /// every process it lists exists and is listed once, at most one app is on screen, system
  /// processes are not, and the footprints fit in the device's memory beside the reserved memory
  /// and the system processes it does not list.
  public func checkSnapshot(path: String? = nil) throws(JetsimError) {
    guard let snapshot else { return }
    let path = path ?? origin
    let names = processNames
    var positions: [String: Int] = [:]
    for (position, name) in names.enumerated() where positions[name] == nil {
      positions[name] = position
    }
    var listed = Set<String>()
    var onScreen: String?
    var total = 0
    for (index, entry) in snapshot.entries.enumerated() {
      let keyPath = "snapshot[\(index)]"
      guard let position = positions[entry.process] else {
        throw .unknownApp(
          path: path, location: keyPath + ".process", id: entry.process,
          suggestion: Suggestion.closest(to: entry.process, in: names))
      }
      guard listed.insert(entry.process).inserted else {
        throw .invalidValue(
          path: path, keyPath: keyPath + ".process", value: "'\(entry.process.excerpt())' again",
          expected: "each process listed once")
      }
      let system = position >= apps.count
      if entry.state.isForeground {
        guard !system, onScreen == nil else {
          throw .invalidValue(
            path: path, keyPath: keyPath + ".state", value: "\(entry.state)",
            expected: system
              ? "background or suspended for a system process"
              : "one app on screen at most (\(onScreen ?? "") is already)")
        }
        onScreen = entry.process
      }
      let footprint: Int
      if let given = entry.footprintKB {
        footprint = given
      } else if system {
        footprint = device.systemProcesses[position - apps.count].footprintKB
      } else {
        let app = apps[position]
        footprint =
          app.residentKB + (entry.state.isForeground ? app.cachesKB + app.backingStoresKB : 0)
      }
      total += device.physicalKB(footprintKB: footprint, state: entry.state)
    }
    total += device.systemProcesses.filter { !listed.contains($0.name) }.reduce(0) {
      $0 + device.physicalKB(footprintKB: $1.footprintKB, state: $1.runningState)
    }
    guard total <= device.usableKB else {
      throw .invalidValue(
        path: path, keyPath: "snapshot",
        value:
          "\(Units.megabytes(total)) of processes (with the system processes it does not list)",
        expected:
          "at most the device's memory less its reserved memory (\(Units.megabytes(device.usableKB)))"
      )
    }
  }
}
