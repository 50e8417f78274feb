import Foundation

/// The package's root folder, found from this file's path (`Tests/JetsimTestSupport/`).
public let packageRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

/// The shipped scenario named `name`.
public func scenarioPath(_ name: String) -> String {
  "\(packageRoot)/Profiles/scenarios/\(name).json"
}

/// A file of the package, by its path from the root.
public func packagePath(_ relative: String) -> String { "\(packageRoot)/\(relative)" }
