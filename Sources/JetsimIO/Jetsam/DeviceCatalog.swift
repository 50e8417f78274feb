import JetsimCore

/// Real iOS devices, by product code: the table `Profiles/ios-devices.csv` (a test keeps the
/// two equal). Memory is what the OS reports, not the marketed size; the foreground limit is the
/// footprint at which iOS killed a foreground app that kept allocating (crowd-sourced
/// allocate-until-killed measurements, Stack Overflow question 5887248).
public enum DeviceCatalog {
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
  }

  /// Every model, in the table's order.
  public static let models: [Model] = [
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

  /// The model with product code `code`, if the table has it.
  public static func model(productCode code: String) -> Model? {
    models.first { $0.productCodes.contains(code) }
  }

  /// The table as CSV, in the layout of `Profiles/ios-devices.csv`.
  public static var csv: String {
    var buffer = CSVBuffer()
    buffer.appendRow([
      "device", "product_codes", "ram_gb_marketed", "ram_mb_reported", "foreground_limit_mb",
    ])
    for model in models {
      buffer.appendRow([
        model.name, model.productCodes.joined(separator: " "), "\(model.marketedGB)",
        "\(model.memoryMB)", "\(model.foregroundLimitMB)",
      ])
    }
    return buffer.text
  }
}

extension DeviceCatalog.Model {
  init(_ name: String, _ codes: [String], _ marketed: Int, _ memory: Int, _ limit: Int) {
    self.init(
      name: name, productCodes: codes, marketedGB: marketed, memoryMB: memory,
      foregroundLimitMB: limit)
  }
}
