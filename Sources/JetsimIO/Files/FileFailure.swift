import Foundation
import JetsimCore

/// File-system failures in a few plain words, for error messages.
package enum FileFailure {
  /// Why a file operation failed, in a few plain words.
  package static func reason(_ error: any Error) -> String {
    let error = error as NSError
    if error.domain == NSCocoaErrorDomain {
      switch CocoaError.Code(rawValue: error.code) {
      case .fileNoSuchFile, .fileReadNoSuchFile:
        return "a folder on its path does not exist or cannot be created"
      case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
      case .fileWriteOutOfSpace: return "no space left on the device"
      case .fileWriteVolumeReadOnly: return "read-only file system"
      case .fileWriteFileExists: return "a file is in the way"
      default: break
      }
    }
    let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
    if let posix = underlying ?? (error.domain == NSPOSIXErrorDomain ? error : nil),
      posix.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(posix.code))).lowercased()
    }
    return error.localizedDescription
  }
}
