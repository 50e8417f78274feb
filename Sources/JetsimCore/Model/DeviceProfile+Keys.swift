/// A key of a device profile in JSON.
package typealias DeviceKey = ProfileKey<DeviceProfile>

extension DeviceProfile {
  /// Every key of a device profile, in the order a profile is read and written and docs/profiles.md
  /// lists them: the one place a device key is declared. The JSON reader accepts exactly these
  /// keys, the writer writes those that differ from `DeviceProfile.blank`, and the tests build a
  /// profile from the examples and check that the docs' table is this one.
  ///
  /// Adding a device key touches three files:
  /// 1. DeviceProfile.swift: the stored property, with its default (`public var fooMs = 0`), and
  ///    its `///` line;
  /// 2. here: its entry, of its kind, through its key path, with a doc line, its default and an
  ///    example other than the default (`DeviceKeysTests` sets every field from the examples);
  /// 3. docs/profiles.md: its row in the device table (the test prints the row it expects).
  /// The reader, the writer, `validate`, `withMemory` and `==` need nothing more. A key that a
  /// user may leave out and that follows the memory goes in `Given` and `Derived` instead; a new
  /// kind of value needs its case in `ProfileKeyKind`, in `ProfileFields.read` and in
  /// `ProfileWriter.text(of:in:indent:)`.
  package static let jsonKeys: [DeviceKey] =
    [
      DeviceKey(
        "version", .version, meaning: "format version, `1`", example: "1", read: { _ in nil },
        apply: { _, _ in }),
      .text(
        "name", .name, \.name, required: true, meaning: "the device's name in reports",
        example: #""Test rig""#),
      .number(
        "memory", .size, \.memoryKB, required: true,
        meaning: "physical memory as the OS reports it",
        example: #""3GB""#),
      .number(
        "reserved", .size, \.reservedKB, required: true,
        meaning:
          "memory the kernel and wired memory hold (and daemons not listed in `systemProcesses`); processes get `memory − reserved`",
        example: #""700MB""#),
    ] + levelKeys + [
      .object(
        "reaper", \.reaper,
        keys: [
          .flag("enabled", \.enabled, example: "false"),
          .number("minAge", .duration, \.minAgeMs, example: #""60s""#),
          .number("period", .duration, \.periodMs, example: #""90s""#),
        ],
        meaning:
          "jetsam's long-idle reaper: whether it sweeps, how long a process must have lived, the least time between sweeps",
        default: "on, 300 s, 300 s"),
      .object(
        "appSwap", \.appSwap, empty: DeviceProfile.AppSwap(budgetKB: 0),
        keys: [
          .number("budget", .size, \.budgetKB, required: true, example: #""8GB""#),
          .flag("killsOnLowSwap", \.killsOnLowSwap, example: "false"),
        ],
        meaning:
          "app swap (M-series iPads): suspended apps' memory goes to swap within the budget; jetsam kills swapped apps when swap runs short unless `killsOnLowSwap` is false",
        default: "none"),
      .object(
        "zram", \.zram, empty: DeviceProfile.Zram(sizeKB: 0),
        keys: [
          .number("size", .size, \.sizeKB, required: true, example: #""3GB""#),
          .number("compressionRatio", .permille(1...16), \.compressionPermille, example: "3"),
        ],
        meaning:
          "zram (Android's swap): suspended apps' memory goes to it within `size`, compressed by `compressionRatio` and kept in RAM (default ratio 2, Linux's zram documentation)",
        default: "none"),
      .object(
        "fileCache", \.fileCache,
        keys: [
          .number("freeTarget", .size, \.freeTargetKB, example: #""8MB""#),
          .number("workingSet", .size, \.workingSetKB, example: #""400MB""#),
          .number("refaultCost", .duration, \.refaultCostMs, example: #""10ms""#),
        ],
        meaning:
          "the page cache: the free memory the kernel keeps before it takes file pages, the file pages the device touches each second, the stall for each megabyte read again",
        default: "32 MB, a tenth of `memory`, 4 ms"),
      .object(
        "freezer", \.freezer, empty: DeviceProfile.Freezer(),
        keys: [
          .flag("enabled", \.enabled, example: "false"),
          .number("threshold", .size, \.thresholdKB, example: #""1GB""#),
          .number("slots", .count(1...1_000), \.slots, example: "8"),
          .number("minFootprint", .size, \.minFootprintKB, example: #""16MB""#),
          .number("maxFreeze", .size, \.maxFreezeKB, example: #""400MB""#),
          .number("dailyBudget", .size, \.dailyBudgetKB, example: #""1GB""#),
        ],
        meaning:
          "XNU's freezer (iPhones; the `jetsam` policy only): at or below `threshold` of available memory it writes a suspended app of at least `minFootprint` to swap, up to `maxFreeze` and within `dailyBudget` (compressed) a day, into one of `slots`, and keeps it in band 75 ([docs/policies.md](policies.md#the-freezer))",
        default:
          "none; given: on, half of `memory`, 20, 8 MB, `foregroundLimit`, 2048 MB"),
    ] + timingKeys + [
      .text(
        "source", .text, \.source, meaning: "where the figures come from",
        example: #""measured on a test rig""#),
      DeviceKey(
        "policyParameters", .policySettings,
        meaning: "settings of the built-in policies on this device ([below](#policy-settings))",
        default: "the real systems' values",
        example: #"{"jetsam": {"agingTime": "2s", "softLimit": "60%", "bands": {"idle": 5}}}"#,
        read: { .settings($0.policySettings) },
        apply: { device, value in
          if case .settings(let settings) = value { device.policySettings = settings }
        }),
      DeviceKey(
        "systemProcesses", .systemProcesses,
        meaning: "the device's daemons, extensions and widgets ([below](#system-processes))",
        default: "none",
        example: #"[{"name": "dasd", "kind": "idle-daemon", "footprint": "7MB"}]"#,
        read: { .processes($0.systemProcesses) },
        apply: { device, value in
          if case .processes(let processes) = value { device.systemProcesses = processes }
        }),
    ]

  /// The foreground limit and the memory levels: given, or derived from the memory.
  private static let levelKeys: [DeviceKey] = [
    .number(
      "foregroundLimit", .size, \.given.foregroundLimitKB,
      meaning:
        "footprint at which an app is killed (`per-process-limit`), unless the app sets `memoryLimit`",
      default: "`memory − reserved`", example: #""1800MB""#),
    .number(
      "warningThreshold", .size, \.given.levels.pressure,
      meaning: "free memory below this is the `warning` level (XNU's pressure level)",
      default:
        "15 % up to 6 GB, 12 % above; with `criticalThreshold` alone, 3× it (15/4× from 3 to 6 GB)",
      example: #""450MB""#),
    .number(
      "criticalThreshold", .size, \.given.levels.critical,
      meaning: "free memory below this is `critical`: the policy kills",
      default: "XNU's DRAM class: 5 % of `memory` up to 3 GB, 4 % above", example: #""140MB""#),
    .number(
      "idleThreshold", .size, \.given.levels.idle,
      meaning:
        "jetsam's critical level while its IDLE band holds anyone; never below `criticalThreshold`",
      default: "10 / 9 / 8 % by class; with `criticalThreshold` alone, 2× it (9/4×)",
      example: #""280MB""#),
    .number(
      "reaperThreshold", .size, \.given.levels.reaper,
      meaning: "below it, jetsam's long-idle reaper sweeps",
      default: "20 / 18 / 16 % by class; with `criticalThreshold` alone, 4× it (18/4×)",
      example: #""560MB""#),
  ]

  /// Compression and the watchdog's limits.
  private static let timingKeys: [DeviceKey] = [
    .number(
      "compressionRatio", .permille(1...16), \.compressionPermille,
      meaning: "suspended processes occupy footprint ÷ ratio of physical memory (1 to 16)",
      default: "`1` (none)", example: "2.5"),
    .number(
      "enterBackgroundTimeout", .duration, \.enterBackgroundTimeoutMs,
      meaning: "time didEnterBackground may take before a `watchdog` kill", default: #"`"5s"`"#,
      example: #""7s""#),
    .number(
      "backgroundTaskLimit", .duration, \.backgroundTaskLimitMs,
      meaning: "the longest a background task or wake may run", default: #"`"30s"`"#,
      example: #""45s""#),
  ]

  /// A device with every optional key at its default (and nothing in its required ones): the JSON
  /// reader starts from it, and the writer leaves out what equals it.
  package static let blank = DeviceProfile(name: "", memoryKB: 0, reservedKB: 0)
}
