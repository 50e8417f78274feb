/// The validation case: a scenario whose user model lists many wakes and runs 2,400 hours, the
/// input that once made `jetsim validate` draw the whole model (docs/performance.md).
enum ValidationBenchmark {
  /// A scenario with an inline device and four apps, and a user model with `wakes` entries.
  static func scenario(wakes: Int) -> String {
    let apps = ["mail", "maps", "music", "notes"]
    let profiles = apps.map { "{\"id\": \"com.example.\($0)\", \"resident\": \"120MB\"}" }
    let entries = (0..<wakes).map { index in
      "{\"app\": \"com.example.\(apps[index % apps.count])\", \"perHour\": 60, \"duration\": \"10s\"}"
    }
    return """
      {"version": 1, "name": "wakes-\(wakes)", "seed": 1, "duration": "2400h",
       "device": {"name": "bench", "memory": "4GB", "reserved": "1GB"},
       "apps": [\(profiles.joined(separator: ", "))],
       "userModel": {"wakes": [
      \(entries.joined(separator: ",\n"))
      ]}}

      """
  }
}
