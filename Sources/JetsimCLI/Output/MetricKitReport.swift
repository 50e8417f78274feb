import Jetsim

/// What `jetsim import-metrickit` prints: the payloads' memory beside the profile's, and each exit
/// counter a day, real beside simulated.
extension MetricKitCheck {
  /// The report for people; `wrote` is the profile written with `--out` and its resident memory.
  func text(
    payloads: Int, note: String?, simulated: MetricKitPayload?,
    wrote: (path: String, residentKB: Int)?
  ) -> String {
    let days = Double(real.durationMs) / 86_400_000
    var lines = [
      "\(profile.id): \(payloads.counted("payload")) covering \(Units.decimal(days, digits: 1)) days"
        + (note.map { " (\($0))" } ?? "")
    ]
    func share(_ value: Double?) -> String {
      value.map { ($0 >= 0 ? "+" : "") + Units.decimal($0 * 100, digits: 0) + " %" } ?? "n/a"
    }
    let average = real.averageSuspendedKB
    lines.append(
      "  average suspended  payloads \(average.map(Units.megabytes) ?? "n/a") (\(real.suspendedSamples.counted("sample")));"
        + " profile resident \(Units.megabytes(profile.residentKB))"
        + " (\(share(Self.difference(modelled: profile.residentKB, measured: average))))"
        + (simulated?.averageSuspendedKB.map {
          "; simulated \(Units.megabytes($0)) (\(share(Self.difference(modelled: $0, measured: average)))): resident plus growth\(wrote == nil ? "" : ", of the profile written")"
        } ?? ""))
    lines.append(
      "  peak               payloads \(real.peakMemoryKB.map(Units.megabytes) ?? "n/a");"
        + " profile's largest on-screen footprint \(Units.megabytes(profilePeakKB))"
        + " (\(share(Self.difference(modelled: profilePeakKB, measured: real.peakMemoryKB))))")
    if let wrote {
      let source =
        wrote.residentKB == average
        ? "the payloads' average suspended memory"
        : "the payloads' average suspended memory less the growth simulated while suspended"
      lines.append(
        "  wrote \(wrote.path): resident \(Units.megabytes(wrote.residentKB)) (\(source)), everything else the profile's"
      )
    }
    lines.append(
      "  payloads cannot give: \(Self.fieldsPayloadsCannotGive.joined(separator: ", ")) (they stay the profile's)"
    )
    if let simulated {
      lines.append(
        "  exits a day                                      real  simulated (\(simulated.device ?? "its device"), \(Units.decimal(Double(simulated.durationMs) / 86_400_000, digits: 1)) simulated days)"
      )
      for exit in MetricKitExit.all
      where real.count(exit) > 0 || simulated.count(exit) > 0 {
        let mine = real.perDay(exit).map { Units.decimal($0, digits: 2) } ?? "n/a"
        let theirs = simulated.perDay(exit).map { Units.decimal($0, digits: 2) } ?? "n/a"
        lines.append(
          "    \(exit.column.padded(44)) \(mine.padded(6, left: true))  \(theirs.padded(9, left: true))"
        )
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The report as one JSON document; `wrote` as for `text`.
  func json(payloads: Int, simulated: MetricKitPayload?, wrote: (path: String, residentKB: Int)?)
    -> String
  {
    func rates(_ payload: MetricKitPayload?) -> JSONValue {
      guard let payload else { return .null }
      return .fields(MetricKitExit.all.map { ($0.column, .decimal(payload.perDay($0))) })
    }
    return JSONText.render(
      .fields([
        ("app", .string(profile.id)), ("payloads", .integer(payloads)),
        ("days", .decimal(Double(real.durationMs) / 86_400_000)),
        ("average_suspended_kb", real.averageSuspendedKB.map { .integer($0) } ?? .null),
        ("peak_memory_kb", real.peakMemoryKB.map { .integer($0) } ?? .null),
        ("profile_resident_kb", .integer(profile.residentKB)),
        ("profile_peak_kb", .integer(profilePeakKB)),
        ("fields_payloads_cannot_give", .list(Self.fieldsPayloadsCannotGive.map { .string($0) })),
        ("real_per_day", rates(real)), ("simulated_per_day", rates(simulated)),
        (
          "simulated_average_suspended_kb",
          simulated?.averageSuspendedKB.map { .integer($0) } ?? .null
        ),
        ("wrote", wrote.map { .string($0.path) } ?? .null),
        ("wrote_resident_kb", wrote.map { .integer($0.residentKB) } ?? .null),
      ]))
  }
}

extension String {
  /// The text padded with spaces to `width` characters, on the right (or the left).
  func padded(_ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - count))
    return left ? fill + self : self + fill
  }
}
