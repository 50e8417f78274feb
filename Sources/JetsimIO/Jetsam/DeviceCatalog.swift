import JetsimCore

/// Real iOS and iPadOS devices, by product code: the table `Profiles/ios-devices.csv` (a test keeps
/// the two equal), every iPhone from the 6 to the iPhone 17 family and the iPads that run current
/// iPadOS. Memory is what the OS reports, not the marketed size; the foreground limit is the
/// footprint at which iOS killed a foreground app that kept allocating. Where a public
/// allocate-until-killed measurement exists (Stack Overflow question 5887248) the row says so;
/// otherwise both figures are estimates by the rules of `Source` (docs/profiles.md).
public enum DeviceCatalog {
  /// Where a row's memory and limit come from.
  public enum Source: Sendable, Equatable {
    /// Measured: crowd-sourced allocate-until-killed figures (Stack Overflow question 5887248).
    case measured
    /// Estimated: the memory the OS reports as 92 % of the marketed memory (the median of the
    /// measured 4 and 6 GB devices, 91.2 % to 93.8 %); the limit as 54 % of it on an iPhone (the
    /// measured 4 GB iPhones, 53.8 % to 55.3 %) and 81 % on an iPad (the measured iPad Pro 2018).
    case estimated

    /// The text of the table's `source` column.
    public var text: String {
      switch self {
      case .measured: "measured: Stack Overflow question 5887248 (allocate-until-killed)"
      case .estimated:
        "estimate: reported = 92% of marketed; limit = 54% (iPhone) or 81% (iPad) of reported"
      }
    }
  }

  /// One device model.
  public struct Model: Sendable, Equatable {
    /// The model's name, such as `iPhone 11`.
    public var name: String
    /// Its product codes (`iPhone12,1`), as reports and `uname` give them.
    public var productCodes: [String]
    /// The memory as marketed (teardowns and spec sheets), in GB.
    public var marketedGB: Int
    /// The memory the OS reports, in MB.
    public var memoryMB: Int
    /// The footprint at which iOS killed a foreground app that kept allocating, in MB.
    public var foregroundLimitMB: Int
    /// Whether it has app swap (M-series iPads, iPadOS 16 and later).
    public var appSwap: Bool
    /// Where the memory and the limit come from.
    public var source: Source
  }

  /// Every model, in the table's order.
  public static let models: [Model] = measuredModels + estimatedModels

  static let measuredModels: [Model] = [
    Model("iPhone 6", ["iPhone7,2"], 1, 1024, 645),
    Model("iPhone 6s", ["iPhone8,1"], 2, 2048, 1396),
    Model("iPhone SE (1st gen)", ["iPhone8,4"], 2, 2048, 1395),
    Model("iPhone 7", ["iPhone9,1", "iPhone9,3"], 2, 2048, 1395),
    Model("iPhone 7 Plus", ["iPhone9,2", "iPhone9,4"], 3, 3072, 2040),
    Model("iPhone 8", ["iPhone10,1", "iPhone10,4"], 2, 1990, 1364),
    Model("iPhone X", ["iPhone10,3", "iPhone10,6"], 3, 2785, 1392),
    Model("iPhone XR", ["iPhone11,8"], 3, 2813, 1792),
    Model("iPhone XS", ["iPhone11,2"], 4, 3754, 2040),
    Model("iPhone XS Max", ["iPhone11,4", "iPhone11,6"], 4, 3735, 2039),
    Model("iPhone 11", ["iPhone12,1"], 4, 3844, 2068),
    Model("iPhone 11 Pro Max", ["iPhone12,5"], 4, 3740, 2067),
    Model("iPad Air 2", ["iPad5,3", "iPad5,4"], 2, 2048, 1383),
    Model(
      "iPad Pro 12.9-inch (2018)", ["iPad8,5", "iPad8,6", "iPad8,7", "iPad8,8"], 6, 5650, 4598),
    Model("iPad 10.2-inch (7th gen)", ["iPad7,11", "iPad7,12"], 3, 2998, 1844),
  ]

  /// The models without a public measurement, their figures by the rules of `Source.estimated`.
  static let estimatedModels: [Model] =
    [
      ("iPhone 6 Plus", ["iPhone7,1"], 1), ("iPhone 6s Plus", ["iPhone8,2"], 2),
      ("iPhone 8 Plus", ["iPhone10,2", "iPhone10,5"], 3), ("iPhone 11 Pro", ["iPhone12,3"], 4),
      ("iPhone SE (2nd gen)", ["iPhone12,8"], 3), ("iPhone 12 mini", ["iPhone13,1"], 4),
      ("iPhone 12", ["iPhone13,2"], 4), ("iPhone 12 Pro", ["iPhone13,3"], 6),
      ("iPhone 12 Pro Max", ["iPhone13,4"], 6), ("iPhone 13 mini", ["iPhone14,4"], 4),
      ("iPhone 13", ["iPhone14,5"], 4), ("iPhone 13 Pro", ["iPhone14,2"], 6),
      ("iPhone 13 Pro Max", ["iPhone14,3"], 6), ("iPhone SE (3rd gen)", ["iPhone14,6"], 4),
      ("iPhone 14", ["iPhone14,7"], 6), ("iPhone 14 Plus", ["iPhone14,8"], 6),
      ("iPhone 14 Pro", ["iPhone15,2"], 6), ("iPhone 14 Pro Max", ["iPhone15,3"], 6),
      ("iPhone 15", ["iPhone15,4"], 6), ("iPhone 15 Plus", ["iPhone15,5"], 6),
      ("iPhone 15 Pro", ["iPhone16,1"], 8), ("iPhone 15 Pro Max", ["iPhone16,2"], 8),
      ("iPhone 16", ["iPhone17,3"], 8), ("iPhone 16 Plus", ["iPhone17,4"], 8),
      ("iPhone 16 Pro", ["iPhone17,1"], 8), ("iPhone 16 Pro Max", ["iPhone17,2"], 8),
      ("iPhone 16e", ["iPhone17,5"], 8), ("iPhone 17", ["iPhone18,3"], 8),
      ("iPhone 17 Pro", ["iPhone18,1"], 12), ("iPhone 17 Pro Max", ["iPhone18,2"], 12),
      ("iPhone Air", ["iPhone18,4"], 12),
    ].map { Model(estimating: $0.0, $0.1, $0.2, iPad: false, appSwap: false) }
    + [
      ("iPad Pro 11-inch (1st gen)", ["iPad8,1", "iPad8,2", "iPad8,3", "iPad8,4"], 4, false),
      ("iPad Pro 11-inch (2nd gen)", ["iPad8,9", "iPad8,10"], 6, false),
      ("iPad Pro 12.9-inch (4th gen)", ["iPad8,11", "iPad8,12"], 6, false),
      ("iPad Pro 11-inch (M1)", ["iPad13,4", "iPad13,5", "iPad13,6", "iPad13,7"], 8, true),
      ("iPad Pro 12.9-inch (M1)", ["iPad13,8", "iPad13,9", "iPad13,10", "iPad13,11"], 8, true),
      ("iPad Pro 11-inch (M2)", ["iPad14,3", "iPad14,4"], 8, true),
      ("iPad Pro 12.9-inch (M2)", ["iPad14,5", "iPad14,6"], 8, true),
      ("iPad Pro 11-inch (M4)", ["iPad16,3", "iPad16,4"], 8, true),
      ("iPad Pro 13-inch (M4)", ["iPad16,5", "iPad16,6"], 8, true),
      ("iPad Air (3rd gen)", ["iPad11,3", "iPad11,4"], 3, false),
      ("iPad Air (4th gen)", ["iPad13,1", "iPad13,2"], 4, false),
      ("iPad Air (M1)", ["iPad13,16", "iPad13,17"], 8, true),
      ("iPad Air 11-inch (M2)", ["iPad14,8", "iPad14,9"], 8, true),
      ("iPad Air 13-inch (M2)", ["iPad14,10", "iPad14,11"], 8, true),
      ("iPad Air 11-inch (M3)", ["iPad15,3", "iPad15,4"], 8, true),
      ("iPad Air 13-inch (M3)", ["iPad15,5", "iPad15,6"], 8, true),
      ("iPad mini (5th gen)", ["iPad11,1", "iPad11,2"], 3, false),
      ("iPad mini (6th gen)", ["iPad14,1", "iPad14,2"], 4, false),
      ("iPad mini (A17 Pro)", ["iPad16,1", "iPad16,2"], 8, false),
      ("iPad (8th gen)", ["iPad11,6", "iPad11,7"], 3, false),
      ("iPad (9th gen)", ["iPad12,1", "iPad12,2"], 3, false),
      ("iPad (10th gen)", ["iPad13,18", "iPad13,19"], 4, false),
      ("iPad (A16)", ["iPad15,7", "iPad15,8"], 6, false),
    ].map { Model(estimating: $0.0, $0.1, $0.2, iPad: true, appSwap: $0.3) }

  /// The model with product code `code`, if the table has it.
  public static func model(productCode code: String) -> Model? {
    models.first { $0.productCodes.contains(code) }
  }

  /// The table as CSV, in the layout of `Profiles/ios-devices.csv`.
  public static var csv: String {
    var buffer = CSVBuffer()
    buffer.appendRow([
      "device", "product_codes", "ram_gb_marketed", "ram_mb_reported", "foreground_limit_mb",
      "app_swap", "source",
    ])
    for model in models {
      buffer.appendRow([
        model.name, model.productCodes.joined(separator: " "), "\(model.marketedGB)",
        "\(model.memoryMB)", "\(model.foregroundLimitMB)", model.appSwap ? "yes" : "no",
        model.source.text,
      ])
    }
    return buffer.text
  }
}

extension DeviceCatalog.Model {
  /// A measured row.
  init(_ name: String, _ codes: [String], _ marketed: Int, _ memory: Int, _ limit: Int) {
    self.init(
      name: name, productCodes: codes, marketedGB: marketed, memoryMB: memory,
      foregroundLimitMB: limit, appSwap: false, source: .measured)
  }

  /// An estimated row, by the rules of `DeviceCatalog.Source.estimated`.
  init(estimating name: String, _ codes: [String], _ marketed: Int, iPad: Bool, appSwap: Bool) {
    let memory = marketed * 1024 * 92 / 100
    self.init(
      name: name, productCodes: codes, marketedGB: marketed, memoryMB: memory,
      foregroundLimitMB: memory * (iPad ? 81 : 54) / 100, appSwap: appSwap, source: .estimated)
  }
}
