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
public struct SiteWriter: Sendable {
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
        rootPath = self.root.path
    }

    /// `root.path`, made once: every file's path starts with it.
    private let rootPath: String

    /// Makes the folder hold `files`. `scope` lists the path prefixes this publish manages
    /// (`[["acme"]]` for one tenant); files outside it are neither removed nor forgotten.
    /// `previous`: the manifest as `intactState()` read it, when the caller has checked it
    /// against the run history (its shard digests are then trusted, not recomputed).
    @discardableResult
    public func sync(
        _ files: [SiteFile], scope: [[String]]? = nil, previous known: SiteManifest? = nil
    ) throws -> Outcome {
        try createRoot()
        var previous = known ?? readManifest().forgettingShardDigests()
        // A run that died part-way left its marker: sweep its temp files, and remember the
        // new paths it may have written so they are cleaned up if no longer published.
        if let unfinished = Self.readIfRegular(markerPath, expectedSize: nil) {
            sweepTemporaryFiles()
            for line in unfinished.split(separator: UInt8(ascii: "\n")) {
                let path = String(decoding: line, as: UTF8.self)
                if previous[path] == nil { previous[path] = "" }
            }
            previous.complete = false
        } else if !previous.complete {
            sweepTemporaryFiles()
        }
        // Scopes name a tenant or an app; whole app folders are in or out.
        let prefixes = scope?.map { $0.joined(separator: "/") + "/" }
        func inScope(_ folder: String) -> Bool {
            guard let prefixes else { return true }
            let folder = folder + "/"
            return prefixes.contains { folder.hasPrefix($0) }
        }

        // Compare everything first: when nothing differs, nothing is touched, not even the manifest.
        var outcome = Outcome()
        var manifest = SiteManifest(apps: previous.apps.filter { !inScope($0.key) })
        var changed: [(file: SiteFile, location: Location)] = []
        let checked = try Self.inParallel(files) { file, checkedDirectories -> (location: Location, same: Bool) in
            let location = try location(of: file.path, checked: &checkedDirectories)
            guard location.newFolder == nil, let existing = Self.readIfRegular(location.target, expectedSize: file.bytes.count) else {
                return (location, false)
            }
            return (location, existing == file.bytes)
        }
        for (file, result) in zip(files, checked) {
            let path = file.path.description
            if result.same { outcome.unchanged += 1 } else { changed.append((file, result.location)) }
            manifest.apps[SiteManifest.appFolder(of: path), default: SiteManifest.AppFiles()].files[path] = file.digest
        }
        var stale: [String] = []
        for (folder, app) in previous.apps where inScope(folder) {
            let now = manifest.apps[folder]
            if now?.files == app.files {
                manifest.apps[folder]?.shardDigest = app.shardDigest  // same files: same shard
            } else {
                stale += app.files.keys.filter { now?.files[$0] == nil }
            }
        }
        stale.sort()
        if changed.isEmpty, stale.isEmpty, previous.complete, previous.apps.count == manifest.apps.count,
            previous.apps.allSatisfy({ manifest.apps[$0.key]?.files == $0.value.files })
        {
            outcome.manifest = manifest
            return outcome
        }

        // Announce intent first (a small marker with the paths the manifest does not know
        // yet): if this run dies half-way, the next one can clean up after it.
        var newPaths = ""
        for item in changed where previous[item.file.path.description] == nil {
            newPaths += item.file.path.description + "\n"
        }
        try atomicWrite(Array(newPaths.utf8), to: markerPath)

        // In folders that exist, each file through a temp name; a new folder is filled under
        // a hidden name and renamed into place whole, with all its files (one rename, not one
        // per file: a cold publish makes thousands).
        let inPlace = changed.filter { $0.location.newFolder == nil }
        let newFolders = Dictionary(grouping: changed.compactMap { item in item.location.newFolder.map { ($0, item) } }, by: \.0)
        _ = try Self.inParallel(inPlace) { item, _ in try atomicWrite(item.file.bytes, to: item.location.target) }
        _ = try Self.inParallel(newFolders.sorted { $0.key < $1.key }) { folder, _ in
            try Self.createFolder(folder.key, with: folder.value.map { ($0.1.location.target, $0.1.file.bytes) })
        }
        outcome.written = changed.map { $0.file.path.description }
        for path in stale {
            let url = root.appendingPathComponent(path)
            guard isRegularFile(url) else { continue }
            try FileManager.default.removeItem(at: url)
            outcome.removed.append(path)
            removeEmptyDirectories(from: url.deletingLastPathComponent())
        }
        let archive = ManifestArchive.pack(manifest)
        manifest = archive.manifest
        manifest.archiveDigest = archive.indexDigest
        outcome.archive = archive
        try writeManifest(manifest)
        unlink(markerPath)
        outcome.manifest = manifest
        return outcome
    }

    /// `body` over `items` on every core, in contiguous runs (neighbouring files share
    /// folders), results in the order of `items`; the first error, in that order, is thrown.
    /// Creating and renaming files is mostly kernel work, which spreads well across cores.
    /// `body`'s second argument is a set private to its thread (folders it has checked).
    private static func inParallel<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ body: @Sendable (Item, inout Set<String>) throws -> Result
    ) throws -> [Result] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, items.count / 64))
        let slots = ConcurrentSlots<Swift.Result<[Result], any Error>>(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let range = (items.count * worker / workers)..<(items.count * (worker + 1) / workers)
            var checked: Set<String> = []
            var results: [Result] = []
            results.reserveCapacity(range.count)
            do {
                for index in range { results.append(try body(items[index], &checked)) }
                slots[worker] = .success(results)
            } catch {
                slots[worker] = .failure(error)
            }
        }
        var all: [Result] = []
        all.reserveCapacity(items.count)
        for slot in slots.values { all += try slot.get() }
        return all
    }

    /// Present only while a run writes (or after one died doing so).
    private var markerPath: String { rootPath + "/.herald-writing" }

    /// The folder as the last run left it, if that run completed and every file it lists is
    /// still there: the manifest and the digest it is archived under.
    public func intactState() -> (manifest: SiteManifest, digest: String)? {
        guard Self.readIfRegular(markerPath, expectedSize: nil) == nil,
            let bytes = Self.readIfRegular(root.path + "/" + SiteManifest.fileName, expectedSize: nil),
            let manifest = SiteManifest.parse(bytes), manifest.complete
        else { return nil }
        guard let digest = manifest.archiveDigest else { return nil }
        // Every listed file still there (a regular file)? Checked on every core.
        let paths = manifest.apps.values.flatMap { $0.files.keys }
        let present = try? Self.inParallel(paths) { path, _ in
            var info = stat()
            return lstat(rootPath + "/" + path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
        return present?.allSatisfy { $0 } == true ? (manifest, digest) : nil
    }

    /// The manifest of what is published here now.
    public func readManifest() -> SiteManifest {
        let url = root.appendingPathComponent(SiteManifest.fileName)
        return (try? readRegularFile(url)).flatMap(SiteManifest.parse) ?? SiteManifest()
    }

    // MARK: Paths

    /// Where a file goes: its path, and the first of its folders that does not exist yet
    /// (below the tenant's: an app, a locale, a stories folder), if any.
    struct Location: Sendable {
        let target: String
        let newFolder: String?
    }

    /// The file's location, creating a missing tenant folder; refuses any component that is
    /// a symlink. Each existing directory is checked once per run (`checked`).
    private func location(of path: SitePath, checked: inout Set<String>) throws -> Location {
        for segment in path.segments {
            guard !segment.isEmpty, segment != ".", segment != "..", !segment.utf8.contains(UInt8(ascii: "/")) else {
                throw WriteError(description: "refusing path segment \"\(segment)\" in \(path)")
            }
        }
        var directory = rootPath
        for (depth, segment) in path.segments.dropLast().enumerated() {
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
            } else if depth > 0 {
                return Location(target: rootPath + "/" + path.description, newFolder: directory)
            } else if mkdir(directory, 0o755) != 0, errno != EEXIST {
                throw WriteError(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
            }
            checked.insert(directory)
        }
        let target = directory + "/" + (path.segments.last ?? "")
        var info = stat()
        if lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw WriteError(description: "refusing to replace the symlink \(target)")
        }
        return Location(target: target, newFolder: nil)
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

    /// `folder` (which does not exist) with `files` (full paths inside it): made under a
    /// hidden name beside it (`.<name>.herald-<pid>`, swept if a run dies), files written
    /// straight in, then renamed into place, so no reader ever sees it partly filled.
    private static func createFolder(_ folder: String, with files: [(target: String, bytes: [UInt8])]) throws {
        let slash = folder.lastIndex(of: "/") ?? folder.startIndex
        let staging = String(folder[..<slash]) + "/." + folder[folder.index(after: slash)...] + ".herald-\(getpid())"
        if mkdir(staging, 0o755) != 0 {
            throw WriteError(description: "cannot create \(staging): \(String(cString: strerror(errno)))")
        }
        var made: Set<String> = [staging]
        for (target, bytes) in files {
            let inside = staging + target.dropFirst(folder.count)
            var directory = staging
            for segment in target.dropFirst(folder.count + 1).split(separator: "/").dropLast() {
                directory += "/" + segment
                if made.insert(directory).inserted, mkdir(directory, 0o755) != 0 {
                    throw WriteError(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
                }
            }
            let descriptor = open(inside, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw WriteError(description: "cannot write \(inside): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor, path: inside)
        }
        guard rename(staging, folder) == 0 else {
            throw WriteError(description: "cannot move \(staging) to \(folder): \(String(cString: strerror(errno)))")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(descriptor, $0 + offset, bytes.count - offset) } ?? -1
            }
            guard wrote > 0 else { throw WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += wrote
        }
    }

    /// Temp file beside the target, then rename(2): atomic on one filesystem.
    private func atomicWrite(_ bytes: [UInt8], to target: String) throws {
        let slash = target.lastIndex(of: "/") ?? target.startIndex
        let temporary = String(target[..<slash]) + "/." + target[target.index(after: slash)...] + ".herald-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw WriteError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        do {
            defer { close(descriptor) }
            try Self.writeAll(bytes, to: descriptor, path: target)
        } catch {
            unlink(temporary)
            throw error
        }
        if rename(temporary, target) != 0 {
            let failure = String(cString: strerror(errno))
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
            enumerator.skipDescendants()  // a new folder's hidden copy goes whole
        }
    }

    private func writeManifest(_ manifest: SiteManifest) throws {
        try atomicWrite(manifest.serialized(), to: root.path + "/" + SiteManifest.fileName)
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
