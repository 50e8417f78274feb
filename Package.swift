// swift-tools-version: 6.0
// jetsim: a memory-pressure and app-termination simulator. No package dependencies, by design.
import PackageDescription

let package = Package(
  name: "jetsim",
  products: [
    .library(name: "Jetsim", targets: ["Jetsim"]),
    .executable(name: "jetsim", targets: ["JetsimTool"]),
    // One-line kill-order assertions for users' own XCTest and Swift Testing tests.
    .library(name: "JetsimTesting", targets: ["JetsimTesting"]),
    // The benchmark: swift run -c release jetsim-bench
    .executable(name: "jetsim-bench", targets: ["JetsimBench"]),
  ],
  targets: [
    // All behaviour: engine, lifecycle, memory, policies, workload, profiles, reports.
    .target(name: "Jetsim"),
    // Argument parsing and the subcommands, as plain functions that tests can call.
    .target(name: "JetsimCLI", dependencies: ["Jetsim"]),
    // The `jetsim` executable: maps the CLI's result to streams and an exit code.
    .executableTarget(name: "JetsimTool", dependencies: ["JetsimCLI"]),
    .executableTarget(name: "JetsimBench", dependencies: ["Jetsim"]),
    .target(name: "JetsimTesting", dependencies: ["Jetsim"]),
    .testTarget(name: "JetsimTests", dependencies: ["Jetsim"]),
    .testTarget(name: "JetsimTestingTests", dependencies: ["JetsimTesting"]),
    .testTarget(name: "JetsimCLITests", dependencies: ["Jetsim", "JetsimCLI", "JetsimTool"]),
  ]
)
