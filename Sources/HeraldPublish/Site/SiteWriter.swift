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
        let previous = readManifest()
        if !previous.complete { sweepTemporaryFiles() }
        func inScope(_ path: String) -> Bool {
            guard let scope else { return true }
            let segments = path.split(separator: "/").map(String.init)
            return scope.contains { prefix in segments.starts(with: prefix) }
        }
        let kept = previous.files.filter { !inScope($0.key) }

        // Compare everything first: when nothing differs, nothing is touched, not even the manifest.
        var outcome = Outcome()
        var manifest = SiteManifest(files: kept)
        var changed: [(SiteFile, URL)] = []
        for file in files {
            let path = file.path.description
            let url = try location(of: file.path)
            if let existing = try? readRegularFile(url), existing == file.bytes {
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

        // Announce intent first: if this run dies half-way, the next one still knows every
        // path it may have written, so it can clean them up.
        var intent = previous
        intent.complete = false
        for (file, _) in changed where intent.files[file.path.description] == nil { intent.files[file.path.description] = "" }
        try writeManifest(intent)

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
        try writeManifest(manifest)
        outcome.manifest = manifest
        return outcome
    }

    /// The manifest of what is published here now.
    public func readManifest() -> SiteManifest {
        let url = root.appendingPathComponent(SiteManifest.fileName)
        return (try? readRegularFile(url)).flatMap(SiteManifest.parse) ?? SiteManifest()
    }

    // MARK: Paths

    /// The file's location, creating its directories; refuses any component that is a symlink.
    private func location(of path: SitePath) throws -> URL {
        var directory = root
        for segment in path.segments.dropLast() {
            guard !segment.isEmpty, segment != ".", segment != "..", !segment.contains("/") else {
                throw WriteError(description: "refusing path segment \"\(segment)\" in \(path)")
            }
            directory.appendPathComponent(segment)
            var info = stat()
            if lstat(directory.path, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK {
                    throw WriteError(description: "refusing to write through the symlink \(directory.path)")
                }
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw WriteError(description: "\(directory.path) is in the way: it is not a directory")
                }
            } else {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            }
        }
        let url = directory.appendingPathComponent(path.segments.last ?? "")
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
        guard isRegularFile(url) else { throw WriteError(description: "not a regular file") }
        return [UInt8](try Data(contentsOf: url))
    }

    private func isRegularFile(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Temp file beside the target, then rename(2): atomic on one filesystem.
    private func atomicWrite(_ bytes: [UInt8], to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).herald-\(getpid())")
        do {
            try Data(bytes).write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw WriteError(description: "cannot rename \(temporary.path) to \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if let error = error as? WriteError { throw error }
            throw WriteError(description: "cannot write \(url.path): \(error.localizedDescription)")
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
