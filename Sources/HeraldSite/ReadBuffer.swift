#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One worker's buffer (not shared between threads) for comparing files on disk with the bytes a run would write: each
/// file is read into the same memory (a `--full` run compares tens of thousands, and an
/// array per file cost an allocation, its zeroing and its page faults each time).
final class ReadBuffer {
    private var storage: UnsafeMutableRawBufferPointer = .init(start: nil, count: 0)

    /// Whether `descriptor` is a regular file holding exactly `expected`.
    func holds(_ descriptor: Int32, exactly expected: [UInt8]) -> Bool {
        guard let size = Self.regularFileSize(descriptor), size == expected.count else { return false }
        if size == 0 { return true }
        if storage.count < size {
            storage.deallocate()
            storage = .allocate(byteCount: max(size, 2 * storage.count, 64 * 1024), alignment: 16)
        }
        guard let base = storage.baseAddress, Self.readFully(descriptor, into: base, count: size) else { return false }
        return expected.withUnsafeBytes { bytes in bytes.baseAddress.map { memcmp(base, $0, size) == 0 } ?? false }
    }

    deinit {
        storage.deallocate()
    }

    /// The size of the open file, if it is a regular file. Files are opened non-blocking: a
    /// FIFO put where a file goes would otherwise hold the run at its open for ever (it is
    /// then no regular file, so it differs).
    static func regularFileSize(_ descriptor: Int32) -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Reads `count` bytes into `base`; false when the file ends sooner or reading fails.
    static func readFully(_ descriptor: Int32, into base: UnsafeMutableRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let got = read(descriptor, base + offset, count - offset)
            guard got > 0 else { return false }
            offset += got
        }
        return true
    }
}
