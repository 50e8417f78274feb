// swift-tools-version: 6.0
// jetsim: a memory-pressure and app-termination simulator. No package dependencies, by design.
//
// The library is three layers, each a target that may import only the ones below it (the compiler
// enforces the direction; docs/architecture.md):
//
//   JetsimCore   the model: engine, lifecycle and memory rules, policies, workloads
//   JetsimIO     files: JSON profiles, traces, importers, CSV/HTML/JSON reports, provenance
//   JetsimBatch  many runs: compare, sweep, plan, golden checks, replay of real reports
//
// `Jetsim` re-exports the three, so users write `import Jetsim`.
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
    .executable(name: "jetsim-fuzz", targets: ["JetsimFuzz"]),
  ],
  targets: [
    .target(name: "JetsimCore"),
    .target(name: "JetsimIO", dependencies: ["JetsimCore"]),
    .target(name: "JetsimBatch", dependencies: ["JetsimCore", "JetsimIO"]),
    .target(name: "Jetsim", dependencies: ["JetsimCore", "JetsimIO", "JetsimBatch"]),
    // The command line, declared once: parsing, usage, help and completions come from one table.
    .target(name: "JetsimCLI", dependencies: ["Jetsim"]),
    // The `jetsim` executable: maps the CLI's result to streams and an exit code.
    .executableTarget(name: "JetsimTool", dependencies: ["JetsimCLI"]),
    .executableTarget(name: "JetsimBench", dependencies: ["Jetsim"]),
    // A seeded mutation fuzzer over every input kind, through the command line in process.
    .executableTarget(name: "JetsimFuzz", dependencies: ["Jetsim", "JetsimCLI"]),
    .target(name: "JetsimTesting", dependencies: ["Jetsim"]),
    // Helpers shared by the test targets: the package root, scratch folders, fixtures.
    .target(name: "JetsimTestSupport", dependencies: ["JetsimCore"], path: "Tests/JetsimTestSupport"),
    .testTarget(name: "JetsimCoreTests", dependencies: ["JetsimCore", "JetsimTestSupport"]),
    .testTarget(name: "JetsimIOTests", dependencies: ["JetsimCore", "JetsimIO", "JetsimTestSupport"]),
    .testTarget(
      name: "JetsimBatchTests", dependencies: ["Jetsim", "JetsimTestSupport"],
      exclude: ["Fidelity"]),
    .testTarget(name: "JetsimTestingTests", dependencies: ["JetsimTesting", "JetsimTestSupport"]),
    .testTarget(
      name: "JetsimCLITests",
      dependencies: ["Jetsim", "JetsimCLI", "JetsimTool", "JetsimTestSupport"]),
  ]
)
