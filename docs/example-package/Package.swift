// swift-tools-version: 6.0
// An app team's package that checks jetsim kill orders in its own tests (docs/regression-testing.md).
import PackageDescription

let package = Package(
  name: "KillOrderExample",
  dependencies: [
    // In your package: .package(url: "<jetsim's git URL>", branch: "main"), or revision: "<commit>"
    .package(name: "jetsim", path: "../..")
  ],
  targets: [
    .testTarget(
      name: "KillOrderTests",
      dependencies: [
        .product(name: "Jetsim", package: "jetsim"),
        .product(name: "JetsimTesting", package: "jetsim"),
      ])
  ]
)
