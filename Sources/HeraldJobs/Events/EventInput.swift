import Foundation
import Synchronization

/// An ingest's input, a chunk (1 MiB) at a time: a file or standard input.
public final class EventInput: Sendable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The chunk buffer, reused: one reader at a time.
    private let buffer = Mutex([UInt8](repeating: 0, count: 1 << 20))
    private let consumed = Atomic<Int>(0)
    /// The input's size when it is a regular file (progress can say how far along it is).
    public let size: Int?

    /// Bytes read so far (the parser runs a little ahead of what is stored).
    public var bytesRead: Int { consumed.load(ordering: .relaxed) }

    /// Opens `path` for reading; `-` is `standardInput` (the process's own unless a caller
    /// running commands in-process gives another).
    public init(path: String, standardInput: Int32 = STDIN_FILENO) throws(EventIngestError) {
        if path == "-" {
            descriptor = standardInput
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw .inputUnreadable(path: path, reason: String(cString: strerror(errno)))
            }
            var info = stat()
            if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(descriptor)
                throw .inputUnreadable(path: path, reason: "it is a folder, not a file")
            }
            ownsDescriptor = true
        }
        var status = stat()
        size = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next chunk; nil at the end of the input.
    func next() throws(EventIngestError) -> ArraySlice<UInt8>? {
        let descriptor = descriptor
        return try buffer.withLock { buffer throws(EventIngestError) -> ArraySlice<UInt8>? in
            let count = buffer.withUnsafeMutableBytes { raw in
                raw.baseAddress.map { read(descriptor, $0, raw.count) } ?? -1
            }
            guard count >= 0 else { throw .inputFailed(reason: String(cString: strerror(errno))) }
            consumed.add(count, ordering: .relaxed)
            return count == 0 ? nil : buffer[0..<count]
        }
    }
}
