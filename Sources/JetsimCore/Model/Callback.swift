/// The UIApplicationDelegate callbacks, recorded by short name (docs/model.md §2).
public enum Callback: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// `application(_:willFinishLaunchingWithOptions:)`.
  case willFinishLaunching
  /// `application(_:didFinishLaunchingWithOptions:)`.
  case didFinishLaunching
  /// `applicationDidBecomeActive(_:)`.
  case didBecomeActive
  /// `applicationWillResignActive(_:)`.
  case willResignActive
  /// `applicationDidEnterBackground(_:)`.
  case didEnterBackground
  /// `applicationWillEnterForeground(_:)`.
  case willEnterForeground
  /// `applicationWillTerminate(_:)`: sent only to apps not suspended (docs/model.md §2).
  case willTerminate
  /// `applicationDidReceiveMemoryWarning(_:)`.
  case didReceiveMemoryWarning

  public var description: String {
    switch self {
    case .willFinishLaunching: "willFinishLaunching"
    case .didFinishLaunching: "didFinishLaunching"
    case .didBecomeActive: "didBecomeActive"
    case .willResignActive: "willResignActive"
    case .didEnterBackground: "didEnterBackground"
    case .willEnterForeground: "willEnterForeground"
    case .willTerminate: "willTerminate"
    case .didReceiveMemoryWarning: "didReceiveMemoryWarning"
    }
  }
}
