import Foundation
import HeraldCore

/// Reads a whole input file (or standard input) up to a size, so that `/dev/zero`, a FIFO that
/// never ends or a file grown by accident is refused with a message instead of filling memory.
public enum BoundedInput {
    /// Campaigns files: far above any real one (a thousand campaigns in ten locales is a few MB).
    public static let campaignsFileLimit = 128 << 20
    /// A banner view's inline HTML (`html=@path`), published as a file of its own.
    public static let htmlFileLimit = 8 << 20

    public enum Failure: Error {
        case unreadable(String)
        case tooLarge
    }

    /// The bytes of `path` (`-`: standard input, `standardInput`), at most `limit` of them.
    public static func contents(of path: String, limit: Int, standardInput: Int32) throws(Failure) -> Data {
        let descriptor: Int32
        if path == "-" {
            descriptor = standardInput
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
    public static func size(_ limit: Int) -> String { "\(limit >> 20) MB" }
}

/// A file as the system knows it (device and inode): two paths, or a path and a descriptor,
/// name the same file when these agree.
public struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Writes a whole output file: a regular file (or a new one) atomically, through a temporary
/// file renamed over it; anything else (`/dev/stdout`, a pipe, a device) by writing into it,
/// never replacing it with a file of its own.
public enum OutputFile {
    public static func save(_ data: Data, to path: String) throws {
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

/// Campaigns files and the inline HTML of banner views, read whole (bounded), with what was
/// wrong said in words.
public enum InputFiles {
    /// A campaigns file (`-`: standard input), parsed, every problem reported with its path.
    public static func campaignsDocument(_ path: String, standardInput: Int32) throws -> CampaignsDocument {
        let shown = Excerpt.plain(path, limit: 200)  // the file as messages name it
        let data: Data
        do {
            data = try BoundedInput.contents(of: path, limit: BoundedInput.campaignsFileLimit, standardInput: standardInput)
        } catch .unreadable(let why) {
            throw JobError(.noInput, "cannot read \(shown): \(why)")
        } catch .tooLarge {
            throw JobError.invalid(
                "\(shown) is larger than \(BoundedInput.size(BoundedInput.campaignsFileLimit)): split it into smaller campaigns files")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw JobError.invalid("\(shown) is not UTF-8 text") }
        switch CampaignsDocument.parse(text, fileName: shown) {
        case .success(let document): return document
        case .failure(let problems): throw problems
        }
    }

    /// A banner view's HTML (`html=@path`).
    public static func html(_ path: String, standardInput: Int32) throws -> String {
        let shown = Excerpt.plain(path, limit: 200)
        let data: Data
        do {
            data = try BoundedInput.contents(of: path, limit: BoundedInput.htmlFileLimit, standardInput: standardInput)
        } catch .unreadable(let why) {
            throw JobError(.noInput, "cannot read HTML file \(shown): \(why)")
        } catch .tooLarge {
            throw JobError.invalid(
                "HTML file \(shown) is larger than \(BoundedInput.size(BoundedInput.htmlFileLimit)): host a page that large yourself and give file=URL")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw JobError.invalid("HTML file \(shown) is not UTF-8") }
        return text
    }
}
