import JetsimCore
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// File-system failures in a few plain words, for error messages.
package enum FileFailure {
  /// Why a file operation failed, in a few plain words.
  package static func reason(_ error: any Error) -> String {
    if let error = error as? CocoaError {
      switch error.code {
      case .fileNoSuchFile, .fileReadNoSuchFile:
        return "a folder on its path does not exist or cannot be created"
      case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
      case .fileWriteOutOfSpace: return "no space left on the device"
      case .fileWriteVolumeReadOnly: return "read-only file system"
      case .fileWriteFileExists: return "a file is in the way"
      default: break
      }
      if let posix = error.userInfo["NSUnderlyingError"] as? POSIXError { return reason(posix) }
      return "the file system refused (error \(error.code.rawValue))"
    }
    if let posix = error as? POSIXError {
      return FileSystem.words(errno: posix.code.rawValue)
    }
    return "\(error)"
  }
}
