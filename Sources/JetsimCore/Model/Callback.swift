/// The UIApplicationDelegate callbacks, recorded by short name (docs/model.md §2).
public enum Callback: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case willFinishLaunching
  case didFinishLaunching
  case didBecomeActive
  case willResignActive
  case didEnterBackground
  case willEnterForeground
  case willTerminate
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
