// The umbrella module: `import Jetsim` brings the whole library (docs/architecture.md).
@_exported import JetsimBatch
@_exported import JetsimCore
@_exported import JetsimIO
