/// `jetsam`: Apple XNU's memorystatus (bsd/kern/kern_memorystatus*.c), as docs/policies.md describes:
/// priority bands killed lowest first, least recently used first inside a band (the foreground band by
/// footprint, largest first), purgeable memory purged before a kill, and three trigger tiers:
///
/// 1. free below the pressure (warning) threshold: kill apps off screen over their soft limit
///    (`highwater`);
/// 2. free below the idle threshold: kill apps in the idle band (`idle-exit`);
/// 3. free below critical: climb the bands until free is back at critical (`vm-pageshortage`).
///
/// - Complexity: O(*r*) per decision for *r* apps in memory.
public struct JetsamPolicy: EvictionPolicy {
  /// Priority bands (XNU's JETSAM_PRIORITY_*): the lower, the sooner killed.
  public struct Bands: Sendable, Equatable {
    /// Suspended apps, and background apps with nothing to do.
    public var idle = 0
    /// An app that left the screen less than `agingTime` ago.
    public var aging = 20
    /// An app doing background work (background time, a task, a wake).
    public var background = 30
    /// An app using location or VoIP in the background.
    public var elevatedInactive = 40
    /// The app on screen.
    public var foreground = 100
    /// An app playing audio.
    public var audioAndAccessory = 120

    public init() {}
  }

  /// The policy's settings; the defaults are XNU's.
  public struct Parameters: Sendable, Equatable {
    /// How long an app that left the screen stays in the aging band.
    public var agingTimeMs = 2_000
    /// The idle threshold as a share of memory in percent; nil for XNU's tiers (10 % up to 3 GB,
    /// 9 % up to 6 GB, 8 % above).
    public var idleThresholdPercent: Int?
    /// An off-screen app's soft limit, as a share of its per-app limit in percent.
    public var softLimitPercent = 50
    /// Whether to purge a victim's purgeable memory before killing it.
    public var purgeBeforeKill = true
    /// The bands.
    public var bands = Bands()

    public init() {}
  }

  public let name = "jetsam"
  /// The settings in use.
  public let parameters: Parameters
  private var resident = AppSet(capacity: 0)

  public init(parameters: Parameters = Parameters()) { self.parameters = parameters }

  /// XNU's idle threshold tiers, as a share of memory in percent.
  public static func defaultIdleThresholdPercent(memoryKB: Int) -> Int {
    let gigabyte = 1_048_576
    if memoryKB <= 3 * gigabyte { return 10 }
    if memoryKB <= 6 * gigabyte { return 9 }
    return 8
  }

  /// Free memory below which idle apps are killed.
  public func idleThresholdKB(_ device: DeviceProfile) -> Int {
    device.memoryKB
      * (parameters.idleThresholdPercent
        ?? Self.defaultIdleThresholdPercent(memoryKB: device.memoryKB)) / 100
  }

  /// The band of an app in memory at `nowMs`: the highest that applies.
  public func band(of status: AppStatus, nowMs: Int) -> Int {
    let bands = parameters.bands
    var band = bands.idle
    if let left = status.leftForegroundMs, nowMs - left < parameters.agingTimeMs {
      band = max(band, bands.aging)
    }
    if status.state == .background && status.hasBackgroundWork {
      band = max(band, bands.background)
    }
    if status.isUsing(.location) || status.isUsing(.voip) {
      band = max(band, bands.elevatedInactive)
    }
    if status.state.isForeground { band = max(band, bands.foreground) }
    if status.isUsing(.audio) { band = max(band, bands.audioAndAccessory) }
    return band
  }

  public mutating func start(_ device: DeviceView) {
    resident = AppSet(capacity: device.apps.count)
  }

  public mutating func appDidChange(_ app: Int, _ status: AppStatus, nowMs: Int) {
    resident.update(app, isMember: status.state.isResident)
  }

  /// It acts below the highest of its three tiers.
  public func actsBelowFreeKB(_ device: DeviceProfile) -> Int {
    max(device.warningThresholdKB, idleThresholdKB(device), device.criticalThresholdKB)
  }

  public mutating func nextEviction(_ device: DeviceView) -> Eviction? {
    let now = device.nowMs
    let reason: KillReason
    let eligible: (Int, Int) -> Bool  // (app, band)
    if device.freeKB < device.device.criticalThresholdKB {
      reason = .vmPageshortage
      eligible = { _, _ in true }
    } else if device.freeKB < idleThresholdKB(device.device) {
      reason = .idleExit
      let idle = parameters.bands.idle
      eligible = { _, band in band == idle }
    } else if device.freeKB < device.device.warningThresholdKB {
      reason = .highwater
      let foreground = parameters.bands.foreground
      let softLimit = parameters.softLimitPercent
      eligible = { app, band in
        band < foreground
          && device.apps[app].footprintKB > device.limitKB(of: app) * softLimit / 100
      }
    } else {
      return nil
    }
    var best: (app: Int, band: Int)?
    for app in resident.members {
      let band = band(of: device.apps[app], nowMs: now)
      guard eligible(app, band) else { continue }
      if let current = best, !precedes(app, band, current.app, current.band, device) { continue }
      best = (app, band)
    }
    guard let victim = best?.app else { return nil }
    if parameters.purgeBeforeKill, device.apps[victim].purgeableKB > 0 { return .purge(victim) }
    return Eviction(app: victim, reason: reason)
  }

  /// Lower band first; inside the foreground band the largest footprint, inside the others the least
  /// recently used; then app id.
  private func precedes(_ a: Int, _ bandA: Int, _ b: Int, _ bandB: Int, _ device: DeviceView)
    -> Bool
  {
    if bandA != bandB { return bandA < bandB }
    let (x, y) = (device.apps[a], device.apps[b])
    if bandA == parameters.bands.foreground, x.footprintKB != y.footprintKB {
      return x.footprintKB > y.footprintKB
    }
    if x.lastUsedMs != y.lastUsedMs { return x.lastUsedMs < y.lastUsedMs }
    return x.idRank < y.idRank
  }
}

extension JetsamPolicy {
  /// The settings it takes under `policyParameters.jetsam`.
  public static let settings: [PolicySetting<Parameters>] = [
    PolicySetting("agingTime", .duration, "how long an app that left the screen stays in the AGING band") {
      $0.agingTimeMs = $1.number
    },
    PolicySetting("idleThreshold", .percent, "free memory below this share of memory kills idle apps") {
      $0.idleThresholdPercent = $1.number
    },
    PolicySetting("softLimit", .percent, "an off-screen app's soft limit, as a share of its per-app limit") {
      $0.softLimitPercent = $1.number
    },
    PolicySetting("purgeBeforeKill", .flag, "purge a victim's caches before killing it") {
      $0.purgeBeforeKill = $1.flag
    },
  ] + [
    ("idle", \Bands.idle), ("aging", \Bands.aging), ("background", \Bands.background),
    ("elevatedInactive", \Bands.elevatedInactive), ("foreground", \Bands.foreground),
    ("audioAndAccessory", \Bands.audioAndAccessory),
  ].map { key, band in
    PolicySetting("bands.\(key)", .integer(0...1000), "the priority of the \(key) band") {
      $0.bands[keyPath: band] = $1.number
    }
  }

  /// Its entry in `PolicyRegistry`.
  public static let registration = PolicyRegistration(
    name: "jetsam",
    summary:
      "Apple XNU memorystatus: priority bands with aging, purge before kill, highwater/idle/critical tiers",
    defaults: Parameters(), settings: settings, make: { JetsamPolicy(parameters: $0) })
}
