import Foundation

/// A file error in words, never Foundation's own text ("Error Domain=NSCocoaErrorDomain
/// Code=4 …", "The file doesn't exist."): the caller names the path, this says why.
public enum FileProblem {
    public static func describe(_ error: any Error) -> String {
        // Herald's own errors say what they are already.
        if let error = error as? StoreError { return error.description }
        if let error = error as? EmbeddedDatabaseError { return error.description }
        let nsError = error as NSError
        if nsError.domain != NSCocoaErrorDomain, nsError.domain != NSPOSIXErrorDomain {
            return String(describing: error)
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))).lowercased() }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
        case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        case .fileWriteFileExists: return "a file of that name exists"
        default: return "it cannot be written or read (error \(nsError.code))"
        }
    }
}
