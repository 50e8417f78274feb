import JetsimCore
import JetsimIO

extension WhatIf {
  /// A size to try for the app: a size, or a change of the app's size today (`+30%`, `-100MB`).
  public enum Size: Sendable, Equatable, CustomStringConvertible {
    /// This size, in KB.
    case absolute(kilobytes: Int)
    /// Today's size changed by this many percent (`+30%` is 30, `-25%` is −25).
    case percent(Double)
    /// Today's size plus this many KB (negative for less).
    case delta(kilobytes: Int)

    /// Parses `300MB`, `+30%`, `-25%`, `+50MB` or `-100MB`; nil if it is none of them.
    public static func parse(_ text: String) -> Size? {
      let trimmed = text.filter { $0 != " " }
      guard let sign = trimmed.first, sign == "+" || sign == "-" else {
        return Units.kilobytes(trimmed).flatMap { $0 > 0 ? .absolute(kilobytes: $0) : nil }
      }
      let rest = trimmed.dropFirst()
      let factor: Double = sign == "-" ? -1 : 1
      if rest.hasSuffix("%") {
        guard let percent = Double(rest.dropLast()), percent.isFinite, percent > 0 else {
          return nil
        }
        return .percent(factor * percent)
      }
      guard let size = Units.kilobytes(String(rest)), size > 0 else { return nil }
      return .delta(kilobytes: sign == "-" ? -size : size)
    }

    /// The size in KB for an app of `todayKB` today; nil when that leaves nothing.
    public func kilobytes(today todayKB: Int) -> Int? {
      let size: Int
      switch self {
      case .absolute(let kilobytes): size = kilobytes
      case .percent(let percent):
        size = Int((Double(todayKB) * (1 + percent / 100)).rounded())
      case .delta(let kilobytes): size = todayKB + kilobytes
      }
      return size > 0 ? size : nil
    }

    /// As written: `300MB`, `+30%`, `-100MB`.
    public var description: String {
      switch self {
      case .absolute(let kilobytes): Units.formatSize(kilobytes)
      case .percent(let percent):
        (percent >= 0 ? "+" : "")
          + Units.decimal(percent, digits: percent.rounded() == percent ? 0 : 1)
          + "%"
      case .delta(let kilobytes):
        (kilobytes >= 0 ? "+" : "-") + Units.formatSize(abs(kilobytes))
      }
    }
  }

  /// The app's size today: its footprint in the scenario's snapshot (without the screen memory
  /// of an app on screen) if the snapshot lists it, else its profile's resident memory.
  public static func todayKB(of index: Int, in scenario: Scenario) -> Int {
    let profile = scenario.apps[index]
    guard let entry = scenario.snapshot?.entries.first(where: { $0.process == profile.id }),
      let footprint = entry.footprintKB
    else { return profile.residentKB }
    let screen = entry.state.isForeground ? profile.cachesKB + profile.backingStoresKB : 0
    return max(1, footprint - screen)
  }

  /// `scenario` with app `index` at `residentKB`: its profile's resident memory, and its
  /// footprint in the snapshot if the snapshot lists it (plus the screen memory when on screen).
  public static func resized(_ scenario: Scenario, app index: Int, residentKB: Int) -> Scenario {
    var resized = scenario
    resized.apps[index].residentKB = residentKB
    let id = scenario.apps[index].id
    if var snapshot = scenario.snapshot,
      let entry = snapshot.entries.firstIndex(where: { $0.process == id })
    {
      // Without a footprint of its own, the snapshot places the process at its profile's size.
      snapshot.entries[entry].footprintKB = nil
      resized.snapshot = snapshot
    }
    return resized
  }

  /// Whether `scenario` has a workload to read as days: a script, a trace or a user model (a
  /// device snapshot alone runs minutes of timers, which read as a day would mislead).
  public static func hasWorkload(_ scenario: Scenario) -> Bool {
    !scenario.actions.isEmpty || scenario.trace != nil || scenario.userModel != nil
  }
}
