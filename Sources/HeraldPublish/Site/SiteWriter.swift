import Foundation
import HeraldCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one writer of the published site. Writes a file only when its bytes differ from what
/// is on disk (temp file in the same directory, then rename: a reader never sees half a
/// file); leaves unchanged files untouched, mtime included (devices revalidate with
/// If-Modified-Since); removes files it published before and no longer publishes — only
/// those; never writes outside its folder or through a symlink.
public struct SiteWriter {
    public let root: URL

    public struct Outcome: Equatable, Sendable {
        public var written: [String] = []
        public var unchanged = 0
        public var removed: [String] = []
        public var manifest = SiteManifest()
        /// The manifest as the run history keeps it (set when the manifest was written).
        public var archive: ManifestArchive.Packed?

        public init() {}
    }

    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// Makes the folder hold `files`. `scope` lists the path prefixes this publish manages
    /// (`[["acme"]]` for one tenant); files outside it are neither removed nor forgotten.
    @discardableResult
    public func sync(_ files: [SiteFile], scope: [[String]]? = nil, progress: (Int, Int) -> Void = { _, _ in }) throws -> Outcome {
        try createRoot()
        var previous = readManifest()
        // A run that died part-way left its marker: sweep its temp files, and remember the
        // new paths it may have written so they are cleaned up if no longer published.
        if let unfinished = Self.readIfRegular(markerPath, expectedSize: nil) {
            sweepTemporaryFiles()
            for line in unfinished.split(separator: UInt8(ascii: "\n")) {
                let path = String(decoding: line, as: UTF8.self)
                if previous.files[path] == nil { previous.files[path] = "" }
            }
            previous.complete = false
        } else if !previous.complete {
            sweepTemporaryFiles()
        }
        let prefixes = scope?.map { $0.joined(separator: "/") + "/" }
        func inScope(_ path: String) -> Bool {
            guard let prefixes else { return true }
            return prefixes.contains { path.hasPrefix($0) }
        }
        let kept = previous.files.filter { !inScope($0.key) }

        // Compare everything first: when nothing differs, nothing is touched, not even the manifest.
        var outcome = Outcome()
        var manifest = SiteManifest(files: kept)
        var changed: [(SiteFile, URL)] = []
        var checkedDirectories: Set<String> = []
        for file in files {
            let path = file.path.description
            let url = try location(of: file.path, checked: &checkedDirectories)
            if let existing = Self.readIfRegular(url.path, expectedSize: file.bytes.count), existing == file.bytes {
                outcome.unchanged += 1
                let known = previous.files[path].flatMap { $0.isEmpty ? nil : $0 }
                manifest.files[path] = known ?? SHA256.hex(file.bytes)
            } else {
                changed.append((file, url))
                manifest.files[path] = SHA256.hex(file.bytes)
            }
        }
        let stale = previous.files.keys.filter { inScope($0) && manifest.files[$0] == nil }.sorted()
        if changed.isEmpty, stale.isEmpty, previous.complete, previous.files == manifest.files {
            outcome.manifest = manifest
            return outcome
        }

        // Announce intent first (a small marker with the paths the manifest does not know
        // yet): if this run dies half-way, the next one can clean up after it.
        var intent = previous
        var newPaths = ""
        for (file, _) in changed where intent.files[file.path.description] == nil {
            intent.files[file.path.description] = ""
            newPaths += file.path.description + "\n"
        }
        try atomicWrite(Array(newPaths.utf8), to: URL(fileURLWithPath: markerPath))

        for (index, (file, url)) in changed.enumerated() {
            try atomicWrite(file.bytes, to: url)
            outcome.written.append(file.path.description)
            if index % 500 == 499 { progress(index + 1, changed.count) }
        }
        for path in intent.files.keys.sorted() where inScope(path) && manifest.files[path] == nil {
            let url = root.appendingPathComponent(path)
            guard isRegularFile(url) else { continue }
            try FileManager.default.removeItem(at: url)
            outcome.removed.append(path)
            removeEmptyDirectories(from: url.deletingLastPathComponent())
        }
        let archive = ManifestArchive.pack(manifest)
        manifest.archiveDigest = archive.indexDigest
        outcome.archive = archive
        try writeManifest(manifest)
        unlink(markerPath)
        outcome.manifest = manifest
        return outcome
    }

    /// Present only while a run writes (or after one died doing so).
    private var markerPath: String { root.path + "/.herald-writing" }

    /// The folder as the last run left it, if that run completed and every file it lists is
    /// still there: the manifest and the digest it is archived under.
    public func intactState() -> (manifest: SiteManifest, digest: String)? {
        guard Self.readIfRegular(markerPath, expectedSize: nil) == nil,
            let bytes = Self.readIfRegular(root.path + "/" + SiteManifest.fileName, expectedSize: nil),
            let manifest = SiteManifest.parse(bytes), manifest.complete
        else { return nil }
        guard let digest = manifest.archiveDigest else { return nil }
        // Every listed file still there? Checked on both halves of the list at once.
        let paths = Array(manifest.files.keys)
        let rootPath = root.path
        let missing = ManagedCounter()
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            for index in stride(from: half, to: paths.count, by: 2) {
                var info = stat()
                if lstat(rootPath + "/" + paths[index], &info) != 0 || info.st_mode & S_IFMT != S_IFREG {
                    missing.increment()
                    return
                }
            }
        }
        return missing.value == 0 ? (manifest, digest) : nil
    }

    /// The manifest of what is published here now.
    public func readManifest() -> SiteManifest {
        let url = root.appendingPathComponent(SiteManifest.fileName)
        return (try? readRegularFile(url)).flatMap(SiteManifest.parse) ?? SiteManifest()
    }

    // MARK: Paths

    /// The file's location, creating its directories; refuses any component that is a
    /// symlink. Each directory is checked once per run (`checked`).
    private func location(of path: SitePath, checked: inout Set<String>) throws -> URL {
        var directory = root.path
        for segment in path.segments.dropLast() {
            guard !segment.isEmpty, segment != ".", segment != "..", !segment.contains("/") else {
                throw WriteError(description: "refusing path segment \"\(segment)\" in \(path)")
            }
            directory += "/" + segment
            if checked.contains(directory) { continue }
            var info = stat()
            if lstat(directory, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK {
                    throw WriteError(description: "refusing to write through the symlink \(directory)")
                }
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw WriteError(description: "\(directory) is in the way: it is not a directory")
                }
            } else if mkdir(directory, 0o755) != 0, errno != EEXIST {
                throw WriteError(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
            }
            checked.insert(directory)
        }
        let url = URL(fileURLWithPath: directory + "/" + (path.segments.last ?? ""))
        var info = stat()
        if lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw WriteError(description: "refusing to replace the symlink \(url.path)")
        }
        return url
    }

    private func createRoot() throws {
        var info = stat()
        if lstat(root.path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR || info.st_mode & S_IFMT == S_IFLNK else {
                throw WriteError(description: "\(root.path) is not a directory")
            }
            return
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    // MARK: Bytes

    private func readRegularFile(_ url: URL) throws -> [UInt8] {
        guard let bytes = Self.readIfRegular(url.path, expectedSize: nil) else { throw WriteError(description: "not a regular file") }
        return bytes
    }

    /// The file's bytes if it is a regular file (never through a symlink); nil when it is
    /// missing, something else, or not `expectedSize` long (then it differs anyway).
    static func readIfRegular(_ path: String, expectedSize: Int?) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        if let expectedSize, expectedSize != size { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let got = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { read(descriptor, $0 + offset, size - offset) } ?? -1
            }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    private func isRegularFile(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Temp file beside the target, then rename(2): atomic on one filesystem.
    private func atomicWrite(_ bytes: [UInt8], to url: URL) throws {
        let target = url.path
        let slash = target.lastIndex(of: "/") ?? target.startIndex
        let temporary = String(target[..<slash]) + "/." + target[target.index(after: slash)...] + ".herald-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw WriteError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        var offset = 0
        var failure: String?
        while offset < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(descriptor, $0 + offset, bytes.count - offset) } ?? -1
            }
            guard wrote > 0 else {
                failure = String(cString: strerror(errno))
                break
            }
            offset += wrote
        }
        close(descriptor)
        if failure == nil, rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw WriteError(description: "cannot write \(target): \(failure)")
        }
    }

    /// Temp files a killed run left behind (`.<name>.herald-<pid>`); only looked for after such a run.
    private func sweepTemporaryFiles() {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return }
        for case let relative as String in enumerator {
            let name = (relative as NSString).lastPathComponent
            guard name.hasPrefix("."), let marker = name.range(of: ".herald-", options: .backwards),
                name[marker.upperBound...].allSatisfy(\.isNumber), !name[marker.upperBound...].isEmpty
            else { continue }
            try? FileManager.default.removeItem(at: root.appendingPathComponent(relative))
        }
    }

    private func writeManifest(_ manifest: SiteManifest) throws {
        try atomicWrite(manifest.serialized(), to: root.appendingPathComponent(SiteManifest.fileName))
    }

    private func removeEmptyDirectories(from directory: URL) {
        var current = directory.standardizedFileURL
        while current.path.count > root.path.count, current.path.hasPrefix(root.path + "/") {
            guard let contents = try? FileManager.default.contentsOfDirectory(atPath: current.path), contents.isEmpty else { return }
            try? FileManager.default.removeItem(at: current)
            current = current.deletingLastPathComponent()
        }
    }
}

/// A counter shared by the two halves of the existence check.
private final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
