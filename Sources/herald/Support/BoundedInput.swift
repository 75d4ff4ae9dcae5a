import Foundation
import HeraldCore

/// Reads a whole input file (or standard input) up to a size, so that `/dev/zero`, a FIFO that
/// never ends or a file grown by accident is refused with a message instead of filling memory.
enum BoundedInput {
    /// Campaigns files: far above any real one (a thousand campaigns in ten locales is a few MB).
    static let campaignsFileLimit = 128 << 20
    /// A banner view's inline HTML (`html=@path`), published as a file of its own.
    static let htmlFileLimit = 8 << 20

    enum Failure: Error {
        case unreadable(String)
        case tooLarge
    }

    /// The bytes of `path` (`-`: standard input), at most `limit` of them.
    static func contents(of path: String, limit: Int) throws(Failure) -> Data {
        let descriptor: Int32
        if path == "-" {
            descriptor = Console.current.inputDescriptor
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw .unreadable(errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased())
            }
        }
        defer { if path != "-" { close(descriptor) } }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable("it is a folder, not a file") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)).lowercased())
            }
            guard data.count + count <= limit else { throw .tooLarge }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// `limit` in words: `128 MB`.
    static func size(_ limit: Int) -> String { "\(limit >> 20) MB" }
}

/// A file as the system knows it (device and inode): two paths, or a path and a descriptor,
/// name the same file when these agree.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Writes a whole output file: a regular file (or a new one) atomically, through a temporary
/// file renamed over it; anything else (`/dev/stdout`, a pipe, a device) by writing into it,
/// never replacing it with a file of its own.
enum OutputFile {
    static func save(_ data: Data, to path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG else {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            return
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw POSIXError(.EISDIR) }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                offset += written
            }
        }
    }
}
