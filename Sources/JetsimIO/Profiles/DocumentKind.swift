/// The kinds of JSON document jetsim reads, each with the top-level keys that tell it from the
/// others. One table serves the loaders, which name a file given where another kind belongs for
/// what it is (`ProfileFields`), and `jetsim validate`, which tells a file's kind before reading it.
package enum DocumentKind: CaseIterable, Sendable {
  case jetsamReport
  case metricKitPayload
  case sweep
  case scenario
  case device
  case app

  /// What a document of this kind is called in an error: "a scenario".
  package var name: String {
    switch self {
    case .jetsamReport: "a JetsamEvent report"
    case .metricKitPayload: "MetricKit payloads"
    case .sweep: "a sweep file"
    case .scenario: "a scenario"
    case .device: "a device profile"
    case .app: "an app profile"
    }
  }

  /// The keys that together mark a document of this kind read where another kind belongs: keys
  /// only this kind has, all of them present. Empty for the kinds the loaders never expect.
  package var marks: [String] {
    switch self {
    case .jetsamReport, .metricKitPayload: []
    case .sweep: ["scenario", "axes"]
    case .scenario: ["device", "apps"]
    case .device: ["memory"]
    case .app: ["id", "resident"]
    }
  }

  /// Any one of these keys makes a document this kind, unless an earlier kind in `allCases` has
  /// one of its own: how a file is told from its top-level keys alone (`recognised(keys:)`).
  package var hints: [String] {
    switch self {
    case .jetsamReport: ["memoryStatus", "processes", "largestProcess"]
    case .metricKitPayload:
      [
        "timeStampBegin", "timeStampEnd", "applicationExitMetrics", "metaData", "memoryMetrics",
        "appVersion",
      ]
    case .sweep: ["axes"]
    case .scenario: ["script", "apps", "trace", "userModel"]
    case .device: ["memory", "reserved"]
    case .app: ["resident", "id"]
    }
  }

  /// The kind a document with these top-level keys is, by `hints`; nil if no key tells.
  package static func recognised(keys: Set<String>) -> DocumentKind? {
    allCases.first { $0.hints.contains(where: keys.contains) }
  }

  /// The error for a document with `keys` read where a document with `allowed` keys belongs, when
  /// it lacks the marks of the kind expected there and has those of another kind; nil otherwise (a
  /// document of the right kind with a wrong key, or one of no kind known).
  static func misplaced(keys: [String], allowed: [String]) -> FieldError? {
    let marked = allCases.filter { !$0.marks.isEmpty }
    guard
      let expected = marked.first(where: { $0.marks.allSatisfy(allowed.contains) }),
      !expected.marks.allSatisfy(keys.contains),
      let found = marked.first(where: { $0 != expected && $0.marks.allSatisfy(keys.contains) })
    else { return nil }
    let marks = found.marks.map { "'\($0)'" }.joined(separator: " and ")
    return FieldError(
      keyPath: "(top level)",
      kind: .invalid(value: "\(found.name) (it has \(marks))", expected: expected.name))
  }
}
