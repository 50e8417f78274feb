/// Android's `oom_score_adj` for the apps in memory, as `lmkd` and `oom-badness` use it
/// (docs/policies.md): foreground 0; perceptible (audio, location or VoIP in use) 200; service
/// (background work under way) 500; the previous app (the last to leave the screen) 700; cached apps
/// 900 to 999 by recency, the most recent 900.
package enum AndroidImportance {
  package static let foreground = 0
  package static let perceptible = 200
  package static let service = 500
  package static let previous = 700
  package static let cachedMin = 900
  package static let cachedMax = 999

  /// The adj of every app in memory, by index (nil for apps not running).
  ///
  /// - Complexity: O(*n* log *n*) for *n* apps (cached apps are ranked by recency).
  package static func adjustments(_ device: DeviceView) -> [Int?] {
    var adj = [Int?](repeating: nil, count: device.apps.count)
    var previousApp: Int?
    for (app, status) in device.apps.enumerated()
    where status.state.isResident && !status.state.isForeground {
      if let left = status.leftForegroundMs,
        previousApp.map({ left > (device.apps[$0].leftForegroundMs ?? Int.min) }) ?? true
      {
        previousApp = app
      }
    }
    var cached: [Int] = []
    for (app, status) in device.apps.enumerated() where status.state.isResident {
      if status.state.isForeground {
        adj[app] = foreground
      } else if status.keepsRunning {
        adj[app] = perceptible
      } else if status.hasBackgroundWork {
        adj[app] = service
      } else if app == previousApp {
        adj[app] = previous
      } else {
        cached.append(app)
      }
    }
    cached.sort {
      let (a, b) = (device.apps[$0], device.apps[$1])
      return a.lastUsedMs != b.lastUsedMs ? a.lastUsedMs > b.lastUsedMs : a.idRank < b.idRank
    }
    for (rank, app) in cached.enumerated() { adj[app] = min(cachedMax, cachedMin + rank) }
    return adj
  }
}
